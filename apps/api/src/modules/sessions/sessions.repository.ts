import { SESSION_MS } from '@kestrel/shared';
import type { Db } from '../../db/database.ts';
import { hashToken, newOpaqueToken } from '../../security/tokens.ts';

export async function createSession(db: Db, userId: string, ip: string, userAgent: string | undefined): Promise<string> {
  const token = newOpaqueToken();
  await db
    .insertInto('sessions')
    .values({
      userId,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + SESSION_MS),
      revokedAt: null,
      ip,
      userAgent: userAgent?.slice(0, 300) ?? null,
    })
    .execute();
  return token;
}

/** How stale a session's last_seen_at may get before a lookup writes it again. */
export const LAST_SEEN_EVERY_MS = 60_000;

/**
 * The live session behind a token, or undefined when unknown, expired or revoked. Marks it
 * seen now when its last_seen_at is over a minute old (the Security tab's "last seen"), so a
 * busy client costs one small write a minute, not one a request.
 */
export async function findLiveSession(db: Db, token: string): Promise<{ id: string; userId: string; expiresAt: Date } | undefined> {
  const session = await db
    .selectFrom('sessions')
    .select(['id', 'userId', 'expiresAt', 'lastSeenAt'])
    .where('tokenHash', '=', hashToken(token))
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', new Date())
    .executeTakeFirst();
  if (!session) return undefined;
  if (Date.now() - session.lastSeenAt.getTime() >= LAST_SEEN_EVERY_MS) {
    await db.updateTable('sessions').set({ lastSeenAt: new Date() }).where('id', '=', session.id).execute();
  }
  return { id: session.id, userId: session.userId, expiresAt: session.expiresAt };
}

/** A user's live sessions, most recently used first (at most 100: older ones are still ended by "everywhere else"). */
export function liveSessionsOf(db: Db, userId: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'ip', 'userAgent', 'createdAt', 'lastSeenAt'])
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', new Date())
    .orderBy('lastSeenAt', 'desc')
    .orderBy('id')
    .limit(100)
    .execute();
}

/** Revokes one live session of this user; false when it is not one (another user's, ended, unknown). */
export async function revokeSessionOf(db: Db, userId: string, sessionId: string): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ revokedAt: new Date() })
    .where('id', '=', sessionId)
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', new Date())
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Revokes every live session of this user but one; answers the ids it ended. */
export async function revokeOtherSessions(db: Db, userId: string, keepSessionId: string): Promise<string[]> {
  const rows = await db
    .updateTable('sessions')
    .set({ revokedAt: new Date() })
    .where('userId', '=', userId)
    .where('id', '<>', keepSessionId)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', new Date())
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db.updateTable('sessions').set({ revokedAt: new Date() }).where('id', '=', sessionId).where('revokedAt', 'is', null).execute();
}

/** How long a process may go on accepting a token after its session was revoked elsewhere. */
export const SESSION_CACHE_MS = 1_000;
const SESSION_CACHE_MAX = 10_000;

export interface SessionLookup {
  find(token: string): Promise<{ id: string; userId: string } | undefined>;
  /** Drops a session this process has just revoked, so its own next request is refused at once. */
  forget(sessionId: string): void;
}

/**
 * findLiveSession with a per-process memory of live sessions for at most SESSION_CACHE_MS
 * (and never past the session's expiry): a client sending requests back to back costs one
 * session query a second instead of one per request. A token revoked by another process is
 * refused by this one within that second; money movements check the session again in the
 * database anyway (see ledger_transfer). Unknown, expired and revoked tokens are never remembered.
 */
export function cachedSessionLookup(db: Db, ttlMs: number = SESSION_CACHE_MS): SessionLookup {
  const byTokenHash = new Map<string, { id: string; userId: string; until: number }>();
  return {
    async find(token) {
      const tokenHash = hashToken(token);
      const now = Date.now();
      const known = byTokenHash.get(tokenHash);
      if (known && known.until > now) return { id: known.id, userId: known.userId };
      byTokenHash.delete(tokenHash);
      const session = await findLiveSession(db, token);
      if (!session) return undefined;
      if (byTokenHash.size >= SESSION_CACHE_MAX) byTokenHash.clear();
      byTokenHash.set(tokenHash, { id: session.id, userId: session.userId, until: Math.min(now + ttlMs, session.expiresAt.getTime()) });
      return { id: session.id, userId: session.userId };
    },
    forget(sessionId) {
      for (const [tokenHash, entry] of byTokenHash) if (entry.id === sessionId) byTokenHash.delete(tokenHash);
    },
  };
}

/** Ends every live session of the user; answers the ended sessions' ids. */
export async function revokeAllSessionsOf(db: Db, userId: string, now: Date): Promise<string[]> {
  const sessions = await db.updateTable('sessions').set({ revokedAt: now }).where('userId', '=', userId).where('revokedAt', 'is', null).returning(['id']).execute();
  return sessions.map((session) => session.id);
}
