import { WITHDRAW_STATUSES, type WithdrawalStatus } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import type { NotificationKind } from '../../db/schema.ts';
import { inTransaction, type Trx } from '../../db/transaction.ts';
import { accountContacts, type AccountContactRow } from '../accounts/accounts.service.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { deleteFinishedEvents, dueEvents, lockEventAttempts, markEventsDispatched, recordEventAttempt } from '../mail/notification-events.ts';
import type { SmsMessage } from '../mail/sms.ts';
import { noticeMail, noticeSms, type Notice, type NoticeTag } from '../mail/templates.ts';
import { paidPaymentsForNotice } from '../payments/payments.service.ts';
import { linkPaymentsForNotice } from '../payment-requests/payment-requests.service.ts';
import { describeDevice } from '../sessions/sessions.service.ts';
import { transfersForNotice } from '../transfers/transfers.service.ts';
import { usersForNotice } from '../users/users.service.ts';
import { withdrawalsForNotice } from '../withdrawals/withdrawals.service.ts';
import {
  linkPaidNotice,
  linkReceiptNotice,
  newDeviceSignInNotice,
  paymentPaidNotice,
  paymentReceiptNotice,
  transferReceivedNotice,
  transferSentNotice,
  withdrawalNotice,
} from './notices.ts';

/*
 * The notification dispatcher (README, "The e-mails Kestrel sends"). Money functions and
 * services write a notification event (kind + id) in the transaction of what happened; after
 * commit this turns each event into mails and SMS, by each recipient's notification
 * preference, in one transaction per batch:
 *
 *   claim due events FOR UPDATE SKIP LOCKED (several API processes share the work)
 *   read what they are about (one query per kind, one for the accounts' contacts)
 *   stage the mails and SMS (outbox rows in this transaction; SMTP sends after commit)
 *   mark the events dispatched
 *
 * so an event's mails are written exactly once: a process that stops before the commit leaves
 * the events pending for the next run, and (event, template) is unique in the outbox. A batch
 * that fails is retried one event at a time, and an event that fails alone is retried with
 * back-off, then given up (state 'failed', its error kept).
 */

export const NOTIFICATION_BATCH = 50;
/** Retries of a failing event: after 30 s, doubling up to an hour; given up after this many attempts. */
export const NOTIFICATION_RETRY_BASE_MS = 30_000;
const NOTIFICATION_RETRY_MAX_DELAY_MS = 60 * 60_000;
export const NOTIFICATION_MAX_ATTEMPTS = 10;
/** How often each process looks for events it was not woken for (another process's, retries). */
export const NOTIFICATION_POLL_MS = 2_000;
/** Dispatched and given-up events are deleted this long after they were written (their mails stay). */
export const NOTIFICATION_KEEP_DAYS = 30;
const PRUNE_EVERY_MS = 60 * 60_000;
const PRUNE_BATCH = 1_000;

export function notificationRetryDelayMs(attempts: number): number {
  return Math.min(NOTIFICATION_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), NOTIFICATION_RETRY_MAX_DELAY_MS);
}

interface ClaimedEvent {
  id: number;
  kind: NotificationKind;
  subjectId: string;
  detail: Record<string, unknown> | null;
  attempts: number;
  createdAt: Date;
}

interface Outgoing {
  mails: MailMessage[];
  sms: SmsMessage[];
}

/** An account's notice goes where its preference says: its phone (SMS) or its e-mail. */
function toAccount(out: Outgoing, contact: AccountContactRow | undefined, notice: Notice, tag: NoticeTag): void {
  if (!contact) return;
  if (contact.notificationPreference === 'sms') out.sms.push(noticeSms(contact.accountPhone, notice, tag));
  else out.mails.push(noticeMail(contact.accountEmail, notice, tag));
}

function isWithdrawalStatus(value: unknown): value is WithdrawalStatus {
  return typeof value === 'string' && (WITHDRAW_STATUSES as readonly string[]).includes(value);
}

