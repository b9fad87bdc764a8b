import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { AppContext } from '../../context.ts';
import { api, testConfig, testServer } from '../../../test/harness.ts';
import { createAccount, createHolder, createOperator, createUser, fundAccount, raiseStepUpThreshold, transferAs, unique, uniquePhone, withdrawAs, type TestAccount, type TestUser } from '../../../test/factories.ts';
import { card, createPayment, createStore, operatorToken, type TestStore } from '../../../test/gateway-fixtures.ts';
import { recordStatements } from '../../../test/statements.ts';
import { createSmtpMailer, type Mailer } from '../mail/mailer.ts';
import { recordNotificationEvent } from '../mail/notification-events.ts';
import { moveWithdrawalIn } from '../withdrawals/withdrawals.service.ts';
import { dispatchNotifications, NOTIFICATION_KEEP_DAYS, NOTIFICATION_RETRY_BASE_MS, pruneNotificationEvents, startNotificationDispatcher } from './dispatcher.ts';

/*
 * The e-mails (and SMS) a wallet sends (issue 25): each money movement writes a notification
 * event in its own database call; the dispatcher turns it into mails after commit. These tests
 * drive the real routes over HTTP, run the dispatcher as the server does, and read the outbox.
 */

interface Holder {
  user: TestUser;
  account: TestAccount;
}

async function ctx(): Promise<AppContext> {
  return (await testServer()).app.ctx;
}

/** Every outbox row to an address, oldest first. */
async function outbox(address: string) {
  const { db } = await testServer();
  // Mails of one dispatcher batch share a creation time: then in the order of their events.
  return db.selectFrom('mailMessages').selectAll().where('toAddress', '=', address).orderBy('createdAt').orderBy('eventId').orderBy('id').execute();
}

/** Runs the dispatcher until the address has `count` rows (another test file's dispatcher may hold an event for a moment). */
async function mailsTo(address: string, count = 1) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await dispatchNotifications(await ctx());
    const rows = await outbox(address);
    if (rows.length >= count || Date.now() > deadline) return rows;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs the dispatcher until nothing due is left to claim. */
async function dispatchAll(): Promise<void> {
  while ((await dispatchNotifications(await ctx())) > 0);
}

async function eventsAbout(subjectId: string) {
  const { db } = await testServer();
  return db.selectFrom('notificationEvents').selectAll().where('subjectId', '=', subjectId).orderBy('id').execute();
}

async function ledgerIdOf(transactionId: string): Promise<string> {
  const { db } = await testServer();
  const row = await db.selectFrom('ledgerTransactions').select('id').where('transactionId', '=', transactionId).executeTakeFirstOrThrow();
  return String(row.id);
}

/** A holder whose account has a holder name that must be escaped in HTML. */
async function holderNamed(name: string, fundCents = 0, overrides: Record<string, unknown> = {}): Promise<Holder & { phone: string }> {
  const user = await createUser();
  const phone = uniquePhone();
  const account = await createAccount(user, { accountHolderName: name, accountPhone: phone, ...overrides });
  if (fundCents) await fundAccount(account.accountId, fundCents);
  return { user, account, phone };
}

