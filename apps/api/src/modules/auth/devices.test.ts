import { sessionMessages } from '@kestrel/shared';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import { api, testServer } from '../../../test/harness.ts';
import { LAST_SEEN_EVERY_MS } from '../sessions/sessions.repository.ts';

const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/** Signs the user in again from a device with this User-Agent; answers the new token. */
async function signInFrom(user: { email: string; password: string }, userAgent: string): Promise<string> {
  const answer = await api('POST', '/v1/auth/login', { body: { email: user.email, password: user.password }, headers: { 'user-agent': userAgent } });
  expect(answer.status).toBe(200);
  return answer.body.data.token as string;
}

const devicesOf = (token: string) => api('GET', '/v1/auth/sessions', { token });

describe('issue 25: signed-in devices (My Account → Security)', () => {
  it('lists only the caller\'s live sessions, most recent first, with the device read from its browser and which one is asking', async () => {
    const user = await createUser();
    const stranger = await createUser();
    const phone = await signInFrom(user, SAFARI_IPHONE);
    const laptop = await signInFrom(user, CHROME_LINUX);

    const answer = await devicesOf(laptop);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const list = answer.body.data as { _id: string; device: string; ip: string | null; current: boolean; signedInAt: string; lastSeenAt: string }[];
    expect(list).toHaveLength(3);
    expect(list.filter((session) => session.current)).toHaveLength(1);
    expect(list.find((session) => session.current)?.device).toBe('Chrome 142 on Linux');
    expect(list.map((session) => session.device)).toContain('Safari 18 on iOS');
    expect(list.every((session) => session.ip !== null && !Number.isNaN(Date.parse(session.signedInAt)))).toBe(true);
    // Nothing of the stranger's, and the stranger sees none of these.
    const theirs = (await devicesOf(stranger.token)).body.data as { _id: string }[];
    expect(theirs).toHaveLength(1);
    expect(list.map((session) => session._id)).not.toContain(theirs[0]!._id);
    expect(phone).not.toBe(laptop);
  });

  it('signs one other device out at once; another user\'s session, the asking one, a malformed or ended id change nothing', async () => {
    const user = await createUser();
    const stranger = await createUser();
    const phone = await signInFrom(user, SAFARI_IPHONE);
    const laptop = await signInFrom(user, CHROME_LINUX);
    const list = (await devicesOf(laptop)).body.data as { _id: string; device: string; current: boolean }[];
    const phoneSession = list.find((session) => session.device === 'Safari 18 on iOS')!;
    const laptopSession = list.find((session) => session.current)!;
    const strangerSession = ((await devicesOf(stranger.token)).body.data as { _id: string }[])[0]!;

    const foreign = await api('DELETE', `/v1/auth/sessions/${strangerSession._id}`, { token: laptop });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe(sessionMessages.notFound);
    expect((await api('GET', `/v1/user/${stranger.userId}`, { token: stranger.token })).status).toBe(200);

    const malformed = await api('DELETE', '/v1/auth/sessions/not-a-session', { token: laptop });
    expect(malformed.status).toBe(404);

    const own = await api('DELETE', `/v1/auth/sessions/${laptopSession._id}`, { token: laptop });
    expect(own.status).toBe(409);
    expect(own.body.error).toBe(sessionMessages.current);

    const done = await api('DELETE', `/v1/auth/sessions/${phoneSession._id}`, { token: laptop });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ status: 'success', message: sessionMessages.signedOut, data: null });
    expect((await api('GET', `/v1/user/${user.userId}`, { token: phone })).status).toBe(401);
    expect((await api('GET', `/v1/user/${user.userId}`, { token: laptop })).status).toBe(200);
    expect(((await devicesOf(laptop)).body.data as { _id: string }[]).map((session) => session._id)).not.toContain(phoneSession._id);

    const again = await api('DELETE', `/v1/auth/sessions/${phoneSession._id}`, { token: laptop });
    expect(again.status).toBe(404);

    const { db } = await testServer();
    const audit = await db.selectFrom('auditLog').select(['action', 'subjectId']).where('actorUserId', '=', user.userId).where('action', '=', 'auth.session.revoke').execute();
    expect(audit).toEqual([{ action: 'auth.session.revoke', subjectId: phoneSession._id }]);
  });

  it('"sign out everywhere else" ends every other session and keeps the asking one', async () => {
    const user = await createUser();
    const others = [await signInFrom(user, SAFARI_IPHONE), await signInFrom(user, SAFARI_IPHONE), user.token];
    const laptop = await signInFrom(user, CHROME_LINUX);

    const answer = await api('POST', '/v1/auth/sessions/sign-out-others', { token: laptop });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'success', message: sessionMessages.signedOutOthers, data: { signedOut: 3 } });
    for (const token of others) expect((await api('GET', `/v1/user/${user.userId}`, { token })).status).toBe(401);
    const left = (await devicesOf(laptop)).body.data as { current: boolean }[];
    expect(left).toEqual([expect.objectContaining({ current: true })]);
  });

  it('marks a session seen when it is used after a minute, not on every request', async () => {
    const user = await createUser();
    const { db } = await testServer();
    const longAgo = new Date(Date.now() - 10 * LAST_SEEN_EVERY_MS);
    await db.updateTable('sessions').set({ lastSeenAt: longAgo }).where('userId', '=', user.userId).execute();
    // The token was looked up by sign-up's own requests less than a second ago: let the lookup's cache lapse.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const before = Date.now();
    const list = (await devicesOf(user.token)).body.data as { lastSeenAt: string }[];
    const seen = Date.parse(list[0]!.lastSeenAt);
    expect(seen).toBeGreaterThanOrEqual(before - 1_000);
    expect((await devicesOf(user.token)).status).toBe(200);
    expect(Date.parse(((await devicesOf(user.token)).body.data as { lastSeenAt: string }[])[0]!.lastSeenAt)).toBe(seen);
  });

  it('needs a session', async () => {
    expect((await api('GET', '/v1/auth/sessions')).status).toBe(401);
    expect((await api('POST', '/v1/auth/sessions/sign-out-others')).status).toBe(401);
  });
});
