import { hexToBytes, verifyLedgerProof, verifySealChain, type LedgerProof, type PublishedSeals } from './ledger-proof.ts';

/*
 * A monthly statement as anyone outside Kestrel checks it (issue 26). The statement lists one
 * account's ledger movements of one UTC month with their running balance; Kestrel signs its
 * exact text with the ledger's seal key, and each movement carries the inclusion proof of its
 * ledger transaction against the published seals. So a statement whose amount, order or
 * movements were changed, or whose proofs lead to a seal other than the published one, is
 * refused — with no access to Kestrel's database (`npm run ledger:prove -- --statement`).
 *
 * Like ledger-proof.ts, this file needs only the platform's Web Crypto.
 */

export const STATEMENT_FORMAT = 'kestrel-statement:v1' as const;

export interface StatementMovement {
  transactionId: string;
  /** UTC with microseconds, exactly as the sealed record has it. */
  createdAt: string;
  kind: string;
  transactionFor: string;
  /** The transaction's amount and fee, integer cents as decimal text (as sealed). */
  amountCents: string;
  feeCents: string;
  /** What the transaction did to this account: the sum of its postings to it, signed. */
  netCents: string;
  /** The account's balance right after this movement. */
  balanceAfterCents: string;
  /** The transaction's inclusion proof; null while the sealer has not sealed it (about a minute). */
  proof: LedgerProof | null;
}

export interface AccountStatementDocument {
  format: typeof STATEMENT_FORMAT;
  accountNumber: string;
  accountHolderName: string;
  currency: string;
  /** The UTC month, YYYY-MM. */
  month: string;
  /** [periodStart, periodEnd): the month's first instant and the next month's, UTC. */
  periodStart: string;
  periodEnd: string;
  /** False for the current month: the statement so far, up to generatedAt. */
  complete: boolean;
  generatedAt: string;
  openingBalanceCents: string;
  closingBalanceCents: string;
  movements: StatementMovement[];
  /** Kestrel's seal key (raw Ed25519, hex) and its signature over `statementMessage`. */
  publicKey: string;
  signature: string;
}

/** The exact text Kestrel signs: every field a person reads on the statement, in a fixed order (proofs carry their own checks). */
export function statementMessage(statement: Omit<AccountStatementDocument, 'signature'>): string {
  return JSON.stringify([
    STATEMENT_FORMAT,
    statement.accountNumber,
    statement.accountHolderName,
    statement.currency,
    statement.month,
    statement.periodStart,
    statement.periodEnd,
    statement.complete,
    statement.generatedAt,
    statement.openingBalanceCents,
    statement.closingBalanceCents,
    statement.publicKey,
    statement.movements.map((movement) => [
      movement.transactionId,
      movement.createdAt,
      movement.kind,
      movement.transactionFor,
      movement.amountCents,
      movement.feeCents,
      movement.netCents,
      movement.balanceAfterCents,
    ]),
  ]);
}

const encoder = new TextEncoder();

async function statementSignatureValid(statement: AccountStatementDocument, publicKeyHex: string): Promise<boolean> {
  try {
    const key = await globalThis.crypto.subtle.importKey('raw', hexToBytes(publicKeyHex), { name: 'Ed25519' }, false, ['verify']);
    return await globalThis.crypto.subtle.verify({ name: 'Ed25519' }, key, hexToBytes(statement.signature), encoder.encode(statementMessage(statement)));
  } catch {
    return false;
  }
}

function cents(text: string): bigint | null {
  return /^-?\d+$/.test(text) ? BigInt(text) : null;
}

export type StatementVerdict = { ok: true; movements: number } | { ok: false; problems: string[] };

/**
 * Checks a downloaded statement against the published seals: Kestrel's signature over the
 * statement, the running balance (opening + each movement = its balance after, the last one the
 * closing balance), the order and the month of the movements, and for each movement that its
 * proof leads to a published, signed seal and that the sealed record is the movement (the same
 * transaction, time, amount, fee, and postings to this account that sum to its net amount).
 */
export async function verifyStatement(statement: AccountStatementDocument, published: PublishedSeals): Promise<StatementVerdict> {
  const problems: string[] = [];
  if (statement.format !== STATEMENT_FORMAT) problems.push(`not a ${STATEMENT_FORMAT} statement`);
  if (statement.publicKey !== published.publicKey) problems.push('the statement names another key than the published seals');
  if (!(await statementSignatureValid(statement, published.publicKey))) problems.push("the statement's signature is not Kestrel's: it was changed after it was issued");
  problems.push(...(await verifySealChain(published)).map((problem) => `seals: ${problem}`));

  let balance = cents(statement.openingBalanceCents);
  if (balance === null) problems.push('the opening balance is not a whole number of cents');
  let previousAt = '';
  for (const [index, movement] of statement.movements.entries()) {
    const label = `movement ${index + 1} (${movement.transactionId})`;
    const net = cents(movement.netCents);
    if (balance !== null && net !== null) {
      balance += net;
      if (cents(movement.balanceAfterCents) !== balance) problems.push(`${label}: the running balance does not add up`);
    } else problems.push(`${label}: an amount is not a whole number of cents`);
    if (movement.createdAt < previousAt) problems.push(`${label}: out of order`);
    previousAt = movement.createdAt;
    if (movement.createdAt < statement.periodStart || movement.createdAt >= statement.periodEnd) problems.push(`${label}: not in the statement's month`);

    if (!movement.proof) {
      problems.push(`${label}: no proof (not sealed yet); download the statement again in a minute`);
      continue;
    }
    const { record } = movement.proof;
    const toAccount = record.postings.filter(([account]) => account === statement.accountNumber).reduce((sum, [, amount]) => sum + (cents(amount ?? '') ?? 0n), 0n);
    if (
      record.transactionId !== movement.transactionId ||
      record.createdAt !== movement.createdAt ||
      record.kind !== movement.kind ||
      record.transactionFor !== movement.transactionFor ||
      record.currency !== statement.currency ||
      record.amountCents !== movement.amountCents ||
      record.feeCents !== movement.feeCents ||
      toAccount !== net
    ) {
      problems.push(`${label}: differs from the sealed transaction`);
      continue;
    }
    const verdict = await verifyLedgerProof(movement.proof, published);
    if (!verdict.ok) problems.push(`${label}: ${verdict.reason}`);
  }
  if (balance !== null && cents(statement.closingBalanceCents) !== balance) problems.push('the closing balance is not the opening balance plus the movements');
  return problems.length === 0 ? { ok: true, movements: statement.movements.length } : { ok: false, problems };
}
