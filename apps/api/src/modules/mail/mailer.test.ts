import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testServer } from '../../../test/harness.ts';
import { createMailer, createSmtpMailer } from './mailer.ts';

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
