import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { api } from '../../../apps/api/test/harness.ts';
import { storeApiTypes } from '../scripts/store-api-types.ts';

describe('the SDK’s generated types', () => {
  it('are what the running API’s /v1/openapi.json gives (run `npm run sdk:generate` when this fails)', async () => {
    const published = await api('GET', '/v1/openapi.json');
    expect(published.status).toBe(200);
    const checkedIn = readFileSync(new URL('./generated/store-api.ts', import.meta.url), 'utf8');
    const fresh = await storeApiTypes(published.body);
    expect(fresh.length).toBeGreaterThan(1000);
    expect(checkedIn).toBe(fresh);
    // Starting the server on a fresh database and generating take a while on a busy machine.
  }, 240_000);
});
