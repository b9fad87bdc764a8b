import { createHash, createPrivateKey, createPublicKey, hkdfSync, sign, type KeyObject } from 'node:crypto';
import { GENESIS_SEAL_HASH, ledgerLeafText, sealMessage, verifySeal, type LedgerProof, type LedgerSeal, type SealedTransactionRecord } from '@kestrel/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { inTransaction, type Trx } from '../../db/transaction.ts';
import { ownedBy, type Caller } from '../../http/ownership.ts';
import { inclusionPath, leafHash, merkleRoot } from './merkle.ts';

/*
 * Sealing the ledger, after commit and never on the money path: a background step (every
 * SEAL_INTERVAL_MS, in every API process; an advisory lock lets one of them work) takes every
 * ledger transaction not yet sealed whose database transaction has surely ended — its number is
 * below the xmin of the sealer's snapshot — builds a Merkle tree over their canonical records
 * in id order, chains the root to the previous seal and signs it with an Ed25519 key derived
 * from SECRET_KEY. What is sealed is published at GET /v1/ledger/seals; a transaction's
 * inclusion proof is served to the accounts it touches.
 */

export const SEAL_INTERVAL_MS = 60_000;
const SEAL_LOCK = 727_275;

/** The seal key: an Ed25519 key whose 32-byte seed is derived from the server's secret. */
export interface SealKey {
  privateKey: KeyObject;
  /** The raw 32-byte public key, hex: what verifiers are given. */
  publicKeyHex: string;
}

// An Ed25519 private key in PKCS #8 is this fixed header followed by the 32-byte seed (RFC 8410).
const PKCS8_ED25519_HEADER = Buffer.from('302e020100300506032b657004220420', 'hex');

const keys = new Map<string, SealKey>();

export function sealKey(secretKey: string): SealKey {
  let key = keys.get(secretKey);
  if (!key) {
    const seed = Buffer.from(hkdfSync('sha256', secretKey, 'kestrel-ledger-seals', 'ed25519-seal-key-v1', 32));
    const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_HEADER, seed]), format: 'der', type: 'pkcs8' });
    // The SPKI form of an Ed25519 public key ends with the 32 raw bytes.
    const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
    key = { privateKey, publicKeyHex: spki.subarray(spki.length - 32).toString('hex') };
    keys.set(secretKey, key);
  }
  return key;
}

interface SealRow {
  sealNo: string;
  fromMark: string;
  toMark: string;
  firstCreatedAt: string;
  lastCreatedAt: string;
  sealedAt: string;
  transactionCount: number;
  merkleRoot: string;
  previousSealHash: string;
  sealHash: string;
  signature: string;
}

const toSeal = (row: SealRow): LedgerSeal => ({ ...row, sealNo: Number(row.sealNo), transactionCount: Number(row.transactionCount) });

const sealColumns = sql`seal_no::text AS "sealNo", from_mark::text AS "fromMark", to_mark::text AS "toMark",
  first_created_at AS "firstCreatedAt", last_created_at AS "lastCreatedAt", sealed_at AS "sealedAt",
  transaction_count AS "transactionCount", merkle_root AS "merkleRoot", previous_seal_hash AS "previousSealHash",
  seal_hash AS "sealHash", signature`;

/** A timestamp column as UTC text with microseconds, the form sealed records carry. */
export const utcMicros = (column: string) => sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);

interface LedgerRecordRow {
  id: string;
  record: SealedTransactionRecord;
}

/** The canonical records of the ledger transactions made in [fromMark, toMark), in id order. */
async function recordsBetween(db: Db | Trx, fromMark: string, toMark: string | null): Promise<LedgerRecordRow[]> {
  const result = await sql<LedgerRecordRow>`
    SELECT t.id::text AS id,
           json_build_object(
             'transactionId', t.transaction_id, 'kind', t.kind, 'transactionFor', t.transaction_for,
             'currency', t.currency, 'amountCents', t.amount_cents::text, 'feeCents', t.fee_cents::text,
             'createdAt', ${utcMicros('t.created_at')},
             'postings', (SELECT json_agg(json_build_array(COALESCE(a.account_number, 'system:' || la.system_code), p.amount_cents::text) ORDER BY p.id)
                          FROM ledger_postings p
                          JOIN ledger_accounts la ON la.id = p.ledger_account_id
                          LEFT JOIN accounts a ON a.id = la.account_id
                          WHERE p.ledger_transaction_id = t.id)
           ) AS record
    FROM ledger_transactions t
    WHERE t.created_xid >= ${fromMark}::bigint AND (${toMark}::bigint IS NULL OR t.created_xid < ${toMark}::bigint)
    ORDER BY t.id`.execute(db);
  return result.rows.map((row) => ({ id: row.id, record: { ...row.record, postings: row.record.postings ?? [] } }));
}

