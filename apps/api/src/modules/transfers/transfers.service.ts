import { formatMoney, messages, transferMessages, type TransferBody, type TransferResult } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { refuse } from '../../http/refusals.ts';
import { requestHash } from '../../http/idempotency.ts';
import { checkTpin, MoneyMovementLockedError, TpinLockedError, tpinMac, tpinMacV1 } from '../accounts/tpin.ts';
import { InsufficientFundsError } from '../ledger/ledger.service.ts';
import { ledgerTransfer } from '../ledger/transfer.ts';
import { prepareStepUp, stepUpBinding, stepUpRefusal } from '../auth/step-up.ts';

// Other modules read this module's tables through these (lint keeps them out of its repository).
export { transfersForNotice } from './transfers.repository.ts';

export const TRANSFER_ROUTE = 'POST /v1/account/transfer_balance';

/**
 * Which account (its id, and its user name as stored) a sender key names, as last answered by
 * the database, keyed by the lower-cased key. Only a hint for making the keyed TPIN hashes
 * before the call: the ledger function compares what a hash was made for with the account it
 * finds and answers `tpin_rekey` (counting nothing) when it differs. A sender never seen is
 * still one call when its TPIN has the current hash and the key is spelled as stored (what
 * the web sends); the hint saves the second call for a key in another case and for a TPIN
 * still on the first version (`hmac1$`, over the id), until it is upgraded.
 */
interface KnownSender {
  id: string;
  userName: string;
}
const senderIds = new Map<string, KnownSender>();
const SENDER_IDS_MAX = 10_000;

function rememberSender(key: string, sender: KnownSender): void {
  senderIds.delete(key);
  senderIds.set(key, sender);
  if (senderIds.size > SENDER_IDS_MAX) {
    const oldest = senderIds.keys().next().value;
    if (oldest !== undefined) senderIds.delete(oldest);
  }
}

/** Forgets every remembered sender: a test's stand-in for a process that has just started. */
export function forgetSenders(): void {
  senderIds.clear();
}

/**
 * Wallet-to-wallet transfer, one call of the ledger's transfer primitive (one round trip):
 * it checks the session again, the sender's ownership, the TPIN with its lockout and the
 * idempotency key, and moves the money with the transfer row, both activities and the audit
 * entry. Its result kinds map to the API's errors here.
 */
export async function transferBalance(
  ctx: AppContext,
  caller: { userId: string; tokenHash: string },
  body: TransferBody,
  idempotencyKey: string | undefined,
  ip: string,
): Promise<{ result: TransferResult; replayed: boolean }> {
  if (body.userId !== undefined && body.userId !== caller.userId) throw refuse('forbidden', { message: 'You can only send money from your own account' });
  // The request schema parsed the amount into cents (amountCents); it is not parsed again.
  const amountCents = body.balance;
  const senderName = body.debitAccountKey.toLowerCase();
  const secret = ctx.config.secretKey;
  const shownAmount = formatMoney(amountCents, body.currency);
  // Above the sender's threshold the call also needs the second factor (auth/step-up.ts).
  const movement = {
    userId: caller.userId,
    ip,
    binding: stepUpBinding('transfer', senderName, body.creditAccountKey.toLowerCase(), body.currency, amountCents),
    summary: `a transfer of ${shownAmount} to ${body.creditAccountKey}`,
  };
  const stepUp = await prepareStepUp(ctx, movement, body.stepUpCode);
  const base = {
    tokenHash: caller.tokenHash,
    senderKey: body.debitAccountKey,
    recipientKey: body.creditAccountKey,
    currency: body.currency,
    amountCents,
    shownAmount,
    idempotencyKey,
    // The TPIN is left out of the stored request hash: a hash of 4 digits is easily reversed.
    // So is the step-up code: the same request with the code it was refused for is the same request.
    requestHash: requestHash(TRANSFER_ROUTE, { ...body, tpin: undefined, stepUpCode: undefined, balance: amountCents }),
    ip,
    stepUp: stepUp.args,
  };

  const known = senderIds.get(senderName);
  let macAccountId = known?.id;
  // Until the database says otherwise, the key as sent is the user name as stored.
  let macUserName = known?.userName ?? body.debitAccountKey;
  // At most: a re-key (an `hmac1$` TPIN or a key in another case, first seen in this process) and an argon2 upgrade.
  for (let attempt = 0; attempt < 3; attempt++) {
    const outcome = await ledgerTransfer(ctx.db, {
      ...base,
      macUserName,
      nameMac: tpinMac(secret, macUserName, body.tpin),
      macAccountId,
      idMac: macAccountId === undefined ? undefined : tpinMacV1(secret, macAccountId, body.tpin),
    });
    switch (outcome.kind) {
      case 'ok':
      case 'replay':
        // A replay is answered before the TPIN check, so only 'ok' shows the name was right.
        if (outcome.kind === 'ok') {
          rememberSender(senderName, { id: outcome.senderId, userName: macUserName });
          // The call wrote the transfer's notification event; its mails leave after this answer.
          ctx.notifications.ring();
          if (stepUp.args.given) await stepUp.accepted();
        }
        return { result: outcome.body as TransferResult, replayed: outcome.kind === 'replay' };
      case 'session_invalid':
        throw refuse('session_expired');
      case 'sender_not_found':
        throw refuse('account_not_found');
      case 'recipient_not_found':
        throw refuse('recipient_not_found');
      case 'same_account':
        throw refuse('same_account', { fields: { creditAccountKey: transferMessages.sameAccount } });
      case 'idempotency_mismatch':
        throw refuse('idempotency_key_reused');
      case 'insufficient_funds':
        throw new InsufficientFundsError();
      case 'tpin_locked':
        throw new TpinLockedError(outcome.lockedUntil);
      case 'operator_locked':
        throw new MoneyMovementLockedError();
      case 'tpin_wrong': {
        const left = `${outcome.remaining} attempt${outcome.remaining === 1 ? '' : 's'} left`;
        throw refuse('tpin_incorrect', { message: `${messages.tpin.wrong}. ${left} before money movement is locked.`, fields: { tpin: messages.tpin.wrong } });
      }
      case 'step_up':
        throw await stepUpRefusal(ctx, movement, outcome.senderId, outcome.refusal, outcome.remaining);
      case 'tpin_rekey':
      case 'tpin_legacy':
        if (outcome.kind === 'tpin_legacy') {
          // The argon2 check, counted under the account's row lock; on success it stores the keyed hash.
          await checkTpin(ctx.db, secret, outcome.senderId, body.tpin, caller.userId);
        }
        macAccountId = outcome.senderId;
        macUserName = outcome.senderUserName;
        rememberSender(senderName, { id: macAccountId, userName: macUserName });
        continue;
    }
  }
  throw refuse('transfer_retry');
}
