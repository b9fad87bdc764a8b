import type { IdentityReview } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { refuse } from '../../http/refusals.ts';
import { assertNotOwnAccount } from '../../http/ownership.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { recordAudit } from '../audit/audit.ts';

/** Accounts with identity documents and an unverified identity, oldest upload first. Behind requireOperator. */
export async function listPendingIdentityReviews(ctx: AppContext): Promise<IdentityReview[]> {
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
    // Documents set aside by "Ask for new documents" are not reviewed again.
    .where('identityDocuments.setAsideAt', 'is', null)
    .orderBy('identityDocuments.createdAt')
    .limit(500)
    .execute();
  const reviews = new Map<string, IdentityReview>();
  for (const row of rows) {
    const entry = reviews.get(row.accountId) ?? {
      accountId: row.accountId,
      accountNumber: row.accountNumber,
      accountHolderName: row.accountHolderName,
      identity: { type: row.identityType, number: row.identityNumber },
      documents: [],
    };
    entry.documents.push({ _id: row.documentId, url: `/v1/account/${row.accountId}/identity-images/${row.documentId}`, createdAt: row.createdAt.toISOString() });
    reviews.set(row.accountId, entry);
  }
  return [...reviews.values()];
}

/** Marks the identity verified; only for an account that has uploaded documents. Behind requireOperator. */
export async function verifyAccountIdentity(ctx: AppContext, operatorId: string, accountId: string, ip: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const account = await trx.selectFrom('accounts').select(['id', 'identityVerified']).where('id', '=', accountId).forUpdate().executeTakeFirst();
    if (!account) throw refuse('account_not_found');
    await assertNotOwnAccount(trx, operatorId, accountId);
    const documents = await trx.selectFrom('identityDocuments').select('id').where('accountId', '=', accountId).where('setAsideAt', 'is', null).limit(1).execute();
    if (documents.length === 0) throw refuse('no_identity_documents');
    if (account.identityVerified) return;
    await trx.updateTable('accounts').set({ identityVerified: true, updatedAt: new Date() }).where('id', '=', accountId).execute();
    await recordActivity(trx, accountId, 'Identity verified', 'Your identity documents were reviewed and accepted');
    await recordAudit(trx, {
      actorUserId: operatorId,
      action: 'account.identity_verified',
      subjectType: 'account',
      subjectId: accountId,
      ip,
      details: { before: { identityVerified: false }, after: { identityVerified: true } },
    });
  });
}

/**
 * "Ask for new documents": the documents under review are set aside (kept for the record),
 * the account leaves the queue until new ones arrive, and the holder sees the reason as an
 * activity. Behind requireOperator.
 */
export async function requestNewIdentityDocuments(ctx: AppContext, operatorId: string, accountId: string, reason: string, ip: string): Promise<number> {
  return inTransaction(ctx.db, async (trx) => {
    const account = await trx.selectFrom('accounts').select(['id', 'identityVerified']).where('id', '=', accountId).forUpdate().executeTakeFirst();
    if (!account) throw refuse('account_not_found');
    await assertNotOwnAccount(trx, operatorId, accountId);
    if (account.identityVerified) throw refuse('identity_already_verified');
    const setAside = await trx
      .updateTable('identityDocuments')
      .set({ setAsideAt: new Date() })
      .where('accountId', '=', accountId)
      .where('setAsideAt', 'is', null)
      .returning('id')
      .execute();
    if (setAside.length === 0) throw refuse('no_identity_documents');
    await recordActivity(trx, accountId, 'New identity documents needed', reason);
    await recordAudit(trx, {
      actorUserId: operatorId,
      action: 'account.identity_documents_requested',
      subjectType: 'account',
      subjectId: accountId,
      ip,
      details: { reason, before: { documentsUnderReview: setAside.map((row) => row.id) }, after: { documentsUnderReview: [] } },
    });
    return setAside.length;
  });
}
