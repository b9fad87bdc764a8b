import { messages, passkeyMessages, STEP_UP_CODE_MAX_ATTEMPTS, STEP_UP_CODES_PER_HOUR, STEP_UP_THRESHOLD_CENTS, stepUpMessages } from '@kestrel/shared';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createHolder, transferAs, withdrawAs, type TestAccount, type TestUser } from '../../../test/factories.ts';
import { api, testServer } from '../../../test/harness.ts';
import { codeOf, nextStep, useSteppedClock } from '../../../test/totp.ts';
import { createStore, webPayBodyFor } from '../../../test/gateway-fixtures.ts';

/*
 * Step-up for large movements (issue 25; README, Security): above the account's threshold
 * (US$ 1,000.00 of movements on the TPIN alone over 24 hours, this one included) a transfer,
 * withdrawal or wallet pay also needs a second factor — the authenticator app's code when 2FA
 * is on, a code mailed to the person's sign-in e-mail when it is off. The clock (Date only, in
 * this process: the server's too) is moved a 30-second step on before each app code.
 */

type Holder = { user: TestUser; account: TestAccount };

useSteppedClock();

let keys = 0;
const newKey = () => `step-up-${Date.now()}-${++keys}`;

async function balanceCents(h: Holder): Promise<number> {
  const response = await api('GET', `/v1/account/${h.account.accountNumber}`, { token: h.user.token });
  expect(response.status).toBe(200);
  const usd = (response.body.data.balance as { currency: string; amount: number }[]).find((b) => b.currency === 'USD');
  return Math.round((usd?.amount ?? 0) * 100);
}

/** The code of the newest step-up mail to this person (its subject starts with it), and the mail. */
async function mailedCode(user: TestUser): Promise<{ code: string; text: string; html: string }> {
  const { db } = await testServer();
  const mail = await db
    .selectFrom('mailMessages')
    .selectAll()
    .where('toAddress', '=', user.email)
    .where('template', '=', 'step_up_code')
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  expect(mail.subject).toMatch(/^\d{6} is your Kestrel verification code$/);
  return { code: mail.subject.slice(0, 6), text: mail.textBody, html: mail.htmlBody ?? '' };
}

async function stepUpMailCount(user: TestUser): Promise<number> {
  const { db } = await testServer();
  const rows = await db.selectFrom('mailMessages').select('id').where('toAddress', '=', user.email).where('template', '=', 'step_up_code').execute();
  return rows.length;
}

/** Turns 2FA on for this holder; answers the base32 secret and the recovery codes. */
async function enrol(h: Holder): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await api('POST', '/v1/auth/two-factor/setup', { token: h.user.token, body: { password: h.user.password } });
  expect(setup.status).toBe(200);
  const secret = setup.body.data.secret as string;
  nextStep();
  const enabled = await api('POST', '/v1/auth/two-factor/enable', { token: h.user.token, body: { code: codeOf(secret), password: h.user.password } });
  expect(enabled.status).toBe(200);
  return { secret, recoveryCodes: enabled.body.data.recoveryCodes as string[] };
}

