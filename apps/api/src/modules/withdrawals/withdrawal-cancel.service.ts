import { asCents, formatMoney, maskBankAccountNumber, withdrawMessages, type WithdrawalDetails, type WithdrawalStatus, type WithdrawalView } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { refuse } from '../../http/refusals.ts';
import { idempotencyKeyReused, requestHash, storedAnswer } from '../../http/idempotency.ts';
import { findOwnedAccount, isUuid } from '../../http/ownership.ts';
import { checkTpin, MoneyMovementLockedError, TpinLockedError } from '../accounts/tpin.ts';
import { newTransactionId } from '../ledger/ledger.service.ts';
import { withdrawalMove } from './withdrawal-post.ts';
import { withdrawalAuditSteps } from './withdrawals.repository.ts';
import { currencyOf, view } from './withdrawals.service.ts';

/*
 * The holder's side of one withdrawal: its details with the status history, and cancelling it
 * while it is still Pending (issue 20, item 12).
 */

/** The withdrawal with this id and the caller's account it belongs to; 404 for an unknown id and for anyone else's. */
async function ownedWithdrawal(ctx: AppContext, callerId: string, id: string) {
  const missing = refuse('withdrawal_not_found');
  if (!isUuid(id)) throw missing;
  const row = await ctx.db.selectFrom('bankWithdrawals').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw missing;
  const account = await findOwnedAccount(ctx.db, { userId: callerId }, row.accountId);
  if (!account) throw missing;
  return { row, account };
}

/** Which status each audited step of a withdrawal reached. */
const STEP_STATUS: Record<string, WithdrawalStatus> = {
  'withdrawal.created': 'Pending',
  'withdrawal.processing': 'Processing',
  'withdrawal.completed': 'Completed',
  'withdrawal.failed': 'Failed',
  'withdrawal.cancelled': 'Cancelled',
};

/** GET /v1/bank-withdraw/details/{id}: the holder's view and its status history, oldest first. */
export async function withdrawalDetails(ctx: AppContext, callerId: string, id: string): Promise<WithdrawalDetails> {
  const { row, account } = await ownedWithdrawal(ctx, callerId, id);
  // The audit trail records every move in the move's own transaction, so it is the history;
  // only the status and the time are shown (who acted stays with the operators).
  const steps = await withdrawalAuditSteps(ctx.db, row.id);
  const history = steps.flatMap((step) => {
    const status = STEP_STATUS[step.action];
    return status ? [{ status, at: new Date(step.createdAt).toISOString() }] : [];
  });
  return { ...view(row, account.accountNumber), history };
}

/**
 * POST /v1/bank-withdraw/cancel/{id}: the owner takes back a Pending withdrawal. The TPIN is
 * checked (and a wrong one counted towards the lock) before the move; the move is one call of
 * `withdrawal_move`, which decides the account's locks again, locks the withdrawal's row as an
 * operator's move locks it (a cancel racing an operator's Processing is decided by whichever
 * locks first, and the other is refused with 409), gives the held money back from payouts in
 * flight through the ledger with the status change, so it returns exactly once, and stores
 * the answer under an Idempotency-Key, which replays it.
 */
export async function cancelWithdrawal(
  ctx: AppContext,
  callerId: string,
  id: string,
  body: { tpin: string },
  idempotencyKey: string | undefined,
  ip: string,
): Promise<{ result: WithdrawalView; replayed: boolean }> {
  const { row: found, account } = await ownedWithdrawal(ctx, callerId, id);
  const caller = `user:${callerId}`;
  // The TPIN is left out of the stored request hash, as for every money route.
  const fingerprint = requestHash('POST /v1/bank-withdraw/cancel/:id', { id });
  if (idempotencyKey) {
    const earlier = await storedAnswer<WithdrawalView>(ctx.db, caller, idempotencyKey, fingerprint);
    if (earlier) return { result: earlier.body, replayed: true };
  }
  await checkTpin(ctx.db, ctx.config.secretKey, account.id, body.tpin, callerId, account);

  const returnedAs = newTransactionId();
  const shown = formatMoney(asCents(found.amountCents), currencyOf(found));
  const { updatedAt: _updatedAt, ...answer } = view({ ...found, status: 'Cancelled' }, account.accountNumber);
  const outcome = await withdrawalMove(ctx.db, {
    id: found.id,
    from: 'Pending',
    to: 'Cancelled',
    operatorId: null,
    ownerAccountId: account.id,
    fourEyesFromCents: null,
    checkOpenPayout: false,
    failureReason: null,
    returned: { transaction_id: returnedAs, transaction_for: 'Bank Withdraw Cancelled', metadata: { withdrawalId: found.id, cancelled: true } },
    activity: {
      name: 'Bank withdrawal cancelled',
      comment: `${shown} to ${found.bankName} (${maskBankAccountNumber(found.bankAccountNumber)}) was cancelled. The money is back in your wallet, ${returnedAs}`,
    },
    audit: {
      actor_user_id: callerId,
      action: 'withdrawal.cancelled',
      subject_type: 'bank_withdrawal',
      subject_id: found.id,
      ip,
      details: { from: 'Pending', to: 'Cancelled', amountCents: found.amountCents, returnTransactionId: returnedAs },
    },
    idempotency: idempotencyKey ? { caller, key: idempotencyKey, requestHash: fingerprint } : null,
    answer,
  });
  switch (outcome.kind) {
    case 'ok':
      if (outcome.bodyText === null) throw new Error('withdrawal_move answered a cancel without its answer');
      ctx.notifications.ring();
      return { result: JSON.parse(outcome.bodyText) as WithdrawalView, replayed: false };
    case 'replay':
      return { result: JSON.parse(outcome.bodyText) as WithdrawalView, replayed: true };
    case 'idempotency_mismatch':
      throw idempotencyKeyReused();
    case 'not_found':
      throw refuse('withdrawal_not_found');
    case 'wrong_status':
      throw refuse('withdrawal_status_conflict', { message: withdrawMessages.wrongStatus(outcome.currentStatus as WithdrawalStatus, 'cancelled') });
    case 'money_movement_locked':
      throw new MoneyMovementLockedError();
    case 'tpin_locked':
      throw new TpinLockedError(outcome.lockedUntil);
    default:
      throw new Error(`withdrawal_move answered ${outcome.kind} to a cancel`);
  }
}
