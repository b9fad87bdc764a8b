import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { storeApiTypes } from './store-api-types.ts';

/** `npm run sdk:generate`: the API's document, as the server publishes it, → src/generated/store-api.ts. */
const here = path.dirname(fileURLToPath(import.meta.url));
const api = path.resolve(here, '../../../apps/api');
const document = JSON.parse(execFileSync('npx', ['tsx', 'src/openapi-cli.ts'], { cwd: api, maxBuffer: 64 * 1024 * 1024 }).toString('utf8'));
const target = path.resolve(here, '../src/generated/store-api.ts');
writeFileSync(target, await storeApiTypes(document));
console.log(`Wrote ${path.relative(process.cwd(), target)}`);