describe('step-up for large movements', () => {
  it("the accounts' default threshold is STEP_UP_THRESHOLD_CENTS (US$ 1,000.00)", async () => {
    const alice = await createHolder();
    const { db } = await testServer();
    const row = await db.selectFrom('accounts').select('stepUpThresholdCents').where('id', '=', alice.account.accountId).executeTakeFirstOrThrow();
    expect(Number(row.stepUpThresholdCents)).toBe(STEP_UP_THRESHOLD_CENTS);
    expect(STEP_UP_THRESHOLD_CENTS).toBe(100_000);
  });

  it('below the threshold nothing changes: US$ 1,000.00 exactly moves on the TPIN alone, and no code is mailed', async () => {
    const alice = await createHolder(500_000);
    const bob = await createHolder();
    const response = await transferAs(alice, bob.account, '1000.00');
    expect(response.status).toBe(200);
    expect(response.body.message).toBe('Fund transfer successfull');
    expect(await balanceCents(alice)).toBe(400_000);
    expect(await stepUpMailCount(alice.user)).toBe(0);
  });

  it('2FA off: a transfer above the threshold is refused 403 step_up_required and mails a code; the same request with the same key and the code goes through, once', async () => {
    const alice = await createHolder(500_000);
    const bob = await createHolder();
    const key = newKey();
    const refused = await transferAs(alice, bob.account, '1000.01', { key });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ status: 'error', code: 'step_up_required', error: stepUpMessages.requiredEmail });
    expect(await balanceCents(alice)).toBe(500_000);
    expect(await balanceCents(bob)).toBe(0);

    const mail = await mailedCode(alice.user);
    expect(mail.text).toContain(`a transfer of US$ 1,000.01 to ${bob.account.userName}`);
    expect(mail.text).toContain('within 10 minutes');
    expect(mail.html).toContain(mail.code);

    const through = await transferAs(alice, bob.account, '1000.01', { key, code: mail.code });
    expect(through.status).toBe(200);
    expect(through.body.data).toMatchObject({ amount: 1000.01, balance: 3999.99 });
    // The same key again (with or without the code): the first answer, no second movement.
    const replay = await transferAs(alice, bob.account, '1000.01', { key, code: mail.code });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.transactionId).toBe(through.body.data.transactionId);
    expect(await balanceCents(alice)).toBe(399_999);
    expect(await balanceCents(bob)).toBe(100_001);
  });

  it('a person whose only second factor is a passkey is mailed a code, and the mailed code goes through', async () => {
    const { db } = await testServer();
    const alice = await createHolder(500_000);
    const bob = await createHolder();
    await db.insertInto('passkeys').values({ id: `passkey-${alice.user.userId}`, userId: alice.user.userId, name: 'Phone', publicKey: 'not-used-here', transports: [] }).execute();
    const key = newKey();
    const refused = await transferAs(alice, bob.account, 1500, { key });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'step_up_required', error: stepUpMessages.requiredEmail });
    const { code } = await mailedCode(alice.user);
    const through = await transferAs(alice, bob.account, 1500, { key, code });
    expect(through.status).toBe(200);
    expect(await balanceCents(alice)).toBe(350_000);
  });

  it('a mailed code used twice is refused (403 step_up_invalid) and a new one is mailed', async () => {
    const alice = await createHolder(500_000);
    const bob = await createHolder();
    await transferAs(alice, bob.account, 1500);
    const { code } = await mailedCode(alice.user);
    expect((await transferAs(alice, bob.account, 1500, { code })).status).toBe(200);
    const again = await transferAs(alice, bob.account, 1500, { code });
    expect(again.status).toBe(403);
    expect(again.body).toMatchObject({ code: 'step_up_invalid', error: stepUpMessages.expiredEmail, fields: { stepUpCode: stepUpMessages.expiredEmail } });
    expect(await stepUpMailCount(alice.user)).toBe(2);
    expect((await mailedCode(alice.user)).code).toMatch(/^\d{6}$/);
    expect(await balanceCents(alice)).toBe(350_000);
  });

  it('an expired mailed code is refused; the new one mailed then works', async () => {
    const alice = await createHolder(500_000);
    const bob = await createHolder();
    await transferAs(alice, bob.account, 1500);
    const { code } = await mailedCode(alice.user);
    const { db } = await testServer();
    await db.updateTable('stepUpCodes').set({ expiresAt: sql<Date>`now() - interval '1 second'` }).where('userId', '=', alice.user.userId).execute();
    const expired = await transferAs(alice, bob.account, 1500, { code });
    expect(expired.status).toBe(403);
    expect(expired.body).toMatchObject({ code: 'step_up_invalid', error: stepUpMessages.expiredEmail });
    expect(await balanceCents(alice)).toBe(500_000);
    const fresh = await mailedCode(alice.user);
    expect(fresh.code === code ? 'same' : 'new').toBe('new');
    expect((await transferAs(alice, bob.account, 1500, { code: fresh.code })).status).toBe(200);
    expect(await balanceCents(alice)).toBe(350_000);
  });

  it(`too many wrong tries: ${STEP_UP_CODE_MAX_ATTEMPTS} wrong codes spend the mailed one, and the right one is refused after them`, async () => {
    const alice = await createHolder(500_000);
    const bob = await createHolder();
    await transferAs(alice, bob.account, 1500);
    const { code } = await mailedCode(alice.user);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let left = STEP_UP_CODE_MAX_ATTEMPTS - 1; left >= 1; left--) {
      const response = await transferAs(alice, bob.account, 1500, { code: wrong });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'step_up_invalid', error: stepUpMessages.invalidEmail(left) });
    }
    const last = await transferAs(alice, bob.account, 1500, { code: wrong });
    expect(last.status).toBe(403);
    expect(last.body).toMatchObject({ code: 'step_up_invalid', error: stepUpMessages.tooManyEmail });
    // The first code is spent: the right digits no longer move money (a new code was mailed).
    const late = await transferAs(alice, bob.account, 1500, { code });
    expect(late.status).toBe(403);
    expect(late.body.code).toBe('step_up_invalid');
    expect(await balanceCents(alice)).toBe(500_000);
  });

  it('a mailed code is good only for the movement it was sent for (another amount gets a new code)', async () => {
    const alice = await createHolder(500_000);
    const bob = await createHolder();
    await transferAs(alice, bob.account, 1500);
    const { code } = await mailedCode(alice.user);
    const other = await transferAs(alice, bob.account, 1600, { code });
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ code: 'step_up_required', error: stepUpMessages.requiredEmail });
    expect(await stepUpMailCount(alice.user)).toBe(2);
    expect(await balanceCents(alice)).toBe(500_000);
  });

  it(`mails at most ${STEP_UP_CODES_PER_HOUR} codes an hour to a person (429 step_up_rate_limited after)`, async () => {
    const alice = await createHolder(500_000);
    const bob = await createHolder();
    for (let i = 0; i < STEP_UP_CODES_PER_HOUR; i++) expect((await transferAs(alice, bob.account, 1500)).status).toBe(403);
    const limited = await transferAs(alice, bob.account, 1500);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'step_up_rate_limited', error: stepUpMessages.codesRateLimited });
    expect(await stepUpMailCount(alice.user)).toBe(STEP_UP_CODES_PER_HOUR);
  });

  it('2FA on: refused without the app code (no mail), through with it; the same step replayed is refused; a recovery code serves once', async () => {
    const alice = await createHolder(1_000_000);
    const bob = await createHolder();
    const { secret, recoveryCodes } = await enrol(alice);
    const key = newKey();
    const refused = await transferAs(alice, bob.account, 2000, { key });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'step_up_required', error: stepUpMessages.requiredApp });
    expect(await stepUpMailCount(alice.user)).toBe(0);

    nextStep();
    const code = codeOf(secret);
    expect((await transferAs(alice, bob.account, 2000, { key, code })).status).toBe(200);
    // The same code (its step is spent) for another transfer: refused, nothing moves.
    const replayed = await transferAs(alice, bob.account, 2000, { key: newKey(), code });
    expect(replayed.status).toBe(403);
    expect(replayed.body).toMatchObject({ code: 'step_up_invalid', error: stepUpMessages.reusedApp });
    // A code of no step near now.
    const wrong = codeOf(secret, Date.now() + 10 * 60_000);
    const wrongAnswer = await transferAs(alice, bob.account, 2000, { key: newKey(), code: wrong === code ? '000000' : wrong });
    expect(wrongAnswer.status).toBe(403);
    expect(wrongAnswer.body).toMatchObject({ code: 'step_up_invalid', error: stepUpMessages.invalidApp });

    const recovery = recoveryCodes[0]!;
    expect((await transferAs(alice, bob.account, 2000, { key: newKey(), code: recovery })).status).toBe(200);
    const recoveryAgain = await transferAs(alice, bob.account, 2000, { key: newKey(), code: recovery });
    expect(recoveryAgain.status).toBe(403);
    expect(recoveryAgain.body.code).toBe('step_up_invalid');
    expect(await balanceCents(alice)).toBe(600_000);
    expect(await balanceCents(bob)).toBe(400_000);
  });

  it('a stolen session plus TPIN cannot move more than the threshold in 24 hours, split into transfers and withdrawals', async () => {
    const alice = await createHolder(1_000_000);
    const mallory = await createHolder();
    expect((await transferAs(alice, mallory.account, 600)).status).toBe(200);
    expect((await withdrawAs(alice, 300)).status).toBe(201);
    expect((await transferAs(alice, mallory.account, 100)).status).toBe(200);
    // US$ 1,000.00 moved: one more cent, either way, needs the second factor.
    const cent = await transferAs(alice, mallory.account, '0.01');
    expect(cent.status).toBe(403);
    expect(cent.body.code).toBe('step_up_required');
    const withdrawal = await withdrawAs(alice, 1);
    expect(withdrawal.status).toBe(403);
    expect(withdrawal.body.code).toBe('step_up_required');
    expect(await balanceCents(alice)).toBe(900_000);
    expect(await balanceCents(mallory)).toBe(70_000);
  });

  it('ten parallel transfers of US$ 200.00 on the TPIN alone move at most US$ 1,000.00', async () => {
    const alice = await createHolder(1_000_000);
    const mallory = await createHolder();
    const answers = await Promise.all(Array.from({ length: 10 }, () => transferAs(alice, mallory.account, 200)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 403 || status === 429)).toBe(true);
    expect(await balanceCents(mallory)).toBe(100_000);
    expect(await balanceCents(alice)).toBe(900_000);
  });

  it('movements older than 24 hours no longer count', async () => {
    const alice = await createHolder(1_000_000);
    const bob = await createHolder();
    expect((await transferAs(alice, bob.account, 1000)).status).toBe(200);
    expect((await transferAs(alice, bob.account, 1)).status).toBe(403);
    const { db } = await testServer();
    await db
      .updateTable('stepUpUsage')
      .set({ hour: sql<Date>`hour - interval '25 hours'` })
      .where('accountId', '=', alice.account.accountId)
      .execute();
    expect((await transferAs(alice, bob.account, 1)).status).toBe(200);
  });

  it("counts an account's movements in one row an hour: the hour 24 hours back still counts, older rows are dropped by a new hour's first movement", async () => {
    const alice = await createHolder(1_000_000);
    const bob = await createHolder();
    expect((await transferAs(alice, bob.account, 400)).status).toBe(200);
    expect((await transferAs(alice, bob.account, 500)).status).toBe(200);
    const { db } = await testServer();
    const usage = () => db.selectFrom('stepUpUsage').select(['hour', 'amountCents']).where('accountId', '=', alice.account.accountId).orderBy('hour').execute();
    const [hour] = await usage();
    expect((await usage()).map((row) => Number(row.amountCents))).toEqual([90_000]);
    const currentHour = sql<Date>`date_bin('1 hour', now(), timestamptz '2000-01-01 00:00:00+00')`;

    // The bucket starting 24 hours before the current hour is still in the window: 900 + 101 > 1,000.
    await db.updateTable('stepUpUsage').set({ hour: sql<Date>`${currentHour} - interval '24 hours'` }).where('accountId', '=', alice.account.accountId).execute();
    expect((await transferAs(alice, bob.account, 101)).status).toBe(403);

    // One hour older, it has left the window; the movement starts this hour's row and deletes it.
    await db.updateTable('stepUpUsage').set({ hour: sql<Date>`${currentHour} - interval '25 hours'` }).where('accountId', '=', alice.account.accountId).execute();
    expect((await transferAs(alice, bob.account, 101)).status).toBe(200);
    const rows = await usage();
    expect(rows.map((row) => Number(row.amountCents))).toEqual([10_100]);
    expect(new Date(rows[0]!.hour).getTime()).toBe(new Date(hour!.hour).getTime());
  });

  it('a withdrawal above the threshold: 403 step_up_required without the code, 201 with it and the same key; the refusal holds nothing', async () => {
    const alice = await createHolder(500_000);
    const key = newKey();
    const refused = await withdrawAs(alice, 2500, { key });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'step_up_required', error: stepUpMessages.requiredEmail });
    expect(await balanceCents(alice)).toBe(500_000);
    const mail = await mailedCode(alice.user);
    expect(mail.text).toContain('a withdrawal of US$ 2,500.00 to First Test Bank');
    const wrong = await withdrawAs(alice, 2500, { key, code: mail.code === '000000' ? '111111' : '000000' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ code: 'step_up_invalid', error: stepUpMessages.invalidEmail(STEP_UP_CODE_MAX_ATTEMPTS - 1) });
    const through = await withdrawAs(alice, 2500, { key, code: mail.code });
    expect(through.status).toBe(201);
    const replay = await withdrawAs(alice, 2500, { key, code: mail.code });
    expect(replay.status).toBe(201);
    expect(replay.body.data._id).toBe(through.body.data._id);
    expect(await balanceCents(alice)).toBe(250_000);
  });

  it('a wrong TPIN is refused as before, ahead of the step-up (no code mailed)', async () => {
    const alice = await createHolder(500_000);
    const bob = await createHolder();
    const wrongTpin = alice.account.tpin === '1111' ? '2222' : '1111';
    const response = await transferAs(alice, bob.account, 1500, { tpin: wrongTpin });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('tpin_incorrect');
    expect(await stepUpMailCount(alice.user)).toBe(0);
  });

  it('a checkout wallet pay above the threshold: 403 step_up_required, then paid with the mailed code and the same key; the payment stays payable meanwhile', async () => {
    const store = await createStore();
    const alice = await createHolder(500_000);
    const created = await api('POST', '/v1/payment/web-pay', { headers: store.headers, body: webPayBodyFor({ amount: 1500 }) });
    expect(created.status).toBe(200);
    const paymentId = created.body.data.paymentId as string;
    const key = newKey();
    const pay = (code?: string) =>
      api('POST', `/v1/payment/complete/kestrel/${paymentId}`, {
        token: alice.user.token,
        headers: { 'idempotency-key': key },
        body: { accountNumber: alice.account.accountNumber, tpin: alice.account.tpin, ...(code === undefined ? {} : { stepUpCode: code }) },
      });
    const refused = await pay();
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'step_up_required', error: stepUpMessages.requiredEmail });
    expect(await balanceCents(alice)).toBe(500_000);
    const mail = await mailedCode(alice.user);
    expect(mail.text).toContain('a wallet payment of US$ 1,500.00');
    const paid = await pay(mail.code);
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ paymentStatus: 'success', paymentId });
    expect(await balanceCents(alice)).toBe(350_000);
  });

  it('a payment-link wallet pay above the threshold: 403 step_up_required with 2FA on, paid with the app code; below it, on the TPIN alone', async () => {
    const owner = await createHolder();
    const alice = await createHolder(500_000);
    const { secret } = await enrol(alice);
    const link = await api('POST', '/v1/payment-request/create', {
      token: owner.user.token,
      body: {
        paymentPurpose: 'Guitar',
        tpin: owner.account.tpin,
        accountNumber: owner.account.accountNumber,
        amount: { type: 'customer-choosen', currency: 'USD' },
        minimumAmount: '1',
        maximumAmount: 5000,
        isUseLimit: false,
        reference: 'INV-7',
        paymentMethods: ['Card', 'Kestrel'],
      },
    });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    const urlId = link.body.data.pRequestURLId as string;
    const pay = (amount: number, key: string, code?: string) =>
      api('POST', `/v1/payment-request/kestrel/complete-payment/${urlId}`, {
        token: alice.user.token,
        headers: { 'idempotency-key': key },
        body: { email: 'alice@example.test', amount, accountNumber: alice.account.accountNumber, tpin: alice.account.tpin, ...(code === undefined ? {} : { stepUpCode: code }) },
      });
    expect((await pay(40, newKey())).status).toBe(200);
    const key = newKey();
    const refused = await pay(1200, key);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'step_up_required', error: stepUpMessages.requiredApp });
    nextStep();
    const paid = await pay(1200, key, codeOf(secret));
    expect(paid.status).toBe(200);
    expect(await balanceCents(alice)).toBe(500_000 - 4_000 - 120_000);
  });
});

