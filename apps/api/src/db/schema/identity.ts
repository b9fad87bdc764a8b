import type { Generated } from 'kysely';
import type { Timestamp, CreatedAt, NullableTimestamp, Json } from './columns.ts';

// People and their sign-in: users, sessions, e-mail verification, the mail outbox, login
// attempts, and the audit log. Part of the Database type in ../schema.ts.

export interface UsersTable {
  id: Generated<string>;
  firstName: string;
  lastName: string;
  email: string;
  contactNumber: string;
  passwordHash: string;
  isEmailVerified: Generated<boolean>;
  isOperator: Generated<boolean>;
  createdAt: CreatedAt;
  updatedAt: CreatedAt;
}

export interface SessionsTable {
  id: Generated<string>;
  userId: string;
  tokenHash: string;
  createdAt: CreatedAt;
  expiresAt: Timestamp;
  revokedAt: NullableTimestamp;
  ip: string | null;
  userAgent: string | null;
  /** Set by the session lookup, at most once a minute (sessions.repository.ts). */
  lastSeenAt: CreatedAt;
}

export interface EmailVerificationTokensTable {
  id: Generated<string>;
  userId: string;
  tokenHash: string;
  createdAt: CreatedAt;
  expiresAt: Timestamp;
  usedAt: NullableTimestamp;
}

/** A mailed password reset link, by its token's digest (its migration: password_reset_tokens). */
export interface PasswordResetTokensTable {
  id: Generated<string>;
  userId: string;
  tokenHash: string;
  createdAt: CreatedAt;
  expiresAt: Timestamp;
  usedAt: NullableTimestamp;
}

export interface MailMessagesTable {
  id: Generated<string>;
  toAddress: string;
  subject: string;
  textBody: string;
  htmlBody: string | null;
  transport: string;
  createdAt: CreatedAt;
  sentAt: NullableTimestamp;
  error: string | null;
  /** 'sms' for a text message to a phone number (the development SMS transport is this outbox). */
  channel: Generated<'email' | 'sms'>;
  /** Which notice this is (e.g. 'transfer_sent'); null for mails written before templates had names. */
  template: string | null;
  /** The notification event that wrote it: one mail per (event, template). */
  eventId: number | null;
  /** SMTP: attempts made, and when the retry sweep may try again (null: not staged, or outbox). */
  attempts: Generated<number>;
  nextAttemptAt: NullableTimestamp;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  email: string;
  ip: string;
  succeeded: boolean;
  attemptedAt: CreatedAt;
}

export interface AuditLogTable {
  id: Generated<number>;
  actorUserId: string | null;
  action: string;
  subjectType: string | null;
  subjectId: string | null;
  ip: string | null;
  details: Json<Record<string, unknown>>;
  createdAt: CreatedAt;
}

export interface IdentityTables {
  users: UsersTable;
  sessions: SessionsTable;
  emailVerificationTokens: EmailVerificationTokensTable;
  passwordResetTokens: PasswordResetTokensTable;
  mailMessages: MailMessagesTable;
  loginAttempts: LoginAttemptsTable;
  auditLog: AuditLogTable;
}
