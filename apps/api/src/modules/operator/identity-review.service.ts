import type { IdentityReview } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { refuse } from '../../http/refusals.ts';
import { assertNotOwnAccount } from '../../http/ownership.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { recordAudit } from '../audit/audit.ts';
import { hasIdentityDocumentsUnderReview, identityReviewRows, lockIdentityRow, markIdentityVerified, setAsideIdentityDocuments } from '../accounts/accounts.service.ts';

/** Accounts with identity documents and an unverified identity, oldest upload first. Behind requireOperator. */
export async function listPendingIdentityReviews(ctx: AppContext): Promise<IdentityReview[]> {
  const rows = await identityReviewRows(ctx.db);
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
    const account = await lockIdentityRow(trx, accountId);
    if (!account) throw refuse('account_not_found');
    await assertNotOwnAccount(trx, operatorId, accountId);
    if (!(await hasIdentityDocumentsUnderReview(trx, accountId))) throw refuse('no_identity_documents');
    if (account.identityVerified) return;
    await markIdentityVerified(trx, accountId);
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
    const account = await lockIdentityRow(trx, accountId);
    if (!account) throw refuse('account_not_found');
    await assertNotOwnAccount(trx, operatorId, accountId);
    if (account.identityVerified) throw refuse('identity_already_verified');
    const setAside = await setAsideIdentityDocuments(trx, accountId);
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
