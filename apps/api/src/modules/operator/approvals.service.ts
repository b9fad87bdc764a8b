import {
  asCents,
  centsToMajor,
  CURRENCIES,
  FOUR_EYES_WITHDRAWAL_FROM_CENTS,
  OPERATOR_DAILY_FUNDING_CAP_CENTS,
  withdrawMessages,
  type Currency,
  type OperatorApprovalView,
  type OperatorDayTotals,
  type OperatorWithdrawalView,
} from '@kestrel/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { inTransaction, isUniqueViolation } from '../../db/transaction.ts';
import { refuse } from '../../http/refusals.ts';
import { assertNotOwnAccount, isUuid } from '../../http/ownership.ts';
import { recordAudit } from '../audit/audit.ts';
import { selectAccountNumber } from '../accounts/accounts.service.ts';
import { lockWithdrawal, moveWithdrawal, moveWithdrawalIn, withdrawalAmountOf } from '../withdrawals/withdrawals.service.ts';
import { approvalView, listApprovals, lockApproval } from './approvals.repository.ts';
import { creditWallet, utcDayStart } from './funding.service.ts';

/*
 * The four-eyes rule (maker–checker) lives here and in funding.service.ts. The requester's
 * side: funding above the threshold or past the daily cap (funding.service.ts) and
 * completing a large withdrawal (requestWithdrawalCompletion) record a Pending request. The
 * checker's side: decideApproval, by a different operator, carries the movement out (or
 * refuses it) in the same database transaction that moves the request out of Pending, under
 * the request's row lock — two approvers at once make one movement; the second gets 409.
 */

export { listApprovals };

function currencyOf(code: string): Currency {
  const currency = CURRENCIES.find((candidate) => candidate === code);
  if (!currency) throw new Error(`unknown currency ${code}`);
  return currency;
}

export type CompletionOutcome = { outcome: 'completed'; withdrawal: OperatorWithdrawalView } | { outcome: 'pending_approval'; approval: OperatorApprovalView };

/**
 * POST /v1/operator/withdrawals/{id}/complete: below FOUR_EYES_WITHDRAWAL_FROM_CENTS the
 * operator completes it; from there on it becomes a Pending request for a second operator.
 */
export async function requestWithdrawalCompletion(ctx: AppContext, operatorId: string, id: string, ip: string): Promise<CompletionOutcome> {
  if (!isUuid(id)) throw refuse('withdrawal_not_found');
  const row = await withdrawalAmountOf(ctx.db, id);
  if (!row) throw refuse('withdrawal_not_found');
  if (row.amountCents < FOUR_EYES_WITHDRAWAL_FROM_CENTS) return { outcome: 'completed', withdrawal: await moveWithdrawal(ctx, operatorId, id, 'complete', ip) };
  try {
    return await inTransaction(ctx.db, async (trx) => {
      const current = await lockWithdrawal(trx, id);
      await assertNotOwnAccount(trx, operatorId, current.accountId);
      if (current.status !== 'Processing') throw refuse('withdrawal_status_conflict', { message: withdrawMessages.wrongStatus(current.status, 'completed') });
      const request = await trx
        .insertInto('operatorApprovals')
        .values({
          kind: 'withdrawal_completion',
          accountId: current.accountId,
          withdrawalId: current.id,
          currency: current.currency,
          amountCents: current.amountCents,
          reason: `Pay out ${current.bankName} withdrawal`,
          neededBecause: 'above_threshold',
          requestedBy: operatorId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        actorUserId: operatorId,
        action: 'withdrawal.completion_requested',
        subjectType: 'bank_withdrawal',
        subjectId: current.id,
        ip,
        details: { approvalId: request.id, currency: current.currency, amountCents: current.amountCents },
      });
      return { outcome: 'pending_approval' as const, approval: await approvalView(trx, request.id) };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'operator_approvals_one_pending_completion')) throw refuse('completion_already_requested');
    throw error;
  }
}

/**
 * POST /v1/operator/approvals/{approvalId}/approve|refuse, with a reason. Never by the
 * requester, never on the decider's own account. Approving carries the movement out with
 * today's ledger calls, audited with both operators' ids.
 */
