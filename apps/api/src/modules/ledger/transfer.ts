import { TPIN_LOCK_MINUTES, TPIN_MAX_FAILED_ATTEMPTS, type AmountCents, type Currency } from '@kestrel/shared';
import { CompiledQuery } from 'kysely';
import { namedStatement, type Db } from '../../db/database.ts';
import { newTransactionId } from './ledger.service.ts';

/**
 * The ledger's wallet-to-wallet primitive: one call of the `ledger_transfer` function
 * (migration 0009), which checks the session, the sender's ownership, the recipient, the
 * idempotency record and the TPIN (with its lockout), and writes the ledger transaction, its
 * postings, both balances, the transfer row, both activities, the audit entry and the
 * idempotency record, all in one round trip and one database transaction.
 *
 * It goes out as a named prepared statement (`namedStatement`): parsed once per connection,
 * then only bound and executed; the PL/pgSQL body's own statements are planned once per
 * connection and cached by PostgreSQL.
 */
export interface LedgerTransferInput {
  /** SHA-256 of the caller's bearer token, as sessions are stored. */
  tokenHash: string;
  senderKey: string;
  recipientKey: string;
  /** The account the keyed TPIN hash was made for (undefined: not known yet). */
  macAccountId: string | undefined;
  tpinMac: string | undefined;
  currency: Currency;
  amountCents: AmountCents;
  /** The amount as shown in the activities, e.g. "USD 10.00". */
  shownAmount: string;
  idempotencyKey: string | undefined;
  requestHash: string;
  ip: string;
}

export type LedgerTransferOutcome =
  | { kind: 'ok' | 'replay'; body: unknown; senderId: string }
  | { kind: 'tpin_wrong'; remaining: number; senderId: string }
  | { kind: 'tpin_locked'; lockedUntil: Date; senderId: string }
  | { kind: 'tpin_legacy' | 'tpin_rekey'; senderId: string }
  | { kind: 'insufficient_funds' | 'idempotency_mismatch' | 'operator_locked'; senderId: string }
  | { kind: 'session_invalid' | 'sender_not_found' | 'recipient_not_found' | 'same_account' };

interface Row {
  kind: string;
  body: unknown;
  remaining: number | null;
  lockedUntil: Date | null;
  senderId: string | null;
}

const LEDGER_TRANSFER = namedStatement(
  'ledger_transfer',
  'SELECT * FROM ledger_transfer($1, $2, $3, $4::uuid, $5, $6, $7::bigint, $8, $9, $10, $11, $12, $13::integer, $14::integer)',
);

export async function ledgerTransfer(db: Db, input: LedgerTransferInput): Promise<LedgerTransferOutcome> {
  const { rows } = await db.executeQuery<Row>(
    CompiledQuery.raw(LEDGER_TRANSFER, [
      input.tokenHash,
      input.senderKey,
      input.recipientKey,
      input.macAccountId ?? null,
      input.tpinMac ?? null,
      input.currency,
      input.amountCents,
      input.shownAmount,
      newTransactionId(),
      input.idempotencyKey ?? null,
      input.requestHash,
      input.ip,
      TPIN_MAX_FAILED_ATTEMPTS,
      TPIN_LOCK_MINUTES,
    ]),
  );
  const row = rows[0];
  if (!row) throw new Error('ledger_transfer answered no row');
  const senderId = row.senderId;
  switch (row.kind) {
    case 'session_invalid':
    case 'sender_not_found':
    case 'recipient_not_found':
    case 'same_account':
      return { kind: row.kind };
  }
  if (senderId === null) throw new Error(`ledger_transfer answered ${row.kind} without the sender`);
  switch (row.kind) {
    case 'ok':
    case 'replay':
      return { kind: row.kind, body: row.body, senderId };
    case 'tpin_wrong':
      return { kind: row.kind, remaining: row.remaining ?? 0, senderId };
    case 'tpin_locked':
      if (!row.lockedUntil) throw new Error('ledger_transfer answered tpin_locked without a time');
      return { kind: row.kind, lockedUntil: row.lockedUntil, senderId };
    case 'tpin_legacy':
    case 'tpin_rekey':
    case 'insufficient_funds':
    case 'idempotency_mismatch':
    case 'operator_locked':
      return { kind: row.kind, senderId };
    default:
      throw new Error(`ledger_transfer answered an unknown kind ${row.kind}`);
  }
}
