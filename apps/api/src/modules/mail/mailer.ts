import nodemailer from 'nodemailer';
import type { Db } from '../../db/database.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** Where mail goes, for the start-up log. */
  readonly description: string;
  send(message: MailMessage): Promise<void>;
  /**
   * Puts `message` into the caller's transaction `trx` and answers what to run after commit.
   * The outbox writes its row in `trx`, so a rollback takes the mail back and a commit never
   * loses it; SMTP is a network call, never made inside a transaction, so it is what the
   * answer runs once the caller has committed.
   */
  stage(trx: Db, message: MailMessage): Promise<() => Promise<void>>;
}

/**
 * Default transport: the mail is stored in the database, readable at /dev/mailbox outside
 * production (`mailboxServed`: app.ts registers the mailbox only then).
 */
export function createOutboxMailer(db: Db, mailboxServed = true): Mailer {
  const write = async (into: Db, message: MailMessage) => {
    await into
      .insertInto('mailMessages')
      .values({
        toAddress: message.to,
        subject: message.subject,
        textBody: message.text,
        htmlBody: message.html ?? null,
        transport: 'outbox',
        sentAt: new Date(),
        error: null,
      })
      .execute();
  };
  return {
    description: mailboxServed ? 'the outbox in the database (read it at /dev/mailbox)' : 'the outbox in the database (mail_messages; /dev/mailbox is not served in production)',
    send: (message) => write(db, message),
    async stage(trx, message) {
      await write(trx, message);
      return async () => {};
    },
  };
}

/** SMTP transport (SMTP_URL, e.g. smtp://user:pass@host:587). Every attempt is recorded. */
export function createSmtpMailer(db: Db, smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  const host = new URL(smtpUrl).host;
  const mailer: Mailer = {
    description: `SMTP at ${host}`,
    stage: async (_trx, message) => () => mailer.send(message),
    async send(message) {
      let error: string | null = null;
      try {
        await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html });
      } catch (cause) {
        error = cause instanceof Error ? cause.message : String(cause);
      }
      await db
        .insertInto('mailMessages')
        .values({
          toAddress: message.to,
          subject: message.subject,
          textBody: message.text,
          htmlBody: message.html ?? null,
          transport: 'smtp',
          sentAt: error ? null : new Date(),
          error,
        })
        .execute();
      if (error) throw new Error(`Mail to ${message.to} was not sent: ${error}`);
    },
  };
  return mailer;
}

export function createMailer(db: Db, smtpUrl: string | undefined, from: string, mailboxServed: boolean): Mailer {
  return smtpUrl ? createSmtpMailer(db, smtpUrl, from) : createOutboxMailer(db, mailboxServed);
}
