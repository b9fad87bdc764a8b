import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { extraTestApp, api } from '../../../test/harness.ts';
import { createAccount, createUser, fundAccount } from '../../../test/factories.ts';
import { asCents } from '@kestrel/shared';

const extraApps: FastifyInstance[] = [];
afterAll(async () => {
  for (const app of extraApps) await app.close();
});

/** A second API process on the same database (as WEB_CONCURRENCY workers are). */
async function secondProcess() {
  const { app, baseUrl } = await extraTestApp();
  extraApps.push(app);
  return async (method: string, urlPath: string, options: { token: string; body?: unknown }) => {
    const response = await fetch(`${baseUrl}${urlPath}`, {
      method,
      headers: { authorization: options.token, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    return { status: response.status, body: (await response.json()) as { code?: string } };
  };
}

describe('sessions across processes', () => {
  it('a logged-out token is refused at once by its own process, within 1 s by every other, and at once for money', async () => {
    const other = await secondProcess();
    const user = await createUser();
    const account = await createAccount(user);
    const recipient = await createAccount(await createUser());
    await fundAccount(account.accountId, asCents(1_000));
    // The other process has seen the session live (and may remember it for up to a second).
    expect((await other('GET', `/v1/user/${user.userId}`, { token: user.token })).status).toBe(200);

    expect((await api('POST', '/v1/auth/logout', { token: user.token })).status).toBe(200);
    const loggedOutAt = Date.now();
    expect((await api('GET', `/v1/user/${user.userId}`, { token: user.token })).status).toBe(401);
    // Money checks the session in the database itself, whatever the guard remembered.
    const transfer = await other('POST', '/v1/account/transfer_balance', {
      token: user.token,
      body: { debitAccountKey: account.userName, creditAccountKey: recipient.userName, currency: 'USD', balance: 1, tpin: account.tpin },
    });
    expect(transfer.status).toBe(401);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, loggedOutAt + 1_050 - Date.now())));
    const later = await other('GET', `/v1/user/${user.userId}`, { token: user.token });
    expect(later.status).toBe(401);
    expect(later.body.code).toBe('session_expired');
  });

  it('a TPIN locked by guesses through one process is locked through the others', async () => {
    const other = await secondProcess();
    const user = await createUser();
    const account = await createAccount(user);
    const recipient = await createAccount(await createUser());
    await fundAccount(account.accountId, asCents(1_000));
    const body = { debitAccountKey: account.userName, creditAccountKey: recipient.userName, currency: 'USD', balance: 1, tpin: account.tpin };
    const wrongTpin = account.tpin === '1111' ? '2222' : '1111';
    for (let i = 0; i < 5; i++) await api('POST', '/v1/account/transfer_balance', { token: user.token, body: { ...body, tpin: wrongTpin } });
    const right = await other('POST', '/v1/account/transfer_balance', { token: user.token, body });
    expect(right.status).toBe(423);
    expect(right.body.code).toBe('tpin_locked');
  });
});
