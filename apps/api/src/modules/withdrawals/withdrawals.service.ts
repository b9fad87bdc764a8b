import {
  asCents,
  CURRENCIES,
  centsToMajor,
  type Currency,
  formatMoney,
  FOUR_EYES_WITHDRAWAL_FROM_CENTS,
  maskBankAccountNumber,
  withdrawMessages,
  type CreateWithdrawalBody,
  type OperatorWithdrawalView,
  type WithdrawalStatus,
  type WithdrawalCounters,
  type WithdrawalView,
} from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import { refuse } from '../../http/refusals.ts';
import { idempotencyKeyReused, requestHash, storedAnswer } from '../../http/idempotency.ts';
import { prepareStepUp, stepUpBinding, stepUpRefusal } from '../auth/step-up.ts';
import { checkTpin, MoneyMovementLockedError, TpinLockedError } from '../accounts/tpin.ts';
import { findOwnedAccount, isUuid } from '../../http/ownership.ts';
import { InsufficientFundsError, newTransactionId } from '../ledger/ledger.service.ts';
import { withdrawalMove, withdrawalRequest } from './withdrawal-post.ts';
import {
  countAccountWithdrawalsByStatus,
  findWithdrawalWithAccount,
  listAccountWithdrawals,
  listWithdrawalsForOperators,
  withdrawalColumns,
  type WithdrawalRow,
} from './withdrawals.repository.ts';