async function lastSeal(db: Db | Trx): Promise<LedgerSeal | undefined> {
  const result = await sql<SealRow>`SELECT ${sealColumns} FROM ledger_seals ORDER BY seal_no DESC LIMIT 1`.execute(db);
  return result.rows[0] && toSeal(result.rows[0]);
}

/**
 * Seals every ledger transaction that is surely committed and not yet sealed, as one new seal.
 * Answers the seal, or null when there was nothing to seal or another process holds the lock.
 */
export async function sealLedger(db: Db, secretKey: string): Promise<LedgerSeal | null> {
  return inTransaction(db, async (trx) => {
    const locked = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(${SEAL_LOCK}) AS locked`.execute(trx);
    if (!locked.rows[0]?.locked) return null;
    const previous = await lastSeal(trx);
    const fromMark = previous?.toMark ?? '0';
    // Every database transaction numbered below the snapshot's xmin has ended: committed or gone.
    const horizon = await sql<{ toMark: string; sealedAt: string }>`
      SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS "toMark", ${utcMicros('clock_timestamp()')} AS "sealedAt"`.execute(trx);
    const { toMark, sealedAt } = horizon.rows[0]!;
    if (BigInt(toMark) <= BigInt(fromMark)) return null;
    const rows = await recordsBetween(trx, fromMark, toMark);
    if (rows.length === 0) return null;
    const root = merkleRoot(rows.map((row) => leafHash(ledgerLeafText(row.record))));
    const unsigned = {
      sealNo: (previous?.sealNo ?? 0) + 1,
      fromMark,
      toMark,
      firstCreatedAt: rows.reduce((min, row) => (row.record.createdAt < min ? row.record.createdAt : min), rows[0]!.record.createdAt),
      lastCreatedAt: rows.reduce((max, row) => (row.record.createdAt > max ? row.record.createdAt : max), rows[0]!.record.createdAt),
      sealedAt,
      transactionCount: rows.length,
      merkleRoot: root.toString('hex'),
      previousSealHash: previous?.sealHash ?? GENESIS_SEAL_HASH,
    };
    const message = sealMessage(unsigned);
    const seal: LedgerSeal = {
      ...unsigned,
      sealHash: createHash('sha256').update(message).digest('hex'),
      signature: sign(null, Buffer.from(message), sealKey(secretKey).privateKey).toString('hex'),
    };
    await sql`
      INSERT INTO ledger_seals (seal_no, from_mark, to_mark, first_created_at, last_created_at, sealed_at, transaction_count,
                                merkle_root, previous_seal_hash, seal_hash, signature)
      VALUES (${seal.sealNo}, ${seal.fromMark}::bigint, ${seal.toMark}::bigint, ${seal.firstCreatedAt}, ${seal.lastCreatedAt}, ${seal.sealedAt},
              ${seal.transactionCount}, ${seal.merkleRoot}, ${seal.previousSealHash}, ${seal.sealHash}, ${seal.signature})`.execute(trx);
    return seal;
  });
}

/** Published seals, oldest first, after `afterSealNo`. */
export async function listSeals(db: Db | Trx, page: { after?: number | undefined; limit: number }): Promise<LedgerSeal[]> {
  const result = await sql<SealRow>`
    SELECT ${sealColumns} FROM ledger_seals WHERE seal_no > ${page.after ?? 0} ORDER BY seal_no LIMIT ${page.limit}`.execute(db);
  return result.rows.map(toSeal);
}

/**
 * The inclusion proof of one ledger transaction (by its public transaction id), or
 * 'not_sealed' while the sealer has not reached it, or undefined when it does not exist.
 */
export async function proofOf(db: Db, transactionId: string): Promise<LedgerProof | 'not_sealed' | undefined> {
  return (await proofsOf(db, [transactionId])).get(transactionId);
}

/**
 * The inclusion proofs of several ledger transactions at once (a statement's), each seal's tree
 * built once however many of them it holds. A transaction not sealed yet maps to 'not_sealed';
 * an unknown id is absent.
 */
export async function proofsOf(db: Db | Trx, transactionIds: readonly string[]): Promise<Map<string, LedgerProof | 'not_sealed'>> {
  const proofs = new Map<string, LedgerProof | 'not_sealed'>();
  if (transactionIds.length === 0) return proofs;
  const found = await sql<{ id: string; transactionId: string; sealNo: string | null }>`
    SELECT t.id::text AS id, t.transaction_id AS "transactionId", s.seal_no::text AS "sealNo"
    FROM ledger_transactions t
    LEFT JOIN ledger_seals s ON t.created_xid >= s.from_mark AND t.created_xid < s.to_mark
    WHERE t.transaction_id = ANY(${[...transactionIds]}::text[])`.execute(db);
  const bySeal = new Map<string, { id: string; transactionId: string }[]>();
  for (const row of found.rows) {
    if (!row.sealNo) proofs.set(row.transactionId, 'not_sealed');
    else bySeal.set(row.sealNo, [...(bySeal.get(row.sealNo) ?? []), row]);
  }
  for (const [sealNo, wanted] of bySeal) {
    const sealResult = await sql<SealRow>`SELECT ${sealColumns} FROM ledger_seals WHERE seal_no = ${sealNo}::bigint`.execute(db);
    const seal = toSeal(sealResult.rows[0]!);
    const records = await recordsBetween(db, seal.fromMark, seal.toMark);
    const leaves = records.map((record) => leafHash(ledgerLeafText(record.record)));
    for (const transaction of wanted) {
      const leafIndex = records.findIndex((record) => record.id === transaction.id);
      proofs.set(transaction.transactionId, {
        record: records[leafIndex]!.record,
        leafIndex,
        treeSize: leaves.length,
        path: inclusionPath(leafIndex, leaves).map((hash) => hash.toString('hex')),
        seal,
      });
    }
  }
  return proofs;
}

/**
 * The proof of a transaction that moved money of one of the caller's accounts; undefined for
 * anyone else's (the caller cannot tell it from an unknown id).
 */
export async function proofForCaller(db: Db, caller: Caller, transactionId: string): Promise<LedgerProof | 'not_sealed' | undefined> {
  const touches = await db
    .selectFrom('ledgerTransactions')
    .innerJoin('ledgerPostings', 'ledgerPostings.ledgerTransactionId', 'ledgerTransactions.id')
    .innerJoin('ledgerAccounts', 'ledgerAccounts.id', 'ledgerPostings.ledgerAccountId')
    .innerJoin('accounts', 'accounts.id', 'ledgerAccounts.accountId')
    .select('ledgerTransactions.id')
    .where('ledgerTransactions.transactionId', '=', transactionId)
    .where(ownedBy(caller))
    .limit(1)
    .executeTakeFirst();
  return touches ? proofOf(db, transactionId) : undefined;
}

/**
 * Rechecks every seal against the ledger as it is now: each seal's root recomputed from the
 * transactions and postings in its range, its hash, its signature, and the chain. Any posting,
 * amount or order changed after sealing shows here.
 */
export async function verifySeals(db: Db | Trx, secretKey: string): Promise<{ seals: number; problems: string[] }> {
  const problems: string[] = [];
  const publicKeyHex = sealKey(secretKey).publicKeyHex;
  let previous: LedgerSeal | undefined;
  let seals = 0;
  for (;;) {
    const page = await listSeals(db, { after: previous?.sealNo ?? 0, limit: 100 });
    for (const seal of page) {
      seals += 1;
      const sealProblem = await verifySeal(seal, publicKeyHex);
      if (sealProblem) problems.push(sealProblem);
      const expectedPrevious = previous?.sealHash ?? GENESIS_SEAL_HASH;
      if (seal.previousSealHash !== expectedPrevious || seal.fromMark !== (previous?.toMark ?? '0') || seal.sealNo !== (previous?.sealNo ?? 0) + 1) {
        problems.push(`seal ${seal.sealNo}: does not follow the seal before it`);
      }
      const records = await recordsBetween(db, seal.fromMark, seal.toMark);
      const root = merkleRoot(records.map((record) => leafHash(ledgerLeafText(record.record)))).toString('hex');
      if (records.length !== seal.transactionCount || root !== seal.merkleRoot) {
        problems.push(`seal ${seal.sealNo}: the ledger no longer matches it (${records.length} transactions, sealed ${seal.transactionCount}); a transaction, posting or amount was changed, added or removed`);
      }
      previous = seal;
    }
    if (page.length < 100) break;
  }
  return { seals, problems };
}

/** Seals on a timer in the background; `stop()` ends it. A failed run is logged and retried next time. */
export function startLedgerSealer(db: Db, secretKey: string, log: { warn(object: object, message: string): void }, intervalMs = SEAL_INTERVAL_MS) {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sealLedger(db, secretKey)
      .catch((error: unknown) => log.warn({ err: error }, 'ledger sealer: run failed; retrying at the next interval'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
