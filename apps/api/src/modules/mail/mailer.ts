import nodemailer from 'nodemailer';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Which notice it is (templates.ts), e.g. 'transfer_sent'. */
  template?: string | undefined;
  /** The notification event that wrote it: the outbox keeps one mail per (event, template). */
  eventId?: number | undefined;
}

export interface Mailer {
  /** Where mail goes, for the start-up log. */
  readonly description: string;
  send(message: MailMessage): Promise<void>;
  /**
   * Puts `message` (or several) into the caller's transaction `trx` and answers what to run
   * after commit. Both transports write their rows in `trx`, so a rollback takes the mail back
   * and a commit never loses it; SMTP is a network call, never made inside a transaction, so
   * it is what the answer runs once the caller has committed (and `sendDue` retries).
   */
  stage(trx: Db, message: MailMessage | readonly MailMessage[]): Promise<() => Promise<void>>;
  /**
   * SMTP: sends the staged mails the server has not accepted yet and whose time has come (a
   * process that stopped between commit and send, or a failed attempt); answers how many it
   * tried. The outbox has nothing to send.
   */
  sendDue(now?: Date): Promise<number>;
}

const asList = (message: MailMessage | readonly MailMessage[]): readonly MailMessage[] => (Array.isArray(message) ? message : [message as MailMessage]);

const rowOf = (message: MailMessage) => ({
  toAddress: message.to,
  subject: message.subject,
  textBody: message.text,
  htmlBody: message.html ?? null,
  template: message.template ?? null,
  eventId: message.eventId ?? null,
});

/**
 * Default transport: the mail is stored in the database, readable at /dev/mailbox outside
 * production (`mailboxServed`: app.ts registers the mailbox only then).
 */
export function createOutboxMailer(db: Db, mailboxServed = true): Mailer {
  const write = async (into: Db, messages: readonly MailMessage[]) => {
    if (messages.length === 0) return;
    await into
      .insertInto('mailMessages')
      .values(messages.map((message) => ({ ...rowOf(message), transport: 'outbox', sentAt: new Date(), error: null })))
      .execute();
  };
  return {
    description: mailboxServed ? 'the outbox in the database (read it at /dev/mailbox)' : 'the outbox in the database (mail_messages; /dev/mailbox is not served in production)',
    send: (message) => write(db, [message]),
    async stage(trx, message) {
      await write(trx, asList(message));
      return async () => {};
    },
    sendDue: async () => 0,
  };
}

/** A staged SMTP mail is held this long by whoever sends it (longer than one send). */
const SMTP_CLAIM_MS = 60_000;
/** Retries of a staged SMTP mail: after 30 s, doubling up to an hour; given up after this many attempts. */
export const SMTP_RETRY_BASE_MS = 30_000;
const SMTP_RETRY_MAX_DELAY_MS = 60 * 60_000;
export const SMTP_MAX_ATTEMPTS = 12;

export function smtpRetryDelayMs(attempts: number): number {
  return Math.min(SMTP_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), SMTP_RETRY_MAX_DELAY_MS);
}

interface StagedRow {
  id: string;
  toAddress: string;
  subject: string;
  textBody: string;
  htmlBody: string | null;
  attempts: number;
}

/**
 * SMTP transport (SMTP_URL, e.g. smtp://user:pass@host:587). Every attempt is recorded. A
 * staged mail is a row written in the caller's transaction (not sent yet, held for a minute),
 * sent after commit; one the server did not take, or that a stopped process never sent, is
 * sent again by `sendDue` with back-off. A mail is sent at least once: a process stopped after
 * the server took it but before the row says so sends it again.
 */
export function createSmtpMailer(db: Db, smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  const host = new URL(smtpUrl).host;
  const attempt = async (message: { to: string; subject: string; text: string; html?: string | null | undefined }): Promise<string | null> => {
    try {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text, ...(message.html ? { html: message.html } : {}) });
      return null;
    } catch (cause) {
      return cause instanceof Error ? cause.message : String(cause);
    }
  };
  /** Sends rows this process holds and records each outcome with the row's next attempt. */
  const sendRows = async (rows: readonly StagedRow[]) => {
    for (const row of rows) {
      const error = await attempt({ to: row.toAddress, subject: row.subject, text: row.textBody, html: row.htmlBody });
      const attempts = row.attempts + 1;
      const now = new Date();
      await db
        .updateTable('mailMessages')
        .set({
          attempts,
          sentAt: error ? null : now,
          error,
          nextAttemptAt: error && attempts < SMTP_MAX_ATTEMPTS ? new Date(now.getTime() + smtpRetryDelayMs(attempts)) : null,
        })
        .where('id', '=', row.id)
        .where('sentAt', 'is', null)
        .execute();
    }
  };
  const mailer: Mailer = {
    description: `SMTP at ${host}`,
    async stage(trx, message) {
      const list = asList(message);
      if (list.length === 0) return async () => {};
      const rows = await trx
        .insertInto('mailMessages')
        .values(list.map((m) => ({ ...rowOf(m), transport: 'smtp', sentAt: null, error: null, nextAttemptAt: new Date(Date.now() + SMTP_CLAIM_MS) })))
        .returning(['id', 'toAddress', 'subject', 'textBody', 'htmlBody', 'attempts'])
        .execute();
      return () => sendRows(rows);
    },
    async sendDue(now = new Date()) {
      const claimed = await inTransaction(db, async (trx) => {
        const rows = await trx
          .selectFrom('mailMessages')
          .select(['id', 'toAddress', 'subject', 'textBody', 'htmlBody', 'attempts'])
          .where('transport', '=', 'smtp')
          .where('sentAt', 'is', null)
          .where('nextAttemptAt', '<=', now)
          .orderBy('nextAttemptAt')
          .limit(20)
          .forUpdate()
          .skipLocked()
          .execute();
        if (rows.length) {
          await trx
            .updateTable('mailMessages')
            .set({ nextAttemptAt: new Date(now.getTime() + SMTP_CLAIM_MS) })
            .where('id', 'in', rows.map((row) => row.id))
            .execute();
        }
        return rows;
      });
      await sendRows(claimed);
      return claimed.length;
    },
    async send(message) {
      const error = await attempt(message);
      await db
        .insertInto('mailMessages')
        .values({ ...rowOf(message), transport: 'smtp', sentAt: error ? null : new Date(), error, attempts: 1 })
        .execute();
      if (error) throw new Error(`Mail to ${message.to} was not sent: ${error}`);
    },
  };
  return mailer;
}

export function createMailer(db: Db, smtpUrl: string | undefined, from: string, mailboxServed: boolean): Mailer {
  return smtpUrl ? createSmtpMailer(db, smtpUrl, from) : createOutboxMailer(db, mailboxServed);
}
