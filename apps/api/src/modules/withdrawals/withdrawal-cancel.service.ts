import { asCents, formatMoney, maskBankAccountNumber, withdrawMessages, type WithdrawalDetails, type WithdrawalStatus, type WithdrawalView } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { runIdempotent } from '../../http/idempotency.ts';
import { findOwnedAccount, isUuid } from '../../http/ownership.ts';
import { assertTpinNotLocked, checkTpin } from '../accounts/tpin.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { recordAudit } from '../audit/audit.ts';
import { postTransaction, SYSTEM_ACCOUNTS } from '../ledger/ledger.service.ts';
import { lockWithdrawal, withdrawalAuditSteps } from './withdrawals.repository.ts';
import { currencyOf, view } from './withdrawals.service.ts';

/*
 * The holder's side of one withdrawal: its details with the status history, and cancelling it
 * while it is still Pending (issue 20, item 12).
 */

/** The withdrawal with this id and the caller's account it belongs to; 404 for an unknown id and for anyone else's. */
async function ownedWithdrawal(ctx: AppContext, callerId: string, id: string) {
  const missing = notFound(withdrawMessages.notFound, 'withdrawal_not_found');
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
 * checked (and a wrong one counted towards the lock) before the transaction; inside it the
 * withdrawal's row is locked, as an operator's move locks it, so a cancel racing an operator's
 * Processing is decided by whichever locks first and the other is refused with 409. The held
 * money comes back from payouts in flight through the ledger in the same transaction as the
 * status change, so it returns exactly once; an Idempotency-Key replays the first answer.
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
  const outcome = await runIdempotent(
    ctx.db,
    {
      caller: `user:${callerId}`,
      key: idempotencyKey,
      route: 'POST /v1/bank-withdraw/cancel/:id',
      // The TPIN is left out of the stored request hash, as for every money route.
      body: { id },
      statusCode: 200,
      beforeWork: () => checkTpin(ctx.db, ctx.config.secretKey, account.id, body.tpin, callerId, account),
    },
    async (trx): Promise<WithdrawalView> => {
      await assertTpinNotLocked(trx, account.id);
      const current = await lockWithdrawal(trx, found.id);
      if (!current) throw notFound(withdrawMessages.notFound, 'withdrawal_not_found');
      if (current.status !== 'Pending') throw new AppError(409, 'withdrawal_status_conflict', withdrawMessages.wrongStatus(current.status, 'cancelled'));

      const returned = await postTransaction(trx, {
        kind: 'withdrawal_return',
        transactionFor: 'Bank Withdraw Cancelled',
        currency: currencyOf(current),
        amountCents: current.amountCents,
        createdBy: callerId,
        metadata: { withdrawalId: current.id, cancelled: true },
        postings: [
          { party: { system: SYSTEM_ACCOUNTS.payoutsInFlight }, amountCents: -current.amountCents },
          { party: { walletAccountId: current.accountId }, amountCents: current.amountCents },
        ],
      });
      const row = await trx
        .updateTable('bankWithdrawals')
        .set({ status: 'Cancelled', updatedAt: new Date(), returnTransactionId: returned.id })
        .where('id', '=', current.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const shown = formatMoney(asCents(row.amountCents), currencyOf(row));
      await recordActivity(
        trx,
        row.accountId,
        'Bank withdrawal cancelled',
        `${shown} to ${row.bankName} (${maskBankAccountNumber(row.bankAccountNumber)}) was cancelled. The money is back in your wallet, ${returned.transactionId}`,
      );
      await recordAudit(trx, {
        actorUserId: callerId,
        action: 'withdrawal.cancelled',
        subjectType: 'bank_withdrawal',
        subjectId: row.id,
        ip,
        details: { from: 'Pending', to: 'Cancelled', amountCents: row.amountCents, returnTransactionId: returned.transactionId },
      });
      return view(row, account.accountNumber);
    },
  );
  return { result: outcome.body, replayed: outcome.replayed };
}
