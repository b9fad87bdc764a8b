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
export async function findLiveSession(db: Db, token: string): Promise<{ id: string; userId: string } | undefined> {
  return db
    .selectFrom('sessions')
    .select(['id', 'userId'])
    .where('tokenHash', '=', hashToken(token))
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', new Date())
    .executeTakeFirst();
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db.updateTable('sessions').set({ revokedAt: new Date() }).where('id', '=', sessionId).where('revokedAt', 'is', null).execute();
}
