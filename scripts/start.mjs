// `npm start`: builds the web app when it is missing or older than its sources, then
// runs the server (which applies migrations before it listens) in this same process.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'apps/web/dist/index.html');
const sources = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/build', 'packages/shared/src'];

function newestChange(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((latest, name) => Math.max(latest, newestChange(path.join(target, name))), stat.mtimeMs);
}

const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
const sourcesChangedAt = Math.max(...sources.map((source) => newestChange(path.join(root, source))));
if (builtAt < sourcesChangedAt) {
  console.log(builtAt ? 'Web app sources changed; rebuilding…' : 'Building the web app…');
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: path.join(root, 'apps/web'),
    stdio: 'inherit',
    // The server's NODE_ENV (development for the journeys) must not give the browser React's
    // development build: Vite takes NODE_ENV from the environment when it is set.
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

const { register } = await import('tsx/esm/api');
register();
await import(path.join(root, 'apps/api/src/server.ts'));