/** Reads what the events are about and writes their notices (nothing is sent here). */
async function compose(ctx: AppContext, trx: Trx, events: readonly ClaimedEvent[]): Promise<Outgoing> {
  const of = (kind: NotificationKind) => events.filter((event) => event.kind === kind);
  const unknown = events.find((event) => !['transfer', 'payment', 'link_payment', 'withdrawal', 'new_device_sign_in'].includes(event.kind));
  if (unknown) throw new Error(`notification event ${unknown.id} has an unknown kind: ${unknown.kind}`);
  const subjects = (kind: NotificationKind) => [...new Set(of(kind).map((event) => event.subjectId))];

  const [transfers, payments, linkPayments, withdrawals, users] = await Promise.all([
    transfersForNotice(trx, subjects('transfer').map(Number)),
    paidPaymentsForNotice(trx, subjects('payment')),
    linkPaymentsForNotice(trx, subjects('link_payment')),
    withdrawalsForNotice(trx, subjects('withdrawal')),
    usersForNotice(trx, subjects('new_device_sign_in')),
  ]);
  const contacts = new Map(
    (
      await accountContacts(trx, [
        ...transfers.flatMap((row) => [row.fromAccountId, row.toAccountId]),
        ...payments.filter((row) => row.notifyOnPayment).map((row) => row.accountId),
        ...linkPayments.map((row) => row.accountId),
        ...withdrawals.map((row) => row.accountId),
      ])
    ).map((row) => [row.id, row]),
  );

  const publicUrl = ctx.config.publicUrl;
  const out: Outgoing = { mails: [], sms: [] };
  for (const event of events) {
    const tag = (template: string): NoticeTag => ({ template, eventId: event.id });
    switch (event.kind) {
      case 'transfer': {
        const row = transfers.find((transfer) => String(transfer.ledgerTransactionId) === event.subjectId);
        const from = row && contacts.get(row.fromAccountId);
        const to = row && contacts.get(row.toAccountId);
        if (!row || !from || !to) break;
        toAccount(out, from, transferSentNotice(row, from, to, publicUrl), tag('transfer_sent'));
        toAccount(out, to, transferReceivedNotice(row, from, to, publicUrl), tag('transfer_received'));
        break;
      }
      case 'payment': {
        const row = payments.find((payment) => payment.id === event.subjectId);
        if (!row) break;
        // The receipt goes to the e-mail the payment was made with, whoever the customer is.
        if (row.customerEmail) out.mails.push(noticeMail(row.customerEmail, paymentReceiptNotice(row), tag('payment_receipt')));
        const owner = row.notifyOnPayment ? contacts.get(row.accountId) : undefined;
        if (owner) toAccount(out, owner, paymentPaidNotice(row, owner, publicUrl), tag('payment_paid'));
        break;
      }
      case 'link_payment': {
        const row = linkPayments.find((payment) => payment.id === event.subjectId);
        const owner = row && contacts.get(row.accountId);
        if (!row || !owner) break;
        if (row.payerEmail) out.mails.push(noticeMail(row.payerEmail, linkReceiptNotice(row, owner), tag('link_payment_receipt')));
        toAccount(out, owner, linkPaidNotice(row, owner, publicUrl), tag('link_payment_paid'));
        break;
      }
      case 'withdrawal': {
        const row = withdrawals.find((withdrawal) => withdrawal.id === event.subjectId);
        const status = event.detail?.status;
        if (!isWithdrawalStatus(status)) throw new Error(`notification event ${event.id} has no withdrawal status`);
        const owner = row && contacts.get(row.accountId);
        if (!row || !owner) break;
        toAccount(out, owner, withdrawalNotice(row, status, owner, publicUrl), tag(`withdrawal_${status.toLowerCase()}`));
        break;
      }
      case 'new_device_sign_in': {
        const user = users.find((candidate) => candidate.id === event.subjectId);
        if (!user) break;
        const detail = event.detail ?? {};
        const signIn = {
          device: describeDevice(typeof detail.userAgent === 'string' ? detail.userAgent : null),
          ip: typeof detail.ip === 'string' ? detail.ip : null,
          at: event.createdAt,
        };
        // A security notice goes to the address the person signs in with, whatever an account prefers.
        out.mails.push(noticeMail(user.email, newDeviceSignInNotice(user, signIn, publicUrl), tag('new_device_sign_in')));
        break;
      }
    }
  }
  return out;
}

export interface DispatchOptions {
  now?: Date;
  limit?: number;
  /** Only these events (one at a time after a batch failed, or a test that owns them). */
  eventIds?: readonly number[];
}

/**
 * One batch: claims up to `limit` due events, writes their mails and SMS and marks them
 * dispatched in one transaction, then runs the transports' after-commit sends. Answers how
 * many events it dispatched. Throws when the batch failed (it rolled back whole).
 */
