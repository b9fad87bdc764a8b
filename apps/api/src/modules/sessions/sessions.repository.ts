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

/** The live session behind a token, or undefined when unknown, expired or revoked. */
export async function findLiveSession(db: Db, token: string): Promise<{ id: string; userId: string; expiresAt: Date } | undefined> {
  return db
    .selectFrom('sessions')
    .select(['id', 'userId', 'expiresAt'])
    .where('tokenHash', '=', hashToken(token))
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', new Date())
    .executeTakeFirst();
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
