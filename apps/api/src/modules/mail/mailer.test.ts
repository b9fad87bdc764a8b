import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testServer } from '../../../test/harness.ts';
import { createMailer, createSmtpMailer, SMTP_RETRY_BASE_MS } from './mailer.ts';

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

describe('SMTP transport against a real SMTP server', () => {
  const received: Received[] = [];
  let port = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, callback) {
      // A mailbox that does not exist, to prove failures are reported and recorded.
      if (address.address.startsWith('bounce')) return callback(new Error('No such mailbox'));
      callback();
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined, to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    port = address.port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('delivers the mail and records it as sent', async () => {
    const { db } = await testServer();
    const mailer = createSmtpMailer(db, `smtp://127.0.0.1:${port}`, 'Kestrel <no-reply@kestrel.test>');
    const to = `smtp-${Date.now()}@example.test`;
    await mailer.send({ to, subject: 'Verify your Kestrel e-mail address', text: 'Open https://kestrel.test/verify-email?token=abc' });
    const mail = received.find((m) => m.to.includes(to));
    expect(mail?.from).toBe('no-reply@kestrel.test');
    expect(mail?.raw).toContain('Subject: Verify your Kestrel e-mail address');
    expect(mail?.raw).toContain('verify-email?token=abc');
    const row = await db.selectFrom('mailMessages').selectAll().where('toAddress', '=', to).executeTakeFirstOrThrow();
    expect(row.transport).toBe('smtp');
    expect(row.sentAt).not.toBeNull();
    expect(row.error).toBeNull();
  });

  it('reports a refused recipient and records the error', async () => {
    const { db } = await testServer();
    const mailer = createSmtpMailer(db, `smtp://127.0.0.1:${port}`, 'Kestrel <no-reply@kestrel.test>');
    const to = `bounce-${Date.now()}@example.test`;
    await expect(mailer.send({ to, subject: 'Hello', text: 'Hello' })).rejects.toThrow(/was not sent/);
    const row = await db.selectFrom('mailMessages').selectAll().where('toAddress', '=', to).executeTakeFirstOrThrow();
    expect(row.sentAt).toBeNull();
    expect(row.error).toMatch(/No such mailbox/);
  });

  const smtp = async () => createSmtpMailer((await testServer()).db, `smtp://127.0.0.1:${port}`, 'Kestrel <no-reply@kestrel.test>');
  const receivedBy = (to: string) => received.filter((mail) => mail.to.includes(to));

  it('a staged mail is written with the transaction and sent after commit; a rollback sends nothing', async () => {
    const { db } = await testServer();
    const mailer = await smtp();
    const to = `staged-${Date.now()}@example.test`;
    const deliver = await db.transaction().execute((trx) => mailer.stage(trx, { to, subject: 'Staged', text: 'plain part', html: '<p>html part</p>' }));
    const pending = await db.selectFrom('mailMessages').selectAll().where('toAddress', '=', to).executeTakeFirstOrThrow();
    expect(pending).toMatchObject({ transport: 'smtp', sentAt: null, attempts: 0 });
    expect(receivedBy(to)).toEqual([]);
    await deliver();
    expect(receivedBy(to)).toHaveLength(1);
    expect(receivedBy(to)[0]?.raw).toMatch(/multipart\/alternative/);
    expect(receivedBy(to)[0]?.raw).toContain('<p>html part</p>');
    expect(await db.selectFrom('mailMessages').select(['sentAt', 'attempts', 'nextAttemptAt']).where('id', '=', pending.id).executeTakeFirstOrThrow()).toMatchObject({
      attempts: 1,
      nextAttemptAt: null,
    });

    const gone = `rolled-back-${Date.now()}@example.test`;
    await expect(
      db.transaction().execute(async (trx) => {
        await mailer.stage(trx, { to: gone, subject: 'Never', text: 'never' });
        throw new Error('the change rolled back');
      }),
    ).rejects.toThrow('the change rolled back');
    expect(await mailer.sendDue(new Date(Date.now() + 10 * 60_000))).toBeGreaterThanOrEqual(0);
    expect(receivedBy(gone)).toEqual([]);
    expect(await db.selectFrom('mailMessages').select('id').where('toAddress', '=', gone).execute()).toEqual([]);
  });

  it('a process that stopped after commit and before the send: sendDue sends the mail once, after its hold', async () => {
    const { db } = await testServer();
    const mailer = await smtp();
    const to = `crashed-${Date.now()}@example.test`;
    // Committed, but the after-commit send never runs (the process stopped).
    await db.transaction().execute((trx) => mailer.stage(trx, { to, subject: 'Left behind', text: 'still sent' }));
    expect(await mailer.sendDue()).toBe(0); // held by the process that staged it, for a minute
    await mailer.sendDue(new Date(Date.now() + 61_000));
    expect(receivedBy(to)).toHaveLength(1);
    await mailer.sendDue(new Date(Date.now() + 10 * 60_000));
    expect(receivedBy(to)).toHaveLength(1);
  });

  it('a staged mail the server refuses is retried with back-off and its error kept', async () => {
    const { db } = await testServer();
    const mailer = await smtp();
    const to = `bounce-staged-${Date.now()}@example.test`;
    const deliver = await db.transaction().execute((trx) => mailer.stage(trx, { to, subject: 'Bounces', text: 'x' }));
    const before = Date.now();
    await deliver();
    const row = await db.selectFrom('mailMessages').selectAll().where('toAddress', '=', to).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ sentAt: null, attempts: 1 });
    expect(row.error).toMatch(/No such mailbox/);
    expect(row.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(before + SMTP_RETRY_BASE_MS);
    await mailer.sendDue(new Date(before + SMTP_RETRY_BASE_MS + 5_000));
    expect((await db.selectFrom('mailMessages').select('attempts').where('id', '=', row.id).executeTakeFirstOrThrow()).attempts).toBe(2);
  });
});

describe('the outbox transport', () => {
  it('points at /dev/mailbox only where the mailbox is served (not in production)', async () => {
    const { db } = await testServer();
    expect(createMailer(db, undefined, 'Kestrel <no-reply@example.test>', true).description).toBe('the outbox in the database (read it at /dev/mailbox)');
    const production = createMailer(db, undefined, 'Kestrel <no-reply@example.test>', false).description;
    expect(production).not.toContain('read it at /dev/mailbox');
    expect(production).toContain('not served in production');
  });
});
