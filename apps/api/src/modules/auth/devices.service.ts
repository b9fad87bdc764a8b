import { type SessionView } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { refuse } from '../../http/refusals.ts';
import { recordAudit } from '../audit/audit.ts';
import { describeDevice, liveSessionsOf, revokeOtherSessions, revokeSessionOf } from '../sessions/sessions.service.ts';

/*
 * My Account → Security: the signed-in devices of the caller, and signing one or all the
 * others out. Only the caller's own live sessions are visible or revocable; anything else is
 * "not found", so a session id says nothing about other users. Every sign-out is audited.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Caller {
  userId: string;
  sessionId: string;
  ip: string;
}

export async function listDevices(ctx: AppContext, caller: Caller): Promise<SessionView[]> {
  const rows = await liveSessionsOf(ctx.db, caller.userId);
  return rows.map((row) => ({
    _id: row.id,
    device: describeDevice(row.userAgent),
    ip: row.ip,
    signedInAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    current: row.id === caller.sessionId,
  }));
}

/** Ends one of the caller's other sessions at once (this process forgets it; others within a second). */
export async function signOutDevice(ctx: AppContext, caller: Caller, sessionId: string): Promise<void> {
  if (!UUID.test(sessionId)) throw refuse('session_not_found');
  if (sessionId === caller.sessionId) throw refuse('current_session');
  await inTransaction(ctx.db, async (trx) => {
    if (!(await revokeSessionOf(trx, caller.userId, sessionId))) throw refuse('session_not_found');
    await recordAudit(trx, { actorUserId: caller.userId, action: 'auth.session.revoke', subjectType: 'session', subjectId: sessionId, ip: caller.ip });
  });
  ctx.callers.forgetSession(sessionId);
}

/** Ends every session of the caller but the one asking; answers how many it ended. */
export async function signOutOtherDevices(ctx: AppContext, caller: Caller): Promise<number> {
  const ended = await inTransaction(ctx.db, async (trx) => {
    const ids = await revokeOtherSessions(trx, caller.userId, caller.sessionId);
    await recordAudit(trx, { actorUserId: caller.userId, action: 'auth.session.revoke_others', subjectType: 'user', subjectId: caller.userId, ip: caller.ip, details: { ended: ids.length } });
    return ids;
  });
  for (const sessionId of ended) ctx.callers.forgetSession(sessionId);
  return ended.length;
}
