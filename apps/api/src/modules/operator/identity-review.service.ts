import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { recordActivity } from '../activities/activities.repository.ts';
import { recordAudit } from '../audit/audit.ts';

/** Operators only; anyone else gets the same 404 as an unknown route would. */
export async function assertOperator(ctx: AppContext, userId: string): Promise<void> {
  const user = await ctx.db.selectFrom('users').select('isOperator').where('id', '=', userId).executeTakeFirst();
  if (!user?.isOperator) throw notFound();
}

/** Accounts with identity documents and an unverified identity, oldest upload first. */
export async function listPendingIdentityReviews(ctx: AppContext, operatorId: string) {
  await assertOperator(ctx, operatorId);
  const rows = await ctx.db
    .selectFrom('accounts')
    .innerJoin('identityDocuments', 'identityDocuments.accountId', 'accounts.id')
    .select([
      'accounts.id as accountId',
      'accounts.accountNumber',
      'accounts.accountHolderName',
      'accounts.identityType',
      'accounts.identityNumber',
      'identityDocuments.id as documentId',
      'identityDocuments.createdAt',
    ])
    .where('accounts.identityVerified', '=', false)
    .orderBy('identityDocuments.createdAt')
    .limit(500)
    .execute();
  const reviews = new Map<string, { accountId: string; accountNumber: string; accountHolderName: string; identity: { type: string; number: string }; documents: { _id: string; url: string; createdAt: Date }[] }>();
  for (const row of rows) {
    const entry = reviews.get(row.accountId) ?? {
      accountId: row.accountId,
      accountNumber: row.accountNumber,
      accountHolderName: row.accountHolderName,
      identity: { type: row.identityType, number: row.identityNumber },
      documents: [],
    };
    entry.documents.push({ _id: row.documentId, url: `/v1/account/${row.accountId}/identity-images/${row.documentId}`, createdAt: row.createdAt });
    reviews.set(row.accountId, entry);
  }
  return [...reviews.values()];
}

/** Marks the identity verified; only for an account that has uploaded documents. */
export async function verifyAccountIdentity(ctx: AppContext, operatorId: string, accountId: string, ip: string): Promise<void> {
  await assertOperator(ctx, operatorId);
  await inTransaction(ctx.db, async (trx) => {
    const account = await trx.selectFrom('accounts').select(['id', 'identityVerified']).where('id', '=', accountId).forUpdate().executeTakeFirst();
    if (!account) throw notFound('Account not available!', 'account_not_found');
    const documents = await trx.selectFrom('identityDocuments').select('id').where('accountId', '=', accountId).limit(1).execute();
    if (documents.length === 0) throw badRequest('This account has not uploaded identity documents yet', undefined, 'no_identity_documents');
    if (account.identityVerified) return;
    await trx.updateTable('accounts').set({ identityVerified: true, updatedAt: new Date() }).where('id', '=', accountId).execute();
    await recordActivity(trx, accountId, 'Identity verified', 'Your identity documents were reviewed and accepted');
    await recordAudit(trx, { actorUserId: operatorId, action: 'account.identity_verified', subjectType: 'account', subjectId: accountId, ip });
  });
}
