import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { AuditLogTable } from '../../db/schema.ts';

export interface AuditEntry {
  actorUserId: string | null;
  action: string;
  subjectType?: string;
  subjectId?: string;
  ip?: string | null;
  details?: Record<string, unknown>;
}

/** The audit_log row for an entry, for callers that write it as part of a larger statement. */
export function auditRow(entry: AuditEntry): Insertable<AuditLogTable> {
  return {
    actorUserId: entry.actorUserId,
    action: entry.action,
    subjectType: entry.subjectType ?? null,
    subjectId: entry.subjectId ?? null,
    ip: entry.ip ?? null,
    details: JSON.stringify(entry.details ?? {}),
  };
}

/** Appends to the audit trail; pass the transaction so the entry commits with the change. */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insertInto('auditLog').values(auditRow(entry)).execute();
}

// Other modules read the audit log through these (lint keeps them out of its repository).
export { auditLogPage, soloFundedSinceCents, type AuditLogQuery } from './audit.repository.ts';
