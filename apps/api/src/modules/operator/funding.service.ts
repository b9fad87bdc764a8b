import {
  centsToMajor,
  formatMoney,
  FOUR_EYES_FUNDING_ABOVE_CENTS,
  negateCents,
  OPERATOR_DAILY_FUNDING_CAP_CENTS,
  type Cents,
  type Currency,
  type FundWalletResult,
  type OperatorApprovalView,
} from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import { refuse } from '../../http/refusals.ts';
import { runIdempotent } from '../../http/idempotency.ts';
import { assertNotOwnAccount } from '../../http/ownership.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { recordAudit, soloFundedSinceCents } from '../audit/audit.ts';
import { selectAccountNumber } from '../accounts/accounts.service.ts';
import { postTransaction, SYSTEM_ACCOUNTS, walletBalanceIn } from '../ledger/ledger.service.ts';
import { lockUserRow } from '../users/users.service.ts';
import { approvalView } from './approvals.repository.ts';

/*
 * Operator funding: money entering Kestrel from the funding system account. One operator
 * may fund up to FOUR_EYES_FUNDING_ABOVE_CENTS at a time and OPERATOR_DAILY_FUNDING_CAP_CENTS
 * a (UTC) day on their own; anything above either becomes a Pending four-eyes request that a
 * second operator approves (approvals.service.ts carries it out through creditWallet).
 */

/** Midnight UTC of the day `now` falls in: the funding cap's and the day totals' day. */
export function utcDayStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * What this operator funded alone today: the `account.funded` audit rows they wrote without
 * an approval. The audit row commits with the ledger transaction, so it is as exact as the ledger.
 */
export async function soloFundedTodayCents(db: Db | Trx, operatorId: string, dayStart = utcDayStart()): Promise<number> {
  return soloFundedSinceCents(db, operatorId, dayStart);
}

export interface FourEyes {
  approvalId: string;
  requestedBy: string;
  approvedBy: string;
}

/**
 * Credits the wallet inside the caller's transaction: ledger transaction, activity and audit
 * row commit together. `fourEyes` names both operators when a second one approved it.
 */
export async function creditWallet(
  trx: Trx,
  executedBy: string,
  account: { id: string; accountNumber: string },
  body: { amount: Cents; currency: Currency; reason: string },
  ip: string,
  fourEyes?: FourEyes,
): Promise<FundWalletResult> {
  const before = await walletBalanceIn(trx, account.id, body.currency);
  const posted = await postTransaction(
    trx,
    {
      kind: 'operator_funding',
      transactionFor: 'Funding',
      currency: body.currency,
      amountCents: body.amount,
      createdBy: fourEyes?.requestedBy ?? executedBy,
      metadata: { to: account.accountNumber, reason: body.reason, ...(fourEyes ?? {}) },
      postings: [
        { party: { system: SYSTEM_ACCOUNTS.funding }, amountCents: negateCents(body.amount) },
        { party: { walletAccountId: account.id }, amountCents: body.amount },
      ],
    },
    {
      beforeBalances: async (ledgerTransaction) => {
        await recordActivity(trx, account.id, 'Wallet funded', `${formatMoney(body.amount, body.currency)} from Kestrel, ${ledgerTransaction.transactionId}: ${body.reason}`);
        await recordAudit(trx, {
          actorUserId: executedBy,
          action: 'account.funded',
          subjectType: 'account',
          subjectId: account.id,
          ip,
          details: {
            reason: body.reason,
            transactionId: ledgerTransaction.transactionId,
            currency: body.currency,
            amountCents: body.amount,
            ...(fourEyes ?? {}),
            before: { balanceCents: before?.balanceCents ?? 0 },
            after: { balanceCents: (before?.balanceCents ?? 0) + body.amount },
          },
        });
      },
    },
  );
  const balance = posted.balancesAfter.get(account.id) ?? body.amount;
  return { transactionId: posted.transactionId, accountId: account.id, currency: body.currency, amount: centsToMajor(body.amount), balance: centsToMajor(balance) };
}

export type FundOutcome = ({ outcome: 'funded' } & FundWalletResult) | { outcome: 'pending_approval'; approval: OperatorApprovalView };

/**
 * POST /v1/operator/accounts/{accountId}/fund: funds at once within the operator's limits,
 * otherwise records a Pending four-eyes request (202). Once per Idempotency-Key either way.
 */
export async function fundWallet(
  ctx: AppContext,
  operatorId: string,
  accountId: string,
  body: { amount: Cents; currency: Currency; reason: string },
  idempotencyKey: string | undefined,
  ip: string,
): Promise<{ result: FundOutcome; replayed: boolean }> {
  const account = await selectAccountNumber(ctx.db, accountId).executeTakeFirst();
  if (!account) throw refuse('account_not_found');
  await assertNotOwnAccount(ctx.db, operatorId, accountId);
  const outcome = await runIdempotent(
    ctx.db,
    { caller: `operator:${operatorId}`, key: idempotencyKey, route: `POST /v1/operator/accounts/${accountId}/fund`, body, statusCode: 200 },
    async (trx): Promise<FundOutcome> => {
      // The operator's own row, locked: their fundings take turns, so two at once cannot both fit under the cap.
      await lockUserRow(trx, operatorId);
      const soloToday = await soloFundedTodayCents(trx, operatorId);
      const neededBecause =
        body.amount > FOUR_EYES_FUNDING_ABOVE_CENTS ? 'above_threshold' : soloToday + body.amount > OPERATOR_DAILY_FUNDING_CAP_CENTS ? 'daily_cap' : undefined;
      if (!neededBecause) return { outcome: 'funded', ...(await creditWallet(trx, operatorId, account, body, ip)) };
      const request = await trx
        .insertInto('operatorApprovals')
        .values({ kind: 'funding', accountId, currency: body.currency, amountCents: body.amount, reason: body.reason, neededBecause, requestedBy: operatorId })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        actorUserId: operatorId,
        action: 'funding.requested',
        subjectType: 'account',
        subjectId: accountId,
        ip,
        details: { approvalId: request.id, currency: body.currency, amountCents: body.amount, reason: body.reason, neededBecause },
      });
      return { outcome: 'pending_approval', approval: await approvalView(trx, request.id) };
    },
  );
  return { result: outcome.body, replayed: outcome.replayed };
}
