import {
  asCents,
  CURRENCIES,
  centsToMajor,
  type Currency,
  formatMoney,
  FOUR_EYES_WITHDRAWAL_FROM_CENTS,
  maskBankAccountNumber,
  messages,
  withdrawMessages,
  type CreateWithdrawalInput,
  type OperatorWithdrawalView,
  type WithdrawalStatus,
  type WithdrawalCounters,
  type WithdrawalView,
} from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { inTransaction, type Trx } from '../../db/transaction.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { runIdempotent } from '../../http/idempotency.ts';
import { assertTpinNotLocked, checkTpin } from '../accounts/tpin.ts';
import { assertNotOwnAccount, findOwnedAccount, isUuid } from '../../http/ownership.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { recordAudit } from '../audit/audit.ts';
import { postTransaction, SYSTEM_ACCOUNTS } from '../ledger/ledger.service.ts';
import {
  countAccountWithdrawalsByStatus,
  listAccountWithdrawals,
  listWithdrawalsForOperators,
  lockWithdrawal,
  type WithdrawalRow,
} from './withdrawals.repository.ts';

// Other modules read this module's tables through these (lint keeps them out of its repository).
export { countAccountWithdrawalsQuery } from './withdrawals.repository.ts';

/*
 * Bank withdrawals. Asking for one moves the money from the wallet to the payouts-in-flight
 * system account at once, so it cannot be spent twice while the payout is on its way.
 * Operators then move it Pending → Processing → Completed (the money has left Kestrel and
 * stays out) or Failed (a second ledger transaction gives it back to the wallet).
 */

/** The withdrawal's currency, which its row was created with from the Currency enum. */
export function currencyOf(row: WithdrawalRow): Currency {
  const currency = CURRENCIES.find((code) => code === row.currency);
  if (!currency) throw new Error(`unknown currency ${row.currency}`);
  return currency;
}

