import { loadConfig } from '../config.ts';
import { openDatabase, withoutStatementTimeouts } from './database.ts';
import { migrate } from './migrate.ts';
import path from 'node:path';

const config = loadConfig();
const handle = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: path.join(config.dataDir, 'db'),
  timeouts: withoutStatementTimeouts(config.databaseTimeouts),
});
try {
  const applied = await migrate(handle.db);
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database is up to date.');
} finally {
  await handle.close();
}
