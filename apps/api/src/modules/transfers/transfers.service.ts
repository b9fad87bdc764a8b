import { centsToMajor, formatMoney, messages, parseAmount, transferMessages, type TransferBody } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import { runIdempotent } from '../../http/idempotency.ts';
import { assertTpinNotLocked, checkTpin } from '../accounts/tpin.ts';
import { auditRow } from '../audit/audit.ts';
import { postTransaction } from '../ledger/ledger.service.ts';
import { findTransferParties } from './transfers.repository.ts';

export interface TransferResult {
  transactionId: string;
  amount: number;
  currency: string;
  debitAccountKey: string;
  creditAccountKey: string;
  /** The sender's balance in this currency after the transfer, in major units. */
  balance: number;
  transactionAt: string;
}

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
  const parsed = parseAmount(body.balance);
  if (!parsed.ok) throw badRequest(transferMessages.amountInvalid, { balance: transferMessages.amountInvalid });
  const amountCents = parsed.cents;

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
      const balance = posted.balancesAfter.get(sender.id) ?? 0;
      return {
        transactionId: posted.transactionId,
        amount: centsToMajor(amountCents),
        currency: body.currency,
        debitAccountKey: sender.userName,
        creditAccountKey: recipient.userName,
        balance: centsToMajor(balance),
        transactionAt: new Date(posted.createdAt).toISOString(),
      };
    },
  );
  return { result: outcome.body, replayed: outcome.replayed };
}