describe('transfers: "You sent" and "You received"', () => {
  it('mails both sides after commit, with both parts, the amount as the spec writes money, and every name escaped in HTML', async () => {
    const alice = await holderNamed('Alice Sender', 500_000);
    const bob = await holderNamed('Bob <b>"Builder"</b> & Sons');
    await raiseStepUpThreshold(alice.account.accountId); // a mail test, not a step-up one
    const response = await transferAs(alice, bob.account, '1234.5');
    expect(response.status).toBe(200);
    const { transactionId } = response.body.data as { transactionId: string };

    const [sent] = await mailsTo(alice.account.accountEmail);
    expect(sent).toMatchObject({ subject: 'You sent US$ 1,234.50 to Bob <b>"Builder"</b> & Sons', channel: 'email', template: 'transfer_sent', transport: 'outbox' });
    expect(sent?.textBody).toContain('Hello Alice Sender,');
    expect(sent?.textBody).toContain('Amount: US$ 1,234.50');
    expect(sent?.textBody).toContain(`To: Bob <b>"Builder"</b> & Sons (${bob.account.accountNumber})`);
    expect(sent?.textBody).toContain(`Transaction ID: ${transactionId}`);
    expect(sent?.htmlBody).toContain('Bob &lt;b&gt;&quot;Builder&quot;&lt;/b&gt; &amp; Sons');
    expect(sent?.htmlBody).not.toContain('<b>"Builder"</b>');
    expect(sent?.htmlBody).toContain('US$ 1,234.50');

    const [received] = await mailsTo(bob.account.accountEmail);
    expect(received).toMatchObject({ subject: 'You received US$ 1,234.50 from Alice Sender', template: 'transfer_received' });
    expect(received?.textBody).toContain('Hello Bob <b>"Builder"</b> & Sons,');
    expect(received?.textBody).toContain(`From: Alice Sender (${alice.account.accountNumber})`);
    expect(received?.htmlBody).toContain('Hello Bob &lt;b&gt;&quot;Builder&quot;&lt;/b&gt; &amp; Sons,');

    // One event, dispatched; its mails name it.
    const events = await eventsAbout(await ledgerIdOf(transactionId));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'transfer', state: 'dispatched', attempts: 1 });
    expect(sent?.eventId).toBe(events[0]?.id);
    expect(received?.eventId).toBe(events[0]?.id);
  });

  it('the transfer request is still one statement: the event is written inside ledger_transfer', async () => {
    const alice = await createHolder(10_000);
    const bob = await createHolder();
    await transferAs(alice, bob.account, 1); // the sender's keyed hash is known to this process from now on
    const recording = recordStatements();
    let response;
    try {
      response = await transferAs(alice, bob.account, 2);
    } finally {
      recording.stop();
    }
    expect(response.status).toBe(200);
    expect(recording.texts, JSON.stringify(recording.texts)).toHaveLength(1);
    expect(recording.texts[0]).toMatch(/^SELECT \* FROM ledger_transfer\(/);
    expect(await eventsAbout(await ledgerIdOf(response.body.data.transactionId as string))).toHaveLength(1);
  });

  it('an idempotent replay mails nothing more; a refused transfer (funds, TPIN) writes no event and no mail', async () => {
    const alice = await createHolder(10_000);
    const bob = await createHolder();
    const key = unique('key');
    const first = await transferAs(alice, bob.account, 10, { key });
    const replay = await transferAs(alice, bob.account, 10, { key });
    expect(replay.status).toBe(200);
    expect(replay.body.data.transactionId).toBe(first.body.data.transactionId);
    expect(await eventsAbout(await ledgerIdOf(first.body.data.transactionId as string))).toHaveLength(1);

    const tooMuch = await transferAs(alice, bob.account, 500);
    expect(tooMuch.status).toBe(400);
    const wrongTpin = await transferAs(alice, bob.account, 5, { tpin: alice.account.tpin === '0000' ? '1111' : '0000' });
    expect(wrongTpin.status).toBe(400);
    await dispatchAll();
    expect((await outbox(alice.account.accountEmail)).map((mail) => mail.subject)).toEqual(['You sent US$ 10.00 to ' + (await nameOf(bob.account))]);
    expect(await outbox(bob.account.accountEmail)).toHaveLength(1);
  });

  it('an account that prefers SMS gets a text message to its phone (the outbox, marked sms), not a mail', async () => {
    const alice = await holderNamed('Alice Texter', 10_000);
    const bob = await holderNamed('Bob Phone', 0, { notificationPreference: 'sms' });
    expect((await transferAs(alice, bob.account, 12.3)).status).toBe(200);
    const [sms] = await mailsTo(bob.phone);
    expect(sms).toMatchObject({ channel: 'sms', transport: 'outbox', template: 'transfer_received', htmlBody: null, subject: 'You received US$ 12.30 from Alice Texter' });
    expect(sms?.textBody).toBe(`Kestrel: You received US$ 12.30 from Alice Texter (${alice.account.accountNumber}). Transaction ${sms?.textBody.split('Transaction ')[1]}`);
    expect(sms?.textBody).toMatch(/^Kestrel: You received US\$ 12\.30 from Alice Texter \(\d+\)\. Transaction TNX\w+\.$/);
    expect(await outbox(bob.account.accountEmail)).toEqual([]);
    // The sender prefers e-mail.
    expect((await mailsTo(alice.account.accountEmail))[0]?.channel).toBe('email');
    // The development mailbox lists it, marked SMS, and (asked for two addresses) only their rows.
    const page = await api('GET', `/dev/mailbox?to=${encodeURIComponent(bob.phone)}&to=${encodeURIComponent(alice.account.accountEmail)}`);
    expect(page.body).toContain(`<h2><span class="sms">SMS</span> You received US$ 12.30 from Alice Texter</h2>`);
    expect(page.body.match(/<article>/g)).toHaveLength(2);
    const listed = await api('GET', `/dev/mailbox.json?to=${encodeURIComponent(alice.account.accountEmail)}`);
    expect(listed.body.data).toEqual([expect.objectContaining({ to: alice.account.accountEmail, channel: 'email', template: 'transfer_sent', html: expect.stringContaining('<!doctype html>') })]);
    // The HTML part, as a mail client shows it.
    const htmlPart = await api('GET', `/dev/mailbox/${listed.body.data[0]._id as string}/html`);
    expect(htmlPart.status).toBe(200);
    expect(htmlPart.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(htmlPart.body).toContain('<h1 style=');
    expect((await api('GET', `/dev/mailbox/${sms!.id}/html`)).status).toBe(404);
  });
});

