import { describe, expect, it } from 'vitest';
import { operatorToken } from '../../../test/gateway-fixtures.ts';
import { api, testServer } from '../../../test/harness.ts';
import { createAccount, createUser, unique } from '../../../test/factories.ts';

describe('identity review by operators', () => {
  it('lists accounts waiting for review and marks one verified', async () => {
    const { db } = await testServer();
    const holder = await createUser();
    const account = await createAccount(holder);
    // The upload route has its own tests; here the document row is all that matters.
    await db.insertInto('identityDocuments').values({ accountId: account.accountId, storedName: `${unique('doc')}.png`, mimeType: 'image/png', sizeBytes: 10 }).execute();
    const token = await operatorToken();

    const pending = await api('GET', '/v1/operator/identity-reviews', { token });
    expect(pending.status).toBe(200);
    const entry = pending.body.data.find((review: { accountId: string }) => review.accountId === account.accountId);
    expect(entry.documents).toHaveLength(1);

    const verify = await api('POST', `/v1/operator/accounts/${account.accountId}/identity/verify`, { token });
    expect(verify.status).toBe(200);
    const seen = await api('GET', `/v1/account/${account.accountNumber}`, { token: holder.token });
    expect(seen.body.data.identity.isVerified).toBe(true);
    const activities = await api('GET', `/v1/activities?accountId=${account.accountId}`, { token: holder.token });
    expect(JSON.stringify(activities.body)).toContain('Identity verified');
  });

  it('refuses an account without documents', async () => {
    const holder = await createUser();
    const account = await createAccount(holder);
    const response = await api('POST', `/v1/operator/accounts/${account.accountId}/identity/verify`, { token: await operatorToken() });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('no_identity_documents');
  });

  it('is invisible to everyone but operators', async () => {
    const holder = await createUser();
    const account = await createAccount(holder);
    expect((await api('GET', '/v1/operator/identity-reviews', { token: holder.token })).status).toBe(404);
    expect((await api('POST', `/v1/operator/accounts/${account.accountId}/identity/verify`, { token: holder.token })).status).toBe(404);
    expect((await api('GET', '/v1/operator/identity-reviews')).status).toBe(401);
  });
});
