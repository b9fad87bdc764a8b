import type { ColumnType, Generated } from 'kysely';
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

/** A single-use mailed token of a person, by its digest: made, expiring, used once. */
interface MailedTokenTable {
  id: Generated<string>;
  userId: string;
  tokenHash: string;
  createdAt: CreatedAt;
  expiresAt: Timestamp;
  usedAt: NullableTimestamp;
}

/** An e-mail verification token (its migration: email_verification_tokens). */
export type EmailVerificationTokensTable = MailedTokenTable;

/** A mailed password reset link, by its token's digest (its migration: password_reset_tokens). */
export type PasswordResetTokensTable = MailedTokenTable;

/** An authenticator app of a person (two-factor sign-in): the sealed secret, on once confirmed. */
export interface UserTotpTable {
  userId: string;
  /** AES-256-GCM under a key derived from SECRET_KEY (auth/two-factor-secrets.ts). */
  secretSealed: string;
  createdAt: CreatedAt;
  enabledAt: NullableTimestamp;
  /** The last 30-second step whose code was accepted (a code is taken only for a later step). */
  lastUsedStep: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A single-use recovery code, by its keyed hash. */
export interface RecoveryCodesTable {
  id: Generated<string>;
  userId: string;
  codeHash: string;
  createdAt: CreatedAt;
  usedAt: NullableTimestamp;
}

/** The second step of a sign-in with 2FA on, by its token's digest. */
export interface LoginChallengesTable {
  id: Generated<string>;
  userId: string;
  tokenHash: string;
  createdAt: CreatedAt;
  expiresAt: Timestamp;
  usedAt: NullableTimestamp;
  failedAttempts: Generated<number>;
}

/** A registered passkey (WebAuthn credential); the id is the credential id, base64url. */
export interface PasskeysTable {
  id: string;
  userId: string;
  name: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** The authenticator's signature counter at its last accepted use. */
  signCount: Generated<number>;
  transports: ColumnType<string[], string[] | undefined, string[]>;
  backedUp: Generated<boolean>;
  createdAt: CreatedAt;
  lastUsedAt: NullableTimestamp;
}

/** A WebAuthn ceremony's challenge, by its digest: single use, short-lived, for one purpose. */
export interface WebauthnChallengesTable {
  id: Generated<string>;
  purpose: 'register' | 'sign_in' | 'second_step' | 'confirm';
  userId: string | null;
  loginChallengeId: string | null;
  challengeHash: string;
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
  userTotp: UserTotpTable;
  recoveryCodes: RecoveryCodesTable;
  loginChallenges: LoginChallengesTable;
  passkeys: PasskeysTable;
  webauthnChallenges: WebauthnChallengesTable;
  stepUpCodes: StepUpCodesTable;
  stepUpUsage: StepUpUsageTable;
  mailMessages: MailMessagesTable;
  loginAttempts: LoginAttemptsTable;
  auditLog: AuditLogTable;
}

/** A one-time step-up code mailed for a movement when 2FA is off (db/functions/step_up_check.sql). */
export interface StepUpCodesTable {
  id: Generated<string>;
  userId: string;
  accountId: string;
  /** HMAC-SHA256 under a key derived from SECRET_KEY (auth/step-up.ts). */
  codeHash: string;
  /** A digest of the movement the code was sent for. */
  binding: string;
  createdAt: CreatedAt;
  expiresAt: Timestamp;
  failedAttempts: Generated<number>;
  usedAt: NullableTimestamp;
}

/** An account's movements made on the TPIN alone in one UTC hour, counted towards its step-up threshold. */
export interface StepUpUsageTable {
  accountId: string;
  hour: Timestamp;
  amountCents: number;
}
