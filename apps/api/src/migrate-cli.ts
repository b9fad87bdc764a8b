// `npm run migrate`: applies the numbered migrations and the changed database functions, then
// exits. An entry point like server.ts, so it sits beside it: entry points read config.ts,
// while db/ never imports upward.
import { loadConfig } from './config.ts';
import { openCommandDatabase } from './db/command-database.ts';
import { migrate } from './db/migrate.ts';

const config = loadConfig();
const handle = await openCommandDatabase(config);
try {
  const applied = await migrate(handle.db);
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database is up to date.');
} finally {
  await handle.close();
}
