import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';

export interface AuditLogQuery {
  actor?: string | undefined;
  action?: string | undefined;
  subject?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  page: number;
  pageSize: number;
}

/** A page of the audit log, newest first, with its total. `actor` is a user id or e-mail; `action` a prefix. */
export async function auditLogPage(db: Db, query: AuditLogQuery) {
  let base = db.selectFrom('auditLog').leftJoin('users', 'users.id', 'auditLog.actorUserId');
  if (query.actor) {
    const actor = query.actor.toLowerCase();
    base = base.where((eb) => eb.or([eb(sql<string>`audit_log.actor_user_id::text`, '=', actor), eb('users.email', '=', actor)]));
  }
  if (query.action) base = base.where('auditLog.action', 'like', `${query.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (query.subject) base = base.where('auditLog.subjectId', '=', query.subject);
  if (query.from) base = base.where('auditLog.createdAt', '>=', new Date(query.from));
  if (query.to) base = base.where('auditLog.createdAt', '<=', new Date(query.to));
  const [total, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
    base
      .select(['auditLog.id', 'auditLog.actorUserId', 'users.email as actorEmail', 'auditLog.action', 'auditLog.subjectType', 'auditLog.subjectId', 'auditLog.ip', 'auditLog.details', 'auditLog.createdAt'])
      .orderBy('auditLog.createdAt', 'desc')
      .orderBy('auditLog.id', 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
  ]);
  return { total: Number(total.count), rows };
}

/** The cents an operator funded alone (no approval) since `since`, from their 'account.funded' entries. */
export async function soloFundedSinceCents(db: Db | Trx, operatorId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('auditLog')
    .select(sql<string>`COALESCE(SUM((details->>'amountCents')::bigint), 0)`.as('total'))
    .where('action', '=', 'account.funded')
    .where('actorUserId', '=', operatorId)
    .where('createdAt', '>=', since)
    .where(sql<boolean>`details->>'approvalId' IS NULL`)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