export async function decideApproval(
  ctx: AppContext,
  deciderId: string,
  approvalId: string,
  decision: 'approve' | 'refuse',
  reason: string,
  ip: string,
): Promise<OperatorApprovalView> {
  const decided = await inTransaction(ctx.db, async (trx) => {
    const request = await lockApproval(trx, approvalId);
    if (!request) throw refuse('approval_not_found');
    if (request.requestedBy === deciderId) throw refuse('own_request');
    if (request.status !== 'Pending') throw refuse('approval_not_pending');
    await assertNotOwnAccount(trx, deciderId, request.accountId);

    const fourEyes = { approvalId: request.id, requestedBy: request.requestedBy, approvedBy: deciderId };
    let transactionId: string | null = null;
    if (decision === 'approve' && request.kind === 'funding') {
      const account = await selectAccountNumber(trx, request.accountId).executeTakeFirstOrThrow();
      const funded = await creditWallet(trx, deciderId, account, { amount: asCents(request.amountCents), currency: currencyOf(request.currency), reason: request.reason }, ip, fourEyes);
      transactionId = funded.transactionId;
    } else if (decision === 'approve' && request.withdrawalId) {
      await moveWithdrawalIn(trx, deciderId, request.withdrawalId, 'complete', ip, undefined, fourEyes);
    }
    await trx
      .updateTable('operatorApprovals')
      .set({ status: decision === 'approve' ? 'Approved' : 'Refused', decidedBy: deciderId, decidedAt: new Date(), decisionReason: reason, transactionId })
      .where('id', '=', request.id)
      .execute();
    const subject = request.kind === 'funding' ? { subjectType: 'account', subjectId: request.accountId } : { subjectType: 'bank_withdrawal', subjectId: request.withdrawalId ?? undefined };
    await recordAudit(trx, {
      actorUserId: deciderId,
      action: `${request.kind === 'funding' ? 'funding' : 'withdrawal.completion'}.${decision === 'approve' ? 'approved' : 'refused'}`,
      ...subject,
      ip,
      details: { approvalId: request.id, requestedBy: request.requestedBy, decidedBy: deciderId, currency: request.currency, amountCents: request.amountCents, requestReason: request.reason, reason, transactionId },
    });
    return approvalView(trx, request.id);
  });
  // An approved payout wrote the withdrawal's notification event; its mail leaves now.
  ctx.notifications.ring();
  return decided;
}

/**
 * GET /v1/operator/today: per operator, today's (UTC) funding and payouts carried out (counted
 * for the operator who asked), approvals and refusals given, and requests still waiting.
 */
export async function operatorDayTotals(ctx: AppContext, now = new Date()): Promise<OperatorDayTotals> {
  const dayStart = utcDayStart(now);
  const { rows } = await sql<{ userId: string; email: string; name: string; funded: string; fundedAlone: string; paidOut: string; approved: string; refused: string; pending: string }>`
    WITH today AS (
      SELECT action, actor_user_id, details FROM audit_log
      WHERE created_at >= ${dayStart}
        AND action IN ('account.funded', 'withdrawal.completed', 'funding.approved', 'funding.refused', 'withdrawal.completion.approved', 'withdrawal.completion.refused')
    )
    SELECT u.id AS user_id, u.email, u.first_name || ' ' || u.last_name AS name,
      (SELECT COALESCE(SUM((details->>'amountCents')::bigint), 0) FROM today
        WHERE action = 'account.funded' AND COALESCE((details->>'requestedBy')::uuid, actor_user_id) = u.id) AS funded,
      (SELECT COALESCE(SUM((details->>'amountCents')::bigint), 0) FROM today
        WHERE action = 'account.funded' AND actor_user_id = u.id AND details->>'approvalId' IS NULL) AS funded_alone,
      (SELECT COALESCE(SUM((details->>'amountCents')::bigint), 0) FROM today
        WHERE action = 'withdrawal.completed' AND COALESCE((details->>'requestedBy')::uuid, actor_user_id) = u.id) AS paid_out,
      (SELECT COUNT(*) FROM today WHERE action IN ('funding.approved', 'withdrawal.completion.approved') AND actor_user_id = u.id) AS approved,
      (SELECT COUNT(*) FROM today WHERE action IN ('funding.refused', 'withdrawal.completion.refused') AND actor_user_id = u.id) AS refused,
      (SELECT COUNT(*) FROM operator_approvals WHERE status = 'Pending' AND requested_by = u.id) AS pending
    FROM users u WHERE u.is_operator
    ORDER BY u.email`.execute(ctx.db);
  const major = (cents: string | number) => centsToMajor(asCents(cents));
  return {
    date: dayStart.toISOString().slice(0, 10),
    dailyFundingCap: major(OPERATOR_DAILY_FUNDING_CAP_CENTS),
    operators: rows.map((row) => ({
      userId: row.userId,
      email: row.email,
      name: row.name,
      funded: major(row.funded),
      fundedAlone: major(row.fundedAlone),
      capLeft: major(Math.max(0, OPERATOR_DAILY_FUNDING_CAP_CENTS - Number(row.fundedAlone))),
      paidOut: major(row.paidOut),
      approved: Number(row.approved),
      refused: Number(row.refused),
      pending: Number(row.pending),
    })),
  };
}