export function view(row: WithdrawalRow, accountNumber: string): WithdrawalView {
  return {
    _id: row.id,
    accountNumber,
    amount: centsToMajor(asCents(row.amountCents)),
    currency: row.currency,
    status: row.status,
    bankName: row.bankName,
    country: row.country,
    branchName: row.branchName,
    accountType: row.accountType,
    bankAccountNumber: maskBankAccountNumber(row.bankAccountNumber),
    routingNumber: row.routingNumber,
    accountHolderName: row.accountHolderName,
    failureReason: row.failureReason,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** POST /v1/bank-withdraw/create: a Pending withdrawal with its money held. */
export async function createWithdrawal(
  ctx: AppContext,
  callerId: string,
  body: CreateWithdrawalInput,
  idempotencyKey: string | undefined,
  ip: string,
): Promise<{ result: WithdrawalView; replayed: boolean }> {
  // The caller is the token's user; a body naming someone else is refused like an unknown account.
  if (body.userId !== undefined && body.userId !== callerId) throw notFound(messages.portal.accountNotAvailable, 'account_not_found');
  // The request schema has already turned the amount into cents (exact decimal parsing).
  const amountCents = body.amount;

  const account = await findOwnedAccount(ctx.db, { userId: callerId }, body.accountNumber);
  if (!account) throw notFound(messages.portal.accountNotAvailable, 'account_not_found');

  const outcome = await runIdempotent(
    ctx.db,
    {
      caller: `user:${callerId}`,
      key: idempotencyKey,
      route: 'POST /v1/bank-withdraw/create',
      // The TPIN is left out of the stored request hash: a hash of 4 digits is easily reversed.
      body: { ...body, tpin: undefined, amount: amountCents },
      statusCode: 201,
      beforeWork: () => checkTpin(ctx.db, ctx.config.secretKey, account.id, body.tpin, callerId, account),
    },
    async (trx): Promise<WithdrawalView> => {
      // Decided again under the account's row lock, held to commit (a TPIN or operator lock written since the check).
      await assertTpinNotLocked(trx, account.id);
      let row: WithdrawalRow | undefined;
      await postTransaction(
        trx,
        {
          kind: 'withdrawal',
          transactionFor: 'Bank Withdraw',
          currency: body.currency,
          amountCents,
          createdBy: callerId,
          metadata: { from: account.accountNumber, bankName: body.bankName, country: body.country },
          postings: [
            { party: { walletAccountId: account.id }, amountCents: -amountCents },
            { party: { system: SYSTEM_ACCOUNTS.payoutsInFlight }, amountCents },
          ],
        },
        {
          beforeBalances: async (ledgerTransaction) => {
            row = await trx
              .insertInto('bankWithdrawals')
              .values({
                accountId: account.id,
                requestedBy: callerId,
                currency: body.currency,
                amountCents,
                country: body.country,
                bankName: body.bankName,
                branchName: body.branchName ?? null,
                accountType: body.accountType ?? null,
                bankAccountNumber: body.bankAccountNumber,
                routingNumber: body.routingNumber,
                accountHolderName: body.accountHolderName,
                holdTransactionId: ledgerTransaction.id,
              })
              .returningAll()
              .executeTakeFirstOrThrow();
            const shown = formatMoney(amountCents, body.currency);
            await recordActivity(
              trx,
              account.id,
              'Bank withdrawal requested',
              `${shown} to ${body.bankName} (${maskBankAccountNumber(body.bankAccountNumber)}), ${ledgerTransaction.transactionId}; pending`,
            );
            await recordAudit(trx, {
              actorUserId: callerId,
              action: 'withdrawal.created',
              subjectType: 'bank_withdrawal',
              subjectId: row.id,
              ip,
              details: { account: account.accountNumber, amountCents, currency: body.currency, transactionId: ledgerTransaction.transactionId },
            });
          },
        },
      );
      if (!row) throw new Error('the withdrawal row was not written');
      return view(row, account.accountNumber);
    },
  );
  return { result: outcome.body, replayed: outcome.replayed };
}

/** Without `limit`, the list answers the spec's whole list, up to this many. */
const WHOLE_LIST_LIMIT = 500;

/** GET /v1/bank-withdraw/account/{accountNumber}: the owner's withdrawals, newest first, paged by `cursor`. */
export async function listWithdrawals(
  ctx: AppContext,
  callerId: string,
  accountNumber: string,
  page: { limit?: number | undefined; cursor?: string | undefined } = {},
): Promise<WithdrawalView[]> {
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, accountNumber);
  if (!account) throw notFound(messages.portal.accountNotAvailable, 'account_not_found');
  const rows = await listAccountWithdrawals(ctx.db, account.id, { limit: page.limit ?? WHOLE_LIST_LIMIT, after: page.cursor });
  return rows.map((row) => view(row, account.accountNumber));
}

/** GET /v1/bank-withdraw/account/{accountNumber}/summary: the list page's counters, over every withdrawal. */
export async function withdrawalCountersOf(ctx: AppContext, callerId: string, accountNumber: string): Promise<WithdrawalCounters> {
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, accountNumber);
  if (!account) throw notFound(messages.portal.accountNotAvailable, 'account_not_found');
  const counts = await countAccountWithdrawalsByStatus(ctx.db, account.id);
  return { completed: Number(counts.completed), pending: Number(counts.pending), total: Number(counts.total), failed: Number(counts.failed) };
}

/** GET /v1/operator/withdrawals?status=: the queue, oldest first, with the full bank account number for the payout. */
export async function listWithdrawalsForOperator(ctx: AppContext, status: WithdrawalStatus | undefined): Promise<OperatorWithdrawalView[]> {
  const rows = await listWithdrawalsForOperators(ctx.db, status);
  return rows.map((row) => ({
    ...view(row, row.accountNumber),
    bankAccountNumber: row.bankAccountNumber,
    accountId: row.accountId,
    accountHolder: row.accountHolder,
  }));
}

export type OperatorAction = 'processing' | 'complete' | 'fail';

/** Which statuses each operator action starts from, and where it leads: Pending → Processing → Completed | Failed. */
const MOVES: Record<OperatorAction, { from: WithdrawalStatus; to: WithdrawalStatus; verb: string; activity: string; audit: string }> = {
  processing: { from: 'Pending', to: 'Processing', verb: 'marked Processing', activity: 'Bank withdrawal processing', audit: 'withdrawal.processing' },
  complete: { from: 'Processing', to: 'Completed', verb: 'completed', activity: 'Bank withdrawal completed', audit: 'withdrawal.completed' },
  fail: { from: 'Processing', to: 'Failed', verb: 'failed', activity: 'Bank withdrawal failed', audit: 'withdrawal.failed' },
};

/**
 * POST /v1/operator/withdrawals/{id}/processing|complete|fail. The withdrawal's row is locked
 * first, so two operators acting at once take turns: the second sees the first one's status
 * and gets 409. Failing gives the money back to the wallet in a new ledger transaction, in
 * the same database transaction as the status change, so it happens exactly once.
 */