// Other modules read this module's tables through these (lint keeps them out of its repository).
export { countAccountWithdrawalsQuery, lockWithdrawal, recentWithdrawalsOf, withdrawalAmountOf, withdrawalsForNotice, type WithdrawalNoticeRow } from './withdrawals.repository.ts';

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
  body: CreateWithdrawalBody,
  idempotencyKey: string | undefined,
  ip: string,
): Promise<{ result: WithdrawalView; replayed: boolean }> {
  // The caller is the token's user; a body naming someone else is refused like an unknown account.
  if (body.userId !== undefined && body.userId !== callerId) throw refuse('account_not_found');
  // The request schema has already turned the amount into cents (exact decimal parsing).
  const amountCents = body.amount;

  const account = await findOwnedAccount(ctx.db, { userId: callerId }, body.accountNumber);
  if (!account) throw refuse('account_not_found');

  const caller = `user:${callerId}`;
  // The TPIN is left out of the stored request hash: a hash of 4 digits is easily reversed.
  // So is the step-up code: the same request with the code it was refused for is the same request.
  const fingerprint = requestHash('POST /v1/bank-withdraw/create', { ...body, tpin: undefined, stepUpCode: undefined, amount: amountCents });
  // A replay gets the first answer without a TPIN check, as every idempotent route.
  if (idempotencyKey) {
    const earlier = await storedAnswer<WithdrawalView>(ctx.db, caller, idempotencyKey, fingerprint);
    if (earlier) return { result: earlier.body, replayed: true };
  }
  await checkTpin(ctx.db, ctx.config.secretKey, account.id, body.tpin, callerId, account);
  const shown = formatMoney(amountCents, body.currency);
  // Above the account's threshold the call also needs the second factor (auth/step-up.ts).
  const movement = {
    userId: callerId,
    ip,
    binding: stepUpBinding('withdrawal', account.id, body.currency, amountCents, body.bankAccountNumber, body.routingNumber),
    summary: `a withdrawal of ${shown} to ${body.bankName} (${maskBankAccountNumber(body.bankAccountNumber)})`,
  };
  const stepUp = await prepareStepUp(ctx, movement, body.stepUpCode);

  // Everything else is one call (withdrawal_request): the locks decided again under the
  // account's row lock, the hold, the row, the activity, the audit entry and the key.
  const id = randomUUID();
  const transactionId = newTransactionId();
  const row = {
    id,
    accountId: account.id,
    requestedBy: callerId,
    currency: body.currency,
    amountCents,
    status: 'Pending' as const,
    country: body.country,
    bankName: body.bankName,
    branchName: body.branchName ?? null,
    accountType: body.accountType ?? null,
    bankAccountNumber: body.bankAccountNumber,
    routingNumber: body.routingNumber,
    accountHolderName: body.accountHolderName,
    failureReason: null,
  };
  // The answer is the view of the row about to be written; its two times are the row's, added by the call.
  const { createdAt: _createdAt, updatedAt: _updatedAt, ...answer } = view({ ...row, holdTransactionId: 0, returnTransactionId: null, createdAt: new Date(0), updatedAt: new Date(0) }, account.accountNumber);
  const outcome = await withdrawalRequest(ctx.db, {
    withdrawal: {
      id,
      account_id: row.accountId,
      requested_by: row.requestedBy,
      currency: row.currency,
      amount_cents: row.amountCents,
      country: row.country,
      bank_name: row.bankName,
      branch_name: row.branchName,
      account_type: row.accountType,
      bank_account_number: row.bankAccountNumber,
      routing_number: row.routingNumber,
      account_holder_name: row.accountHolderName,
    },
    transactionId,
    metadata: { from: account.accountNumber, bankName: body.bankName, country: body.country },
    activity: { name: 'Bank withdrawal requested', comment: `${shown} to ${body.bankName} (${maskBankAccountNumber(body.bankAccountNumber)}), ${transactionId}; pending` },
    audit: {
      actor_user_id: callerId,
      action: 'withdrawal.created',
      subject_type: 'bank_withdrawal',
      subject_id: id,
      ip,
      details: { account: account.accountNumber, amountCents, currency: body.currency, transactionId },
    },
    idempotency: { caller, key: idempotencyKey, requestHash: fingerprint },
    answer,
    stepUp: stepUp.args,
  });
  switch (outcome.kind) {
    case 'ok':
    case 'replay':
      // 'ok' wrote the owner's notification event (Pending); its mail leaves after this answer.
      if (outcome.kind === 'ok') {
        ctx.notifications.ring();
        if (stepUp.args.given) await stepUp.accepted();
      }
      return { result: JSON.parse(outcome.bodyText) as WithdrawalView, replayed: outcome.kind === 'replay' };
    case 'idempotency_mismatch':
      throw idempotencyKeyReused();
    case 'account_missing':
      throw refuse('account_not_found');
    case 'money_movement_locked':
      throw new MoneyMovementLockedError();
    case 'tpin_locked':
      throw new TpinLockedError(outcome.lockedUntil);
    case 'insufficient_funds':
      throw new InsufficientFundsError();
    case 'step_up':
      throw await stepUpRefusal(ctx, movement, account.id, outcome.refusal, outcome.remaining);
  }
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
  if (!account) throw refuse('account_not_found');
  const rows = await listAccountWithdrawals(ctx.db, account.id, { limit: page.limit ?? WHOLE_LIST_LIMIT, after: page.cursor });
  return rows.map((row) => view(row, account.accountNumber));
}

/** GET /v1/bank-withdraw/account/{accountNumber}/summary: the list page's counters, over every withdrawal. */
export async function withdrawalCountersOf(ctx: AppContext, callerId: string, accountNumber: string): Promise<WithdrawalCounters> {
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, accountNumber);
  if (!account) throw refuse('account_not_found');
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
 * POST /v1/operator/withdrawals/{id}/processing|complete|fail: one read of the withdrawal and
 * one call of `withdrawal_move`, which locks its row, so two operators acting at once take
 * turns: the second sees the first one's status and gets 409. Failing gives the money back to
 * the wallet in a new ledger transaction in the same call as the status change, so it happens
 * exactly once.
 */
export async function moveWithdrawal(
  ctx: AppContext,
  operatorId: string,
  id: string,
  action: OperatorAction,
  ip: string,
  reason?: string,
): Promise<OperatorWithdrawalView> {
  if (!isUuid(id)) throw refuse('withdrawal_not_found');
  const moved = await moveWithdrawalIn(ctx.db, operatorId, id, action, ip, reason);
  // The call wrote the owner's notification event (the new status); its mail leaves now.
  ctx.notifications.ring();
  return moved;
}

