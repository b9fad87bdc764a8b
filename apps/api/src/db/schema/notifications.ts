import type { Generated } from 'kysely';
import type { CreatedAt, Json, NullableTimestamp } from './columns.ts';

// Notification events (migration 0022): what happened, by kind and id, written in the
// transaction of the event and turned into mails and SMS after commit (modules/notifications).
// Part of the Database type in ../schema.ts.

export type NotificationKind = 'transfer' | 'payment' | 'link_payment' | 'withdrawal' | 'new_device_sign_in';

export interface NotificationEventsTable {
  id: Generated<number>;
  kind: NotificationKind;
  /** A ledger transaction id (transfer), a payment, a link payment, a withdrawal or a user id. */
  subjectId: string;
  detail: Json<Record<string, unknown> | null>;
  createdAt: CreatedAt;
  state: Generated<'pending' | 'dispatched' | 'failed'>;
  attempts: Generated<number>;
  nextAttemptAt: CreatedAt;
  dispatchedAt: NullableTimestamp;
  lastError: string | null;
}

export interface NotificationTables {
  notificationEvents: NotificationEventsTable;
}
