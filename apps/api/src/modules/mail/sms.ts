import type { Db } from '../../db/database.ts';

export interface SmsMessage {
  /** The phone number, as the account gave it. */
  to: string;
  /** What the development mailbox shows as its heading (an SMS has no subject). */
  title: string;
  text: string;
  template?: string | undefined;
  eventId?: number | undefined;
}

/**
 * Text messages, for accounts whose notification preference is `sms`. Like the Mailer's
 * stage: the message goes into the caller's transaction, and the answer is what to run after
 * commit (a provider's network call, never made inside a transaction).
 */
export interface SmsSender {
  /** Where SMS go, for the start-up log. */
  readonly description: string;
  stage(trx: Db, messages: SmsMessage | readonly SmsMessage[]): Promise<() => Promise<void>>;
}

/**
 * The only transport here: no SMS provider is reachable from this system, so a text message
 * is a row of the mail outbox marked `sms`, to the phone number, listed at /dev/mailbox
 * outside production. A provider's transport would implement SmsSender and send after commit.
 */
export function createOutboxSmsSender(): SmsSender {
  return {
    description: 'the outbox in the database (no SMS provider is connected; SMS rows are listed with the mail)',
    async stage(trx, messages) {
      const list = Array.isArray(messages) ? (messages as readonly SmsMessage[]) : [messages as SmsMessage];
      if (list.length === 0) return async () => {};
      await trx
        .insertInto('mailMessages')
        .values(
          list.map((message) => ({
            toAddress: message.to,
            subject: message.title,
            textBody: message.text,
            htmlBody: null,
            transport: 'outbox',
            channel: 'sms' as const,
            template: message.template ?? null,
            eventId: message.eventId ?? null,
            sentAt: new Date(),
            error: null,
          })),
        )
        .execute();
      return async () => {};
    },
  };
}
