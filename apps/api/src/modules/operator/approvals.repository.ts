import { asCents, centsToMajor, type OperatorApprovalView } from '@kestrel/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';

/** The four-eyes requests with their account and both operators' names, for the console. */
function approvalsWithNames(db: Db | Trx) {
  return db
    .selectFrom('operatorApprovals')
    .innerJoin('accounts', 'accounts.id', 'operatorApprovals.accountId')
    .innerJoin('users as requester', 'requester.id', 'operatorApprovals.requestedBy')
    .leftJoin('users as decider', 'decider.id', 'operatorApprovals.decidedBy')
    .selectAll('operatorApprovals')
    .select([
      'accounts.accountNumber',
      'accounts.accountHolderName',
      'requester.email as requesterEmail',
      sql<string>`requester.first_name || ' ' || requester.last_name`.as('requesterName'),
      'decider.email as deciderEmail',
      sql<string | null>`decider.first_name || ' ' || decider.last_name`.as('deciderName'),
    ]);
}

type ApprovalRow = NonNullable<Awaited<ReturnType<ReturnType<typeof approvalsWithNames>['executeTakeFirst']>>>;

function toView(row: ApprovalRow): OperatorApprovalView {
  return {
    _id: row.id,
    kind: row.kind,
    status: row.status,
    accountId: row.accountId,
    accountNumber: row.accountNumber,
    accountHolderName: row.accountHolderName,
    withdrawalId: row.withdrawalId,
    currency: row.currency,
    amount: centsToMajor(asCents(row.amountCents)),
    reason: row.reason,
    neededBecause: row.neededBecause === 'daily_cap' ? 'daily_cap' : 'above_threshold',
    requestedBy: { userId: row.requestedBy, email: row.requesterEmail, name: row.requesterName },
    requestedAt: row.requestedAt.toISOString(),
    decidedBy: row.decidedBy ? { userId: row.decidedBy, email: row.deciderEmail ?? '', name: row.deciderName ?? '' } : null,
    decidedAt: row.decidedAt ? row.decidedAt.toISOString() : null,
    decisionReason: row.decisionReason,
    transactionId: row.transactionId,
  };
}

export async function approvalView(db: Db | Trx, approvalId: string): Promise<OperatorApprovalView> {
  return toView(await approvalsWithNames(db).where('operatorApprovals.id', '=', approvalId).executeTakeFirstOrThrow());
}

/** Pending: oldest first (the queue); decided: newest decision first. At most 200. */
export async function listApprovals(db: Db, status: 'Pending' | 'Approved' | 'Refused'): Promise<OperatorApprovalView[]> {
  let query = approvalsWithNames(db).where('operatorApprovals.status', '=', status);
  query = status === 'Pending' ? query.orderBy('operatorApprovals.requestedAt') : query.orderBy('operatorApprovals.decidedAt', 'desc');
  return (await query.orderBy('operatorApprovals.id').limit(200).execute()).map(toView);
}

/** The request, locked for the decision: a second decider waits, then sees it decided. */
export function lockApproval(trx: Trx, approvalId: string) {
  return trx.selectFrom('operatorApprovals').selectAll().where('id', '=', approvalId).forUpdate().executeTakeFirst();
}
