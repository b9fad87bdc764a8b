import { TPIN_LOCK_MINUTES, TPIN_MAX_FAILED_ATTEMPTS, type Cents, type Currency } from '@kestrel/shared';
import { CompiledQuery } from 'kysely';
import { namedStatement, type Db } from '../../db/database.ts';
import { isStepUpKind, type StepUpArgs, type StepUpOutcome } from './step-up-kinds.ts';
import { newTransactionId } from './ledger.service.ts';

/**
 * The ledger's wallet-to-wallet primitive: one call of the `ledger_transfer` function
 * (`db/functions/ledger_transfer.sql`), which checks the session, the sender's ownership, the
 * recipient, the idempotency record and the TPIN (with its lockout), and writes the ledger
 * transaction, its postings, both balances, the transfer row, both activities, the audit
 * entry and the idempotency record, all in one round trip and one database transaction.
 * Above the sender's step-up threshold it also checks and spends the second factor
 * (`step_up_check`), answering a `step_up_*` kind without it.
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
  /** The user name the current keyed TPIN hash (`hmac2$`) was made for, and that hash. */
  macUserName: string;
  nameMac: string;
  /** The account the first version's hash (`hmac1$`) was made for, and that hash (undefined: id not known yet). */
  macAccountId: string | undefined;
  idMac: string | undefined;
  currency: Currency;
  amountCents: Cents;
  /** The amount as shown in the activities, e.g. "USD 10.00". */
  shownAmount: string;
  idempotencyKey: string | undefined;
  requestHash: string;
  ip: string;
  /** The step-up argument (auth/step-up.ts): checked in the call above the sender's threshold. */
  stepUp: StepUpArgs;
}

export type LedgerTransferOutcome =
  | { kind: 'ok' | 'replay'; body: unknown; senderId: string }
  | { kind: 'tpin_wrong'; remaining: number; senderId: string }
  | { kind: 'tpin_locked'; lockedUntil: Date; senderId: string }
  | { kind: 'tpin_legacy' | 'tpin_rekey'; senderId: string; senderUserName: string }
  | { kind: 'insufficient_funds' | 'idempotency_mismatch' | 'operator_locked'; senderId: string }
  | (StepUpOutcome & { senderId: string })
  | { kind: 'session_invalid' | 'sender_not_found' | 'recipient_not_found' | 'same_account' };

interface Row {
  kind: string;
  body: unknown;
  remaining: number | null;
  lockedUntil: Date | null;
  senderId: string | null;
  senderUserName: string | null;
}

// The name changes with the text: a connection that prepared the old text under the old name keeps it.
const LEDGER_TRANSFER = namedStatement(
  'ledger_transfer_v3',
  'SELECT * FROM ledger_transfer($1, $2, $3, $4, $5, $6::uuid, $7, $8, $9::bigint, $10, $11, $12, $13, $14, $15::integer, $16::integer, $17::jsonb)',
);

export async function ledgerTransfer(db: Db, input: LedgerTransferInput): Promise<LedgerTransferOutcome> {
  const { rows } = await db.executeQuery<Row>(
    CompiledQuery.raw(LEDGER_TRANSFER, [
      input.tokenHash,
      input.senderKey,
      input.recipientKey,
      input.macUserName,
      input.nameMac,
      input.macAccountId ?? null,
      input.idMac ?? null,
      input.currency,
      input.amountCents,
      input.shownAmount,
      newTransactionId(),
      input.idempotencyKey ?? null,
      input.requestHash,
      input.ip,
      TPIN_MAX_FAILED_ATTEMPTS,
      TPIN_LOCK_MINUTES,
      JSON.stringify(input.stepUp),
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
      if (row.senderUserName === null) throw new Error(`ledger_transfer answered ${row.kind} without the sender's user name`);
      return { kind: row.kind, senderId, senderUserName: row.senderUserName };
    case 'insufficient_funds':
    case 'idempotency_mismatch':
    case 'operator_locked':
      return { kind: row.kind, senderId };
    default:
      if (isStepUpKind(row.kind)) return { kind: 'step_up', refusal: row.kind, remaining: row.remaining, senderId };
      throw new Error(`ledger_transfer answered an unknown kind ${row.kind}`);
  }
}
