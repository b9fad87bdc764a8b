import { asCents, centsToMajor, formatMoney, messages, transferMessages, type TransferBody, type TransferResult } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import { runIdempotent } from '../../http/idempotency.ts';
import { assertTpinNotLocked, checkTpin } from '../accounts/tpin.ts';
import { auditRow } from '../audit/audit.ts';
import { postTransaction } from '../ledger/ledger.service.ts';
import { findTransferParties } from './transfers.repository.ts';

type Party = { accountHolderName: string; businessName: string | null; accountType: string; userName: string; accountNumber: string };
const displayName = (account: Party) => (account.accountType === 'business' && account.businessName ? account.businessName : account.accountHolderName);

/**
 * Wallet-to-wallet transfer: the sender must be one of the caller's accounts, the TPIN is
 * checked (with lockout) before any money moves, and the movement is one ledger transaction
 * written together with the idempotency record, the transfer row and both sides' activities.
 */
export async function transferBalance(
  ctx: AppContext,
  callerId: string,
  body: TransferBody,
  idempotencyKey: string | undefined,
  ip: string,
): Promise<{ result: TransferResult; replayed: boolean }> {
  if (body.userId !== undefined && body.userId !== callerId) throw forbidden('You can only send money from your own account');
  // The request schema parsed the amount into cents (amountCents); it is not parsed again.
  const amountCents = body.balance;

  const { sender, recipient } = await findTransferParties(ctx.db, callerId, body.debitAccountKey, body.creditAccountKey);
  if (!sender) throw notFound(messages.portal.accountNotAvailable, 'account_not_found');
  if (!recipient) throw notFound(transferMessages.recipientNotFound, 'recipient_not_found');
  if (recipient.id === sender.id) throw badRequest(transferMessages.sameAccount, { creditAccountKey: transferMessages.sameAccount }, 'same_account');

  const outcome = await runIdempotent(
    ctx.db,
    {
      caller: `user:${callerId}`,
      key: idempotencyKey,
      route: 'POST /v1/account/transfer_balance',
      // The TPIN is left out of the stored request hash: a hash of 4 digits is easily reversed.
      body: { ...body, tpin: undefined, balance: amountCents },
      statusCode: 200,
      beforeWork: () => checkTpin(ctx.db, ctx.config.secretKey, sender.id, body.tpin, callerId, sender),
    },
    async (trx): Promise<TransferResult> => {
      // Decided again under the account's row lock, held to commit: a lock written since the check stops this movement.
      await assertTpinNotLocked(trx, sender.id);
      // The transfer's own rows go in before the balances are touched (see postTransaction).
      const posted = await postTransaction(
        trx,
        {
          kind: 'transfer',
          transactionFor: 'Fund Transfer',
          currency: body.currency,
          amountCents,
          createdBy: callerId,
          metadata: { from: sender.accountNumber, to: recipient.accountNumber },
          postings: [
            { party: { walletAccountId: sender.id }, amountCents: -amountCents },
            { party: { walletAccountId: recipient.id }, amountCents },
          ],
        },
        {
          // The transfer row, both activities and the audit entry in one statement (one round trip).
          beforeBalances: async (ledgerTransaction) => {
            const shown = formatMoney(amountCents, body.currency);
            await trx
              .with('transfer', (db) =>
                db.insertInto('transfers').values({
                  ledgerTransactionId: ledgerTransaction.id,
                  fromAccountId: sender.id,
                  toAccountId: recipient.id,
                  currency: body.currency,
                  amountCents,
                  createdBy: callerId,
                }),
              )
              .with('activity', (db) =>
                db.insertInto('activities').values([
                  { accountId: sender.id, name: 'Fund transfer sent', comment: `${shown} to ${displayName(recipient)} (${recipient.accountNumber}), ${ledgerTransaction.transactionId}` },
                  { accountId: recipient.id, name: 'Fund transfer received', comment: `${shown} from ${displayName(sender)} (${sender.accountNumber}), ${ledgerTransaction.transactionId}` },
                ]),
              )
              .insertInto('auditLog')
              .values(
                auditRow({
                  actorUserId: callerId,
                  action: 'transfer.created',
                  subjectType: 'ledger_transaction',
                  subjectId: ledgerTransaction.transactionId,
                  ip,
                  details: { from: sender.accountNumber, to: recipient.accountNumber, amountCents, currency: body.currency },
                }),
              )
              .execute();
          },
        },
      );
      const balance = posted.balancesAfter.get(sender.id);
      // The ledger updates the balance of every wallet it posts to; a missing one is a bug, not a zero.
      if (balance === undefined) throw new Error(`The ledger reported no balance for sender ${sender.id} after ${posted.transactionId}`);
      return {
        transactionId: posted.transactionId,
        amount: centsToMajor(amountCents),
        currency: body.currency,
        debitAccountKey: sender.userName,
        creditAccountKey: recipient.userName,
        balance: centsToMajor(asCents(balance)),
        transactionAt: new Date(posted.createdAt).toISOString(),
      };
    },
  );
  return { result: outcome.body, replayed: outcome.replayed };
}