async function dispatchBatch(ctx: AppContext, options: DispatchOptions): Promise<number> {
  const now = options.now ?? new Date();
  const { count, after } = await inTransaction(ctx.db, async (trx) => {
    const events = await dueEvents(trx, now, { limit: options.limit ?? NOTIFICATION_BATCH, eventIds: options.eventIds })
      .select(['id', 'kind', 'subjectId', 'detail', 'attempts', 'createdAt'])
      .forUpdate()
      .skipLocked()
      .execute();
    if (events.length === 0) return { count: 0, after: [] };
    const outgoing = await compose(ctx, trx, events);
    const afterMail = await ctx.mailer.stage(trx, outgoing.mails);
    const afterSms = await ctx.sms.stage(trx, outgoing.sms);
    await markEventsDispatched(trx, events.map((event) => event.id));
    return { count: events.length, after: [afterMail, afterSms] };
  });
  for (const send of after) await send().catch((error: unknown) => ctx.log.warn({ err: error }, 'a notification was staged but its first send failed; it is retried'));
  return count;
}

/** Records a failed attempt at one event: retried with back-off, given up after NOTIFICATION_MAX_ATTEMPTS. */
async function recordFailure(ctx: AppContext, eventId: number, error: unknown, now: Date): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await inTransaction(ctx.db, async (trx) => {
    const event = await lockEventAttempts(trx, eventId);
    if (!event || event.state !== 'pending') return;
    const attempts = event.attempts + 1;
    const givesUp = attempts >= NOTIFICATION_MAX_ATTEMPTS;
    await recordEventAttempt(trx, eventId, { attempts, lastError: message.slice(0, 1000), state: givesUp ? 'failed' : 'pending', nextAttemptAt: new Date(now.getTime() + notificationRetryDelayMs(attempts)) });
    if (givesUp) ctx.log.error({ eventId, err: error }, 'notification event given up');
  });
}

/**
 * Dispatches due events, one batch (answers how many were dispatched). When the batch fails,
 * the same events are tried one at a time, so one bad event neither blocks nor repeats the
 * others; each failure is recorded with its next attempt.
 */
export async function dispatchNotifications(ctx: AppContext, options: DispatchOptions = {}): Promise<number> {
  const now = options.now ?? new Date();
  try {
    return await dispatchBatch(ctx, { ...options, now });
  } catch (batchError) {
    ctx.log.warn({ err: batchError }, 'a notification batch failed; dispatching its events one at a time');
    const ids = (await dueEvents(ctx.db, now, { limit: options.limit ?? NOTIFICATION_BATCH, eventIds: options.eventIds }).select('id').execute()).map((row) => row.id);
    let dispatched = 0;
    for (const id of ids) {
      try {
        dispatched += await dispatchBatch(ctx, { now, eventIds: [id] });
      } catch (error) {
        await recordFailure(ctx, id, error, now);
      }
    }
    return dispatched;
  }
}

/**
 * Deletes dispatched and given-up events written more than NOTIFICATION_KEEP_DAYS ago, oldest
 * first, a batch at a time (on an index only finished events have); answers how many.
 */
export async function pruneNotificationEvents(ctx: AppContext, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - NOTIFICATION_KEEP_DAYS * 24 * 60 * 60_000);
  let deleted = 0;
  for (let batch = 0; batch < 100; batch++) {
    const count = await deleteFinishedEvents(ctx.db, cutoff, PRUNE_BATCH);
    deleted += count;
    if (count < PRUNE_BATCH) break;
  }
  return deleted;
}

export interface NotificationDispatcher {
  stop(): Promise<void>;
}

/**
 * Runs the dispatcher in this process: at once, whenever the bell rings (a request committed
 * an event), and every `intervalMs` (other processes' events, retries, SMTP mails to send
 * again; old events pruned once an hour). One run at a time; rings during a run make one more run.
 */
export function startNotificationDispatcher(ctx: AppContext, intervalMs = NOTIFICATION_POLL_MS): NotificationDispatcher {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  let prunedAt = 0;

  const drain = async () => {
    // Batch after batch while they come back full (a burst of events), then the SMTP retries.
    for (let batch = 0; batch < 100 && !stopped; batch++) {
      if ((await dispatchNotifications(ctx)) < NOTIFICATION_BATCH) break;
    }
    if (!stopped) await ctx.mailer.sendDue();
    if (!stopped && Date.now() - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      await pruneNotificationEvents(ctx);
    }
  };
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = drain()
      .catch((error: unknown) => ctx.log.error({ err: error }, 'notification dispatch failed'))
      .finally(() => {
        running = null;
        if (stopped) return;
        if (again) {
          again = false;
          setImmediate(run);
        } else {
          timer = setTimeout(run, intervalMs);
        }
      });
  };
  // After the request: the answer is on its way before the dispatcher's first query.
  const unlisten = ctx.notifications.listen(() => setImmediate(run));
  setImmediate(run);
  return {
    async stop() {
      stopped = true;
      unlisten();
      clearTimeout(timer);
      await running;
    },
  };
}
