import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';

/*
 * Prints the API reference (`/v1/openapi.json`) as the server publishes it, without starting
 * one: `npx tsx apps/api/src/openapi-cli.ts > openapi.json`. The linters (`npm run lint:openapi`) and
 * the SDK's type generator read this. PUBLIC_URL sets the server address (default
 * http://localhost:3000). The database is an empty in-memory PGlite: building the document
 * reads none.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'kestrel-openapi-'));
try {
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: undefined, NODE_ENV: 'test', LOG_LEVEL: 'silent', SECRET_KEY: 'x'.repeat(64) });
  const handle = await openDatabase({ databaseUrl: undefined });
  const app = await buildApp({ config, db: handle.db, logger: false, webDist: path.join(dataDir, 'no-web') });
  await app.ready();
  process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`);
  await app.close();
  await handle.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