/** Both operators of a four-eyes completion: who asked, who approved. */
export interface CompletionApproval {
  approvalId: string;
  requestedBy: string;
  approvedBy: string;
}

/**
 * moveWithdrawal on its own or inside the caller's transaction (the four-eyes approval flips
 * its request in the same one). Completing FOUR_EYES_WITHDRAWAL_FROM_CENTS or more needs
 * `approval`: one operator alone cannot pay a large withdrawal out, whichever route calls this.
 * The texts are made from the withdrawal read first (its amount, currency and bank never
 * change); every decision is made again under the row lock in the call.
 */
export async function moveWithdrawalIn(
  db: Db | Trx,
  operatorId: string,
  id: string,
  action: OperatorAction,
  ip: string,
  reason?: string,
  approval?: CompletionApproval,
): Promise<OperatorWithdrawalView> {
  const move = MOVES[action];
  const current = await findWithdrawalWithAccount(db, id);
  if (!current) throw refuse('withdrawal_not_found');
  const shown = formatMoney(asCents(current.amountCents), currencyOf(current));
  const to = `${current.bankName} (${maskBankAccountNumber(current.bankAccountNumber)})`;
  const returnedAs = action === 'fail' ? newTransactionId() : '';
  const comment =
    action === 'fail'
      ? `${shown} to ${to} failed: ${reason}. The money is back in your wallet, ${returnedAs}`
      : action === 'complete'
        ? `${shown} to ${to} was paid out`
        : `${shown} to ${to} is being processed`;
  const outcome = await withdrawalMove(db, {
    id: current.id,
    from: move.from,
    to: move.to,
    operatorId,
    ownerAccountId: null,
    fourEyesFromCents: action === 'complete' && !approval ? asCents(FOUR_EYES_WITHDRAWAL_FROM_CENTS) : null,
    // An open payout request would otherwise outlive the withdrawal it asks to pay (its approval
    // could only answer 409): the checker refuses it first, and the record says who decided.
    checkOpenPayout: action === 'fail',
    failureReason: action === 'fail' ? (reason ?? null) : null,
    returned: action === 'fail' ? { transaction_id: returnedAs, transaction_for: 'Bank Withdraw Returned', metadata: { withdrawalId: current.id, reason } } : null,
    activity: { name: move.activity, comment },
    audit: {
      actor_user_id: operatorId,
      action: move.audit,
      subject_type: 'bank_withdrawal',
      subject_id: current.id,
      ip,
      details: {
        from: move.from,
        to: move.to,
        amountCents: current.amountCents,
        currency: current.currency,
        ...(reason ? { reason } : {}),
        ...(returnedAs ? { returnTransactionId: returnedAs } : {}),
        ...(approval ?? {}),
      },
    },
    idempotency: null,
    answer: null,
  });
  switch (outcome.kind) {
    case 'ok': {
      const row: WithdrawalRow = { ...withdrawalColumns(current), status: move.to, updatedAt: outcome.movedAt, ...(action === 'fail' ? { failureReason: reason ?? null } : {}) };
      return { ...view(row, current.accountNumber), bankAccountNumber: row.bankAccountNumber, accountId: row.accountId, accountHolder: current.accountHolder };
    }
    case 'not_found':
      throw refuse('withdrawal_not_found');
    case 'own_record':
      throw refuse('own_record');
    case 'wrong_status':
      throw refuse('withdrawal_status_conflict', { message: withdrawMessages.wrongStatus(outcome.currentStatus as WithdrawalStatus, move.verb) });
    case 'four_eyes_required':
      throw refuse('four_eyes_required');
    case 'completion_awaiting_decision':
      throw refuse('completion_awaiting_decision');
    default:
      throw new Error(`withdrawal_move answered ${outcome.kind} to an operator's move`);
  }
}