describe('issue 25 audit: a stolen session and the TPIN cannot add a second factor that passes step-up', () => {
  it('2FA off: without the password the thief can set up no app and add no passkey, and a transfer above the threshold is still refused', async () => {
    const { db } = await testServer();
    const alice = await createHolder(500_000);
    const bob = await createHolder();
    // The thief has alice's session token and her TPIN (transferAs sends it), not her password.
    const noPassword = await api('POST', '/v1/auth/two-factor/setup', { token: alice.user.token, body: {} });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.fields).toEqual({ password: messages.login.passwordRequired });
    const guessed = await api('POST', '/v1/auth/two-factor/setup', { token: alice.user.token, body: { password: 'a-guess-of-the-thief' } });
    expect(guessed.status).toBe(400);
    expect(guessed.body).toMatchObject({ code: 'password_invalid', error: passkeyMessages.passwordWrong, fields: { password: passkeyMessages.passwordWrong } });
    // No secret was made, so there is nothing to turn on; and turning on asks for the password too.
    expect(await db.selectFrom('userTotp').select('userId').where('userId', '=', alice.user.userId).executeTakeFirst()).toBeUndefined();
    const enable = await api('POST', '/v1/auth/two-factor/enable', { token: alice.user.token, body: { code: '123456' } });
    expect(enable.status).toBe(400);
    expect(enable.body.fields).toEqual({ password: messages.login.passwordRequired });

    // A passkey neither: its options (the only source of a registration challenge) need the password.
    const passkeyOptions = await api('POST', '/v1/auth/passkeys/options', { token: alice.user.token, body: {} });
    expect(passkeyOptions.status).toBe(400);
    expect(passkeyOptions.body.fields).toEqual({ password: messages.login.passwordRequired });
    const passkeyGuess = await api('POST', '/v1/auth/passkeys/options', { token: alice.user.token, body: { password: 'another-guess' } });
    expect(passkeyGuess.body.code).toBe('password_invalid');
    expect(await db.selectFrom('webauthnChallenges').select('id').where('userId', '=', alice.user.userId).execute()).toEqual([]);

    // Each wrong guess is a failed login of alice's, as at the sign-in.
    const failed = await db.selectFrom('loginAttempts').select('id').where('email', '=', alice.user.email).where('succeeded', '=', false).execute();
    expect(failed).toHaveLength(2);
    const audit = await db.selectFrom('auditLog').select('action').where('subjectId', '=', alice.user.userId).where('action', '=', 'auth.reauthentication_failed').execute();
    expect(audit).toHaveLength(2);

    // Still 2FA off: the large transfer asks for the mailed code (to alice, not the thief), and a made-up code moves nothing.
    const refused = await transferAs(alice, bob.account, '1500.00', { key: newKey() });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('step_up_required');
    const madeUp = await transferAs(alice, bob.account, '1500.00', { key: newKey(), code: '123456' });
    expect(madeUp.status).toBe(403);
    expect(madeUp.body.code).toBe('step_up_invalid');
    expect(await balanceCents(alice)).toBe(500_000);
    expect(await balanceCents(bob)).toBe(0);
  });

  it('with the password, the app is set up and turned on, and its codes then pass step-up', async () => {
    const alice = await createHolder(500_000);
    const bob = await createHolder();
    const { secret } = await enrol(alice);
    nextStep();
    const through = await transferAs(alice, bob.account, '1500.00', { key: newKey(), code: codeOf(secret) });
    expect(through.status).toBe(200);
    expect(await balanceCents(alice)).toBe(350_000);
    expect(await balanceCents(bob)).toBe(150_000);
  });
});