async function nameOf(account: TestAccount): Promise<string> {
  const { db } = await testServer();
  return (await db.selectFrom('accounts').select('accountHolderName').where('id', '=', account.accountId).executeTakeFirstOrThrow()).accountHolderName;
}

describe('transactional: never for a rollback, never lost, never twice', () => {
  it('an event written in a transaction that rolls back leaves nothing to send (TypeScript and a money function alike)', async () => {
    const { db } = await testServer();
    const subjectId = crypto.randomUUID();
    await expect(
      db.transaction().execute(async (trx) => {
        await recordNotificationEvent(trx, { kind: 'new_device_sign_in', subjectId });
        throw new Error('the change failed after its event');
      }),
    ).rejects.toThrow('the change failed after its event');
    expect(await eventsAbout(subjectId)).toEqual([]);

    // withdrawal_move writes its event in its call; the caller's transaction then rolls back.
    const h = await createHolder(10_000);
    const operator = await createOperator();
    const ops = operator.token;
    const created = await withdrawAs(h, 20);
    expect(created.status).toBe(201);
    const id = created.body.data._id as string;
    expect((await api('POST', `/v1/operator/withdrawals/${id}/processing`, { token: ops })).status).toBe(200);
    const operatorId = operator.userId;
    await expect(
      db.transaction().execute(async (trx) => {
        await moveWithdrawalIn(trx, operatorId, id, 'complete', '127.0.0.1');
        throw new Error('the approval failed after the move');
      }),
    ).rejects.toThrow('the approval failed after the move');
    const mails = await mailsTo(h.account.accountEmail, 2);
    expect(mails.map((mail) => mail.subject)).toEqual(['Withdrawal of US$ 20.00 requested', 'Your withdrawal of US$ 20.00 is being processed']);
    expect((await eventsAbout(id)).map((event) => event.detail)).toEqual([{ status: 'Pending' }, { status: 'Processing' }]);
  });

  it('a process that stopped between commit and dispatch: the next one sends the mails, once', async () => {
    const alice = await createHolder(10_000);
    const bob = await createHolder();
    // No dispatcher runs in the test server: the transfer commits and its event waits.
    const response = await transferAs(alice, bob.account, 7.25);
    expect(response.status).toBe(200);
    const [event] = await eventsAbout(await ledgerIdOf(response.body.data.transactionId as string));
    expect(event?.state).toBe('pending');
    expect(await outbox(alice.account.accountEmail)).toEqual([]);

    // A new server process starts its dispatcher, as start.ts does.
    const { db } = await testServer();
    const config = testConfig();
    const restarted = await buildApp({ config, db, logger: false, webDist: path.join(config.dataDir, 'no-web') });
    const dispatcher = startNotificationDispatcher(restarted.ctx, 60_000);
    try {
      await expect.poll(async () => (await outbox(alice.account.accountEmail)).length, { timeout: 10_000 }).toBe(1);
      await expect.poll(async () => (await outbox(bob.account.accountEmail)).length, { timeout: 10_000 }).toBe(1);
    } finally {
      await dispatcher.stop();
      await restarted.close();
    }
    // Running again (this process, another one, at once) sends nothing more.
    await Promise.all([dispatchAll(), dispatchAll(), dispatchNotifications(await ctx(), { eventIds: [event!.id] })]);
    expect(await outbox(alice.account.accountEmail)).toHaveLength(1);
    expect(await outbox(bob.account.accountEmail)).toHaveLength(1);
    expect((await eventsAbout(event!.subjectId))[0]).toMatchObject({ state: 'dispatched', attempts: 1 });
  });

  it('a dispatcher that fails before its commit writes nothing; the event is retried with back-off and sent once', async () => {
    const alice = await createHolder(10_000);
    const bob = await createHolder();
    const response = await transferAs(alice, bob.account, 3);
    const [event] = await eventsAbout(await ledgerIdOf(response.body.data.transactionId as string));
    const real = await ctx();
    // Writes the outbox rows, then the process "dies" before the dispatcher's commit.
    const crashing: Mailer = {
      ...real.mailer,
      async stage(trx, message) {
        await real.mailer.stage(trx, message);
        throw new Error('process stopped before commit');
      },
    };
    const now = new Date();
    expect(await dispatchNotifications({ ...real, mailer: crashing }, { eventIds: [event!.id], now })).toBe(0);
    expect(await outbox(alice.account.accountEmail)).toEqual([]);
    const failed = (await eventsAbout(event!.subjectId))[0];
    expect(failed).toMatchObject({ state: 'pending', attempts: 1, lastError: 'process stopped before commit' });
    expect(failed!.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(now.getTime() + NOTIFICATION_RETRY_BASE_MS);
    // Not due yet: nothing happens now.
    expect(await dispatchNotifications(real, { eventIds: [event!.id], now })).toBe(0);
    // When it is due, it is sent once.
    expect(await dispatchNotifications(real, { eventIds: [event!.id], now: new Date(now.getTime() + NOTIFICATION_RETRY_BASE_MS + 1_000) })).toBe(1);
    expect(await outbox(alice.account.accountEmail)).toHaveLength(1);
    expect(await outbox(bob.account.accountEmail)).toHaveLength(1);
  });

  it('dispatchers racing over a burst of events write each mail once', async () => {
    const alice = await createHolder(100_000);
    const bobs = await Promise.all([0, 1, 2, 3, 4].map(() => createHolder()));
    for (const bob of bobs) expect((await transferAs(alice, bob.account, 1)).status).toBe(200);
    const real = await ctx();
    await Promise.all([0, 1, 2, 3].map(() => dispatchNotifications(real, { limit: 2 }).then(dispatchAll)));
    expect(await outbox(alice.account.accountEmail)).toHaveLength(5);
    for (const bob of bobs) expect(await outbox(bob.account.accountEmail)).toHaveLength(1);
  });

  it(`finished events are deleted ${NOTIFICATION_KEEP_DAYS} days after they were written; pending ones and their mails stay`, async () => {
    const { db } = await testServer();
    const old = new Date(Date.now() - (NOTIFICATION_KEEP_DAYS + 1) * 24 * 60 * 60_000);
    const subject = crypto.randomUUID();
    const rows = await db
      .insertInto('notificationEvents')
      .values([
        { kind: 'new_device_sign_in', subjectId: subject, detail: null, createdAt: old, state: 'dispatched', dispatchedAt: old },
        { kind: 'new_device_sign_in', subjectId: subject, detail: null, createdAt: old, state: 'failed' },
        { kind: 'new_device_sign_in', subjectId: subject, detail: null, createdAt: old, nextAttemptAt: new Date(Date.now() + 3_600_000) },
        { kind: 'new_device_sign_in', subjectId: subject, detail: null, state: 'dispatched', dispatchedAt: new Date() },
      ])
      .returning(['id', 'state'])
      .execute();
    await db.insertInto('mailMessages').values({ toAddress: `${subject}@example.test`, subject: 'kept', textBody: 'kept', transport: 'outbox', eventId: rows[0]!.id, template: 'new_device_sign_in' }).execute();
    expect(await pruneNotificationEvents(await ctx())).toBeGreaterThanOrEqual(2);
    expect((await eventsAbout(subject)).map((event) => event.id)).toEqual([rows[2]!.id, rows[3]!.id]);
    expect(await outbox(`${subject}@example.test`)).toHaveLength(1);
  });

  it("the running dispatcher is woken by the request: the mail is there long before the next poll", async () => {
    const alice = await createHolder(10_000);
    const bob = await createHolder();
    const dispatcher = startNotificationDispatcher(await ctx(), 60_000);
    try {
      await new Promise((resolve) => setTimeout(resolve, 100)); // its first run (at start) is over
      const started = Date.now();
      expect((await transferAs(alice, bob.account, 4)).status).toBe(200);
      await expect.poll(async () => (await outbox(bob.account.accountEmail)).length, { timeout: 5_000, interval: 20 }).toBe(1);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await dispatcher.stop();
    }
  });
});

describe('withdrawals: every status change', () => {
  it('Pending, Processing, Completed; Failed with the reason and the money back; Cancelled', async () => {
    const h = await createHolder(200_000);
    await raiseStepUpThreshold(h.account.accountId); // a mail test, not a step-up one
    const ops = await operatorToken();
    const create = async (amount: number) => {
      const response = await withdrawAs(h, amount);
      expect(response.status).toBe(201);
      return response.body.data._id as string;
    };
    const paid = await create(25.5);
    expect((await api('POST', `/v1/operator/withdrawals/${paid}/processing`, { token: ops })).status).toBe(200);
    expect((await api('POST', `/v1/operator/withdrawals/${paid}/complete`, { token: ops })).status).toBe(200);
    const failed = await create(40);
    expect((await api('POST', `/v1/operator/withdrawals/${failed}/processing`, { token: ops })).status).toBe(200);
    expect((await api('POST', `/v1/operator/withdrawals/${failed}/fail`, { token: ops, body: { reason: 'Account closed <at the bank>' } })).status).toBe(200);
    const cancelled = await create(1000);
    expect((await api('POST', `/v1/bank-withdraw/cancel/${cancelled}`, { token: h.user.token, body: { tpin: h.account.tpin } })).status).toBe(200);

    const mails = await mailsTo(h.account.accountEmail, 8);
    expect(mails.map((mail) => [mail.template, mail.subject])).toEqual([
      ['withdrawal_pending', 'Withdrawal of US$ 25.50 requested'],
      ['withdrawal_processing', 'Your withdrawal of US$ 25.50 is being processed'],
      ['withdrawal_completed', 'Your withdrawal of US$ 25.50 is complete'],
      ['withdrawal_pending', 'Withdrawal of US$ 40.00 requested'],
      ['withdrawal_processing', 'Your withdrawal of US$ 40.00 is being processed'],
      ['withdrawal_failed', 'Your withdrawal of US$ 40.00 failed'],
      ['withdrawal_pending', 'Withdrawal of US$ 1,000.00 requested'],
      ['withdrawal_cancelled', 'Your withdrawal of US$ 1,000.00 was cancelled'],
    ]);
    const failure = mails[5]!;
    expect(failure.textBody).toContain('The bank transfer of US$ 40.00 to First Test Bank account ****6789 did not go through: Account closed <at the bank>. The US$ 40.00 is back in your Kestrel balance.');
    expect(failure.htmlBody).toContain('Account closed &lt;at the bank&gt;');
    expect(failure.textBody).toContain(`Withdrawal ID: ${failed}`);
    expect(mails[7]!.textBody).toContain('The US$ 1,000.00 is back in your Kestrel balance.');
  });
});

async function payCheckout(store: TestStore, customerEmail: string, amount = 25.5) {
  const paymentId = await createPayment(store, { customerEmail, amount });
  const paid = await api('POST', `/v1/payment/complete/${paymentId}`, { body: card() });
  expect(paid.status).toBe(200);
  return paymentId;
}

describe('store payments: the receipt and "You got paid" (with the per-store opt-out)', () => {
  it("mails the customer a receipt and the owner a \"You got paid\"; the owner's switch stops only the latter", async () => {
    const store = await createStore();
    const storeName = (await api('GET', `/v1/payment_gateway_store/${store.storeId}`, { token: store.owner.token })).body.data.storeName as string;
    const customer = `${unique('carol')}@example.test`;
    const paymentId = await payCheckout(store, customer, 1250);

    const [receipt] = await mailsTo(customer);
    expect(receipt).toMatchObject({ subject: `Your receipt from ${storeName}`, template: 'payment_receipt', channel: 'email' });
    expect(receipt?.textBody).toContain(`You paid US$ 1,250.00 to ${storeName}`);
    expect(receipt?.textBody).toContain(`Payment ID: ${paymentId}`);
    expect(receipt?.textBody).toContain('Paid with: Visa •••• 4242');
    expect(receipt?.textBody).toMatch(/Order ID: ORD-/);
    expect(receipt?.textBody).not.toContain('4242 4242');
    expect(receipt?.htmlBody).toContain('Visa •••• 4242');

    const [gotPaid] = await mailsTo(store.account.accountEmail);
    expect(gotPaid).toMatchObject({ subject: `You got paid US$ 1,250.00 at ${storeName}`, template: 'payment_paid' });
    expect(gotPaid?.textBody).toContain('Fee: US$ 25.00');
    expect(gotPaid?.textBody).toContain('You receive: US$ 1,225.00');
    expect(gotPaid?.textBody).toContain(`Store: ${storeName} (${store.storeId})`);

    // The owner switches "You got paid" off for this store.
    const off = await api('PUT', `/v1/payment_gateway_store/${store.storeId}/payment-mails`, { token: store.owner.token, body: { notifyOnPayment: false } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ status: 'success', message: 'Payment e-mails are off for this store', data: { storeId: store.storeId, notifyOnPayment: false } });
    expect((await api('GET', `/v1/payment_gateway_store/${store.storeId}`, { token: store.owner.token })).body.data.notifyOnPayment).toBe(false);

    const second = `${unique('dave')}@example.test`;
    await payCheckout(store, second, 10);
    expect((await mailsTo(second))[0]?.subject).toBe(`Your receipt from ${storeName}`);
    await dispatchAll();
    expect(await outbox(store.account.accountEmail)).toHaveLength(1);

    // And on again.
    const on = await api('PUT', `/v1/payment_gateway_store/${store.storeId}/payment-mails`, { token: store.owner.token, body: { notifyOnPayment: true } });
    expect(on.body).toMatchObject({ message: 'Payment e-mails are on: you get a mail each time this store is paid', data: { notifyOnPayment: true } });
    await payCheckout(store, second, 11);
    expect((await mailsTo(store.account.accountEmail, 2)).map((mail) => mail.subject)).toEqual([`You got paid US$ 1,250.00 at ${storeName}`, `You got paid US$ 11.00 at ${storeName}`]);
  });

  it('only the owner may switch it: another user gets 404, a wrong body 400 with the field message', async () => {
    const store = await createStore();
    const stranger = await createUser();
    const theirs = await api('PUT', `/v1/payment_gateway_store/${store.storeId}/payment-mails`, { token: stranger.token, body: { notifyOnPayment: false } });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ status: 'error', error: 'Store not found', code: 'store_not_found' });
    const anonymous = await api('PUT', `/v1/payment_gateway_store/${store.storeId}/payment-mails`, { body: { notifyOnPayment: false } });
    expect(anonymous.status).toBe(401);
    const wrong = await api('PUT', `/v1/payment_gateway_store/${store.storeId}/payment-mails`, { token: store.owner.token, body: { notifyOnPayment: 'no' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields).toEqual({ notifyOnPayment: 'notifyOnPayment must be true or false' });
    expect((await api('GET', `/v1/payment_gateway_store/${store.storeId}`, { token: store.owner.token })).body.data.notifyOnPayment).toBe(true);
  });
});

describe('payment links: the receipt and "You got paid"', () => {
  it('a card payer gets a receipt at the e-mail given; a wallet payer sees the wallet masked; the owner is told of both', async () => {
    const owner = await holderNamed('Lena Linkowner');
    const created = await api('POST', '/v1/payment-request/create', {
      token: owner.user.token,
      body: {
        paymentPurpose: 'Guitar <lessons>',
        tpin: owner.account.tpin,
        accountNumber: owner.account.accountNumber,
        amount: { type: 'fixed', currency: 'USD', value: 80 },
        isUseLimit: false,
        reference: 'INV-42',
        paymentMethods: ['Card', 'Kestrel'],
      },
    });
    expect(created.status).toBe(201);
    const urlId = created.body.data.pRequestURLId as string;

    const visitor = `${unique('vera')}@example.test`;
    const byCard = await api('POST', `/v1/payment-request/card/complete-payment/${urlId}`, {
      body: { ...card('5555 5555 5555 4444'), email: visitor, amount: 80, cardHolderName: 'Vera Visitor' },
    });
    expect(byCard.status).toBe(200);
    const [receipt] = await mailsTo(visitor);
    expect(receipt).toMatchObject({ subject: 'Your receipt: Guitar <lessons>', template: 'link_payment_receipt' });
    expect(receipt?.textBody).toContain('Hello Vera Visitor,');
    expect(receipt?.textBody).toContain('You paid US$ 80.00 to Lena Linkowner');
    expect(receipt?.textBody).toContain('Reference: INV-42');
    expect(receipt?.textBody).toContain('Paid with: Mastercard •••• 4444');
    expect(receipt?.textBody).toContain(`Payment ID: ${byCard.body.data.paymentId as string}`);
    expect(receipt?.htmlBody).toContain('Guitar &lt;lessons&gt;');

    const payer = await createHolder(100_000);
    const payerMail = `${unique('paula')}@example.test`;
    const byWallet = await api('POST', `/v1/payment-request/kestrel/complete-payment/${urlId}`, {
      token: payer.user.token,
      body: { email: payerMail, amount: 80, accountNumber: payer.account.accountNumber, tpin: payer.account.tpin },
    });
    expect(byWallet.status).toBe(200);
    expect((await mailsTo(payerMail))[0]?.textBody).toContain(`Paid with: Kestrel wallet •••• ${payer.account.accountNumber.slice(-4)}`);

    const told = await mailsTo(owner.account.accountEmail, 2);
    expect(told.map((mail) => mail.subject)).toEqual(['You got paid US$ 80.00 for "Guitar <lessons>"', 'You got paid US$ 80.00 for "Guitar <lessons>"']);
    expect(told[0]?.textBody).toContain('Fee: US$ 1.60');
    expect(told[0]?.textBody).toContain('You receive: US$ 78.40');
    expect(told[0]?.textBody).toContain(`Payer: ${visitor}`);
  });
});

describe('a sign-in from a new device', () => {
  const login = (user: TestUser, cookie?: string) =>
    api('POST', '/v1/auth/login', { body: { email: user.email, password: user.password }, headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', ...(cookie ? { cookie } : {}) } });
  const deviceCookie = (response: Awaited<ReturnType<typeof api>>) => (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

  it('is mailed to the sign-in address, except on the first sign-in and on a device that knows the person', async () => {
    const user = await createUser();
    const first = await login(user);
    expect(first.status).toBe(200);
    await dispatchAll();
    expect(await outbox(user.email)).toHaveLength(1); // the verification mail of the sign-up only

    const known = await login(user, deviceCookie(first));
    expect(known.status).toBe(200);
    const elsewhere = await login(user);
    expect(elsewhere.status).toBe(200);
    const mails = (await mailsTo(user.email, 2)).filter((mail) => mail.template === 'new_device_sign_in');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('New sign-in to your Kestrel account');
    expect(mails[0]?.textBody).toContain('Device: Chrome 126 on Linux');
    expect(mails[0]?.textBody).toContain('Address: 127.0.0.1');
    expect(mails[0]?.textBody).toMatch(/reset your password now at http:\/\/127\.0\.0\.1:\d+\/forgot-password/);
    expect(mails[0]?.htmlBody).toContain('Someone signed in to your account from a new device');
  });
});

describe('with SMTP_URL set', () => {
  it("the dispatcher's mails go out by SMTP (a real SMTP server) with their text and HTML parts", async () => {
    const received: { to: string[]; raw: string }[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const address = server.server.address();
      if (!address || typeof address === 'string') throw new Error('no address');
      const real = await ctx();
      const mailer = createSmtpMailer(real.db, `smtp://127.0.0.1:${address.port}`, 'Kestrel <no-reply@kestrel.test>');
      const alice = await createHolder(10_000);
      const bob = await createHolder();
      const sent = await transferAs(alice, bob.account, 9.99);
      expect(sent.status).toBe(200);
      const [event] = await eventsAbout(await ledgerIdOf(sent.body.data.transactionId as string));
      expect(await dispatchNotifications({ ...real, mailer }, { eventIds: [event!.id] })).toBe(1);
      const mail = received.find((candidate) => candidate.to.includes(bob.account.accountEmail));
      expect(mail?.raw).toMatch(/Subject: You received US\$ 9\.99 from/);
      expect(mail?.raw).toMatch(/Content-Type: text\/plain/);
      expect(mail?.raw).toMatch(/Content-Type: text\/html/);
      expect(received.filter((candidate) => candidate.to.includes(alice.account.accountEmail))).toHaveLength(1);
      const rows = await outbox(bob.account.accountEmail);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ transport: 'smtp', attempts: 1, nextAttemptAt: null, error: null });
      expect(rows[0]?.sentAt).not.toBeNull();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
