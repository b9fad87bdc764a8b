import type { Db } from '../../db/database.ts';
import type { NotificationKind } from '../../db/schema.ts';

/*
 * Notification events (migration 0022): "this happened, tell the people concerned", by kind
 * and id, written in the transaction of what happened. The money functions write theirs in
 * SQL (db/functions/notification_event.sql); TypeScript writes one with recordNotificationEvent
 * in the caller's transaction. The dispatcher (modules/notifications) turns them into mails and
 * SMS after commit. This file sits in the mail module, low in the feature order, so that any
 * module may write an event and ring the bell.
 */

export interface NotificationEvent {
  kind: NotificationKind;
  subjectId: string;
  detail?: Record<string, unknown> | undefined;
}

/** Writes an event in `trx`: it commits or rolls back with the caller's change. */
export async function recordNotificationEvent(trx: Db, event: NotificationEvent): Promise<void> {
  await trx
    .insertInto('notificationEvents')
    .values({ kind: event.kind, subjectId: event.subjectId, detail: event.detail === undefined ? null : JSON.stringify(event.detail) })
    .execute();
}

/**
 * Wakes this process's dispatcher after a request committed an event, so its mails leave at
 * once instead of at the next poll. Ringing is free when no dispatcher listens (tests, CLIs);
 * several rings before the dispatcher runs are one run.
 */
export interface NotificationBell {
  ring(): void;
  /** The dispatcher's subscription; answers the unsubscribe. */
  listen(listener: () => void): () => void;
}

export function createNotificationBell(): NotificationBell {
  const listeners = new Set<() => void>();
  return {
    ring() {
      for (const listener of listeners) listener();
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

// The dispatcher (modules/notifications) works the queue through these (lint keeps them out of the repository).
export { deleteFinishedEvents, dueEvents, lockEventAttempts, markEventsDispatched, recordEventAttempt } from './notification-events.repository.ts';