export async function moveWithdrawal(
  ctx: AppContext,
  operatorId: string,
  id: string,
  action: OperatorAction,
  ip: string,
  reason?: string,
): Promise<OperatorWithdrawalView> {
  if (!isUuid(id)) throw notFound(withdrawMessages.notFound, 'withdrawal_not_found');
  return inTransaction(ctx.db, (trx) => moveWithdrawalIn(trx, operatorId, id, action, ip, reason));
}

/** Both operators of a four-eyes completion: who asked, who approved. */
export interface CompletionApproval {
  approvalId: string;
  requestedBy: string;
  approvedBy: string;
}

/**
 * moveWithdrawal inside the caller's transaction (the four-eyes approval flips its request in
 * the same one). Completing FOUR_EYES_WITHDRAWAL_FROM_CENTS or more needs `approval`: one
 * operator alone cannot pay a large withdrawal out, whichever route calls this.
 */
export async function moveWithdrawalIn(
  trx: Trx,
  operatorId: string,
  id: string,
  action: OperatorAction,
  ip: string,
  reason?: string,
  approval?: CompletionApproval,
): Promise<OperatorWithdrawalView> {
  const move = MOVES[action];
  const updated = await (async () => {
    const current = await lockWithdrawal(trx, id);
    if (!current) throw notFound(withdrawMessages.notFound, 'withdrawal_not_found');
    await assertNotOwnAccount(trx, operatorId, current.accountId);
    if (current.status !== move.from) throw new AppError(409, 'withdrawal_status_conflict', withdrawMessages.wrongStatus(current.status, move.verb));
    if (action === 'complete' && current.amountCents >= FOUR_EYES_WITHDRAWAL_FROM_CENTS && !approval) {
      throw new AppError(409, 'four_eyes_required', withdrawMessages.fourEyesRequired);
    }
    // An open payout request would otherwise outlive the withdrawal it asks to pay (its approval
    // could only answer 409): the checker refuses it first, and the record says who decided.
    if (action === 'fail') {
      const openPayout = await trx
        .selectFrom('operatorApprovals')
        .select('id')
        .where('withdrawalId', '=', current.id)
        .where('status', '=', 'Pending')
        .executeTakeFirst();
      if (openPayout) throw new AppError(409, 'completion_awaiting_decision', withdrawMessages.completionAwaitingDecision);
    }

    const shown = formatMoney(asCents(current.amountCents), currencyOf(current));
    let returnTransactionId: number | null = null;
    let returnedAs = '';
    if (action === 'fail') {
      const returned = await postTransaction(trx, {
        kind: 'withdrawal_return',
        transactionFor: 'Bank Withdraw Returned',
        currency: currencyOf(current),
        amountCents: current.amountCents,
        createdBy: operatorId,
        metadata: { withdrawalId: current.id, reason },
        postings: [
          { party: { system: SYSTEM_ACCOUNTS.payoutsInFlight }, amountCents: -current.amountCents },
          { party: { walletAccountId: current.accountId }, amountCents: current.amountCents },
        ],
      });
      returnTransactionId = returned.id;
      returnedAs = returned.transactionId;
    }
    const row = await trx
      .updateTable('bankWithdrawals')
      .set({
        status: move.to,
        updatedAt: new Date(),
        ...(action === 'fail' ? { failureReason: reason ?? null, returnTransactionId } : {}),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();

    const to = `${row.bankName} (${maskBankAccountNumber(row.bankAccountNumber)})`;
    const comment =
      action === 'fail'
        ? `${shown} to ${to} failed: ${reason}. The money is back in your wallet, ${returnedAs}`
        : action === 'complete'
          ? `${shown} to ${to} was paid out`
          : `${shown} to ${to} is being processed`;
    await recordActivity(trx, row.accountId, move.activity, comment);
    await recordAudit(trx, {
      actorUserId: operatorId,
      action: move.audit,
      subjectType: 'bank_withdrawal',
      subjectId: row.id,
      ip,
      details: {
        from: current.status,
        to: move.to,
        amountCents: row.amountCents,
        currency: row.currency,
        ...(reason ? { reason } : {}),
        ...(returnedAs ? { returnTransactionId: returnedAs } : {}),
        ...(approval ?? {}),
      },
    });
    const account = await trx.selectFrom('accounts').select(['accountNumber', 'accountHolderName']).where('id', '=', row.accountId).executeTakeFirstOrThrow();
    return { row, account };
  })();
  return {
    ...view(updated.row, updated.account.accountNumber),
    bankAccountNumber: updated.row.bankAccountNumber,
    accountId: updated.row.accountId,
    accountHolder: updated.account.accountHolderName,
  };
}
