import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import type { ReconciliationMismatchesTable, ReconciliationTrigger } from '../../db/schema.ts';
import type { FoundMismatch, LedgerCharge, LedgerRefund, RecordState } from './compare.ts';

/*
 * Reconciliation's reads of the books (read-only, across the ledger, payments, links and
 * refunds, like the operator console's reads) and its own tables: runs and mismatches.
 */

const toRange = (range: { start: Date; end: Date }) => [range.start.toISOString(), range.end.toISOString()] as const;

interface ChargeRow {
  id: number;
  transactionId: string;
  currency: string;
  amountCents: number;
  createdAt: Date;
  reference: string;
  paymentId: string | null;
  linkId: string | null;
  accountId: string | null;
}

const chargeOf = (row: ChargeRow): LedgerCharge => ({
  transactionId: row.transactionId,
  reference: row.reference,
  currency: row.currency,
  amountCents: row.amountCents,
  createdAt: row.createdAt,
  target: row.paymentId ? 'payment' : row.linkId ? 'link' : null,
  recordId: row.paymentId ?? row.linkId,
  accountId: row.accountId,
});

// A card payment's ledger transaction, with the payment or link it paid and the account paid.
const chargeColumns = sql`t.id, t.transaction_id, t.currency, t.amount_cents, t.created_at, t.metadata->>'processorReference' AS reference,
  p.id AS payment_id, lp.payment_request_id AS link_id, COALESCE(p.account_id, lp.account_id) AS account_id`;
const chargeJoins = sql`LEFT JOIN payments p ON p.paid_ledger_transaction_id = t.id
  LEFT JOIN payment_request_payments lp ON lp.ledger_transaction_id = t.id`;

/** The ledger's card payments of one day charged through `processor` (its name is on each). */
export async function ledgerChargesOfDay(db: Db, processor: string, range: { start: Date; end: Date }): Promise<LedgerCharge[]> {
  const [start, end] = toRange(range);
  const { rows } = await sql<ChargeRow>`SELECT ${chargeColumns} FROM ledger_transactions t ${chargeJoins}
    WHERE t.metadata ? 'processorReference' AND t.metadata->>'processor' = ${processor}
      AND t.created_at >= ${start}::timestamptz AND t.created_at < ${end}::timestamptz`.execute(db);
  return rows.map(chargeOf);
}

/** The ledger's card payments by processor reference, whatever their day. */
export async function ledgerChargesByReference(db: Db | Trx, references: readonly string[]): Promise<Map<string, LedgerCharge>> {
  if (references.length === 0) return new Map();
  const { rows } = await sql<ChargeRow>`SELECT ${chargeColumns} FROM ledger_transactions t ${chargeJoins}
    WHERE t.metadata ? 'processorReference' AND t.metadata->>'processorReference' IN (${sql.join([...new Set(references)])})`.execute(db);
  return new Map(rows.map((row) => [row.reference, chargeOf(row)]));
}

interface RefundRow {
  id: string;
  status: 'processing' | 'succeeded' | 'failed';
  currency: string;
  amountCents: number;
  processorReference: string | null;
  transactionId: string;
  createdAt: Date;
  accountId: string;
  paymentId: string | null;
  linkId: string | null;
}

const refundOf = (row: RefundRow): LedgerRefund => ({
  id: row.id,
  status: row.status,
  currency: row.currency,
  amountCents: row.amountCents,
  chargeReference: row.processorReference,
  transactionId: row.transactionId,
  createdAt: row.createdAt,
  accountId: row.accountId,
  target: row.paymentId ? 'payment' : 'link',
  recordId: row.paymentId ?? row.linkId,
});

const refundColumns = sql`r.id, r.status, r.currency, r.amount_cents, r.processor_reference, r.transaction_id, r.created_at, r.account_id,
  r.payment_id, lp.payment_request_id AS link_id`;

/** The ledger's card refunds made on one day of charges through `processor`. */
export async function ledgerRefundsOfDay(db: Db, processor: string, range: { start: Date; end: Date }): Promise<LedgerRefund[]> {
  const [start, end] = toRange(range);
  const { rows } = await sql<RefundRow>`SELECT ${refundColumns} FROM refunds r
    JOIN ledger_transactions pt ON pt.metadata ? 'processorReference' AND pt.metadata->>'processorReference' = r.processor_reference
    LEFT JOIN payment_request_payments lp ON lp.id = r.link_payment_id
    WHERE r.destination_type = 'card' AND r.created_at >= ${start}::timestamptz AND r.created_at < ${end}::timestamptz
      AND pt.metadata->>'processor' = ${processor}`.execute(db);
  return rows.map(refundOf);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Refunds by id (the refund id is the processor's idempotency key, so its records name it). */
export async function refundsById(db: Db | Trx, ids: readonly string[]): Promise<Map<string, LedgerRefund>> {
  const wanted = [...new Set(ids.filter((id) => UUID.test(id)))];
  if (wanted.length === 0) return new Map();
  const { rows } = await sql<RefundRow>`SELECT ${refundColumns} FROM refunds r
    LEFT JOIN payment_request_payments lp ON lp.id = r.link_payment_id
    WHERE r.id IN (${sql.join(wanted)})`.execute(db);
  return new Map(rows.map((row) => [row.id, refundOf(row)]));
}

/**
 * The payments and links the processor's charges were for: whose account they pay, and
 * whether a card attempt holds them now (a charge of theirs may be on its way to the books).
 */
export async function recordStates(db: Db, targets: { target: 'payment' | 'link'; id: string }[]): Promise<Map<string, RecordState>> {
  const states = new Map<string, RecordState>();
  const paymentIds = [...new Set(targets.filter((t) => t.target === 'payment' && UUID.test(t.id)).map((t) => t.id))];
  const linkIds = [...new Set(targets.filter((t) => t.target === 'link' && UUID.test(t.id)).map((t) => t.id))];
  if (paymentIds.length) {
    const { rows } = await sql<{ id: string; accountId: string; held: boolean }>`SELECT p.id, p.account_id,
        COALESCE(p.attempt_lease_until > clock_timestamp(), false) AS held
      FROM payments p WHERE p.id IN (${sql.join(paymentIds)})`.execute(db);
    for (const row of rows) states.set(`payment:${row.id}`, { accountId: row.accountId, held: row.held });
  }
  if (linkIds.length) {
    const { rows } = await sql<{ id: string; accountId: string; held: boolean }>`SELECT r.id, r.account_id,
        EXISTS (SELECT 1 FROM payment_request_holds h WHERE h.payment_request_id = r.id AND h.expires_at > clock_timestamp()) AS held
      FROM payment_requests r WHERE r.id IN (${sql.join(linkIds)})`.execute(db);
    for (const row of rows) states.set(`link:${row.id}`, { accountId: row.accountId, held: row.held });
  }
  return states;
}

export interface RunFigures {
  processor: string;
  day: string;
  trigger: ReconciliationTrigger;
  requestedBy: string | null;
  processorRecords: number;
  ledgerRecords: number;
  found: FoundMismatch[];
}

/**
 * Stores a run of a day (replacing an earlier run's figures) and what it found: a difference
 * seen before keeps its row (and its operator's resolution; one a run had cleared opens
 * again); an open difference of the day this run no longer finds is closed as 'cleared'.
 * Answers the run's id and how many of the day's differences are open now.
 */
export async function saveRun(trx: Trx, figures: RunFigures): Promise<{ runId: string; open: number; cleared: number }> {
  const run = await trx
    .insertInto('reconciliationRuns')
    .values({
      processor: figures.processor,
      day: figures.day,
      trigger: figures.trigger,
      requestedBy: figures.requestedBy,
      processorRecords: figures.processorRecords,
      ledgerRecords: figures.ledgerRecords,
      mismatches: figures.found.length,
    })
    .onConflict((conflict) =>
      conflict.columns(['processor', 'day']).doUpdateSet((eb) => ({
        trigger: eb.ref('excluded.trigger'),
        requestedBy: eb.ref('excluded.requestedBy'),
        processorRecords: eb.ref('excluded.processorRecords'),
        ledgerRecords: eb.ref('excluded.ledgerRecords'),
        mismatches: eb.ref('excluded.mismatches'),
        ranAt: sql<Date>`now()`,
      })),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  // A fixed order, so two runs of one day (two API processes) never wait on each other in a circle.
  const found = [...figures.found].sort((a, b) => `${a.kind}\0${a.reference}`.localeCompare(`${b.kind}\0${b.reference}`));
  for (const mismatch of found) {
    await trx
      .insertInto('reconciliationMismatches')
      .values({
        processor: figures.processor,
        day: figures.day,
        kind: mismatch.kind,
        reference: mismatch.reference,
        target: mismatch.target,
        recordId: mismatch.recordId,
        accountId: mismatch.accountId,
        refundId: mismatch.refundId,
        currency: mismatch.currency,
        processorAmountCents: mismatch.processorAmountCents,
        ledgerAmountCents: mismatch.ledgerAmountCents,
        transactionId: mismatch.transactionId,
        details: JSON.stringify(mismatch.details),
      })
      .onConflict((conflict) =>
        conflict.columns(['processor', 'kind', 'reference']).doUpdateSet((eb) => ({
          processorAmountCents: eb.ref('excluded.processorAmountCents'),
          ledgerAmountCents: eb.ref('excluded.ledgerAmountCents'),
          transactionId: eb.ref('excluded.transactionId'),
          details: eb.ref('excluded.details'),
          lastSeenAt: sql<Date>`now()`,
          status: sql<'open' | 'resolved'>`CASE WHEN reconciliation_mismatches.resolution = 'cleared' THEN 'open' ELSE reconciliation_mismatches.status END`,
          resolution: sql<null>`CASE WHEN reconciliation_mismatches.resolution = 'cleared' THEN NULL ELSE reconciliation_mismatches.resolution END`,
          resolvedAt: sql<Date | null>`CASE WHEN reconciliation_mismatches.resolution = 'cleared' THEN NULL ELSE reconciliation_mismatches.resolved_at END`,
        })),
      )
      .execute();
  }
  const seen = new Set(found.map((mismatch) => `${mismatch.kind}\0${mismatch.reference}`));
  const stillOpen = await trx
    .selectFrom('reconciliationMismatches')
    .select(['id', 'kind', 'reference'])
    .where('processor', '=', figures.processor)
    .where('day', '=', figures.day)
    .where('status', '=', 'open')
    .forUpdate()
    .execute();
  const gone = stillOpen.filter((row) => !seen.has(`${row.kind}\0${row.reference}`)).map((row) => row.id);
  if (gone.length) {
    await trx
      .updateTable('reconciliationMismatches')
      .set({ status: 'resolved', resolution: 'cleared', resolvedAt: sql<Date>`now()`, claimedUntil: null })
      .where('id', 'in', gone)
      .execute();
  }
  return { runId: run.id, open: stillOpen.length - gone.length, cleared: gone.length };
}

export type MismatchRow = Omit<Selectable<ReconciliationMismatchesTable>, 'claimedUntil'> & { accountNumber: string | null; resolvedByEmail: string | null };

function mismatchQuery(db: Db | Trx) {
  const m = 'reconciliationMismatches' as const;
  return db
    .selectFrom(m)
    .leftJoin('accounts', 'accounts.id', `${m}.accountId`)
    .leftJoin('users', 'users.id', `${m}.resolvedBy`)
    .select([
      `${m}.id`,
      `${m}.processor`,
      sql<string>`to_char(reconciliation_mismatches.day, 'YYYY-MM-DD')`.as('day'),
      `${m}.kind`,
      `${m}.reference`,
      `${m}.target`,
      `${m}.recordId`,
      `${m}.accountId`,
      `${m}.refundId`,
      `${m}.currency`,
      `${m}.processorAmountCents`,
      `${m}.ledgerAmountCents`,
      `${m}.transactionId`,
      `${m}.details`,
      `${m}.status`,
      `${m}.resolution`,
      `${m}.resolutionReason`,
      `${m}.resolvedBy`,
      `${m}.resolvedAt`,
      `${m}.firstSeenAt`,
      `${m}.lastSeenAt`,
      'accounts.accountNumber',
      'users.email as resolvedByEmail',
    ]);
}

export async function listMismatches(db: Db, processor: string, filter: { status: 'open' | 'resolved' | 'all'; day?: string | undefined }, limit = 200): Promise<MismatchRow[]> {
  let query = mismatchQuery(db).where('reconciliationMismatches.processor', '=', processor);
  if (filter.status !== 'all') query = query.where('reconciliationMismatches.status', '=', filter.status);
  if (filter.day) query = query.where('reconciliationMismatches.day', '=', filter.day);
  return query
    .orderBy('reconciliationMismatches.day', 'desc')
    .orderBy('reconciliationMismatches.firstSeenAt')
    .orderBy('reconciliationMismatches.id')
    .limit(limit)
    .execute();
}

export function findMismatch(db: Db | Trx, id: string): Promise<MismatchRow | undefined> {
  return mismatchQuery(db).where('reconciliationMismatches.id', '=', id).executeTakeFirst();
}

/**
 * Takes an open difference for one operator's void or record (the processor is called outside
 * any transaction): one action at a time; a claim left by a process that died ends by itself.
 * Answers false when it is resolved or another action holds it.
 */
export async function claimMismatch(db: Db, id: string, seconds: number): Promise<boolean> {
  const claimed = await db
    .updateTable('reconciliationMismatches')
    .set({ claimedUntil: sql<Date>`clock_timestamp() + make_interval(secs => ${seconds})` })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .where((eb) => eb.or([eb('claimedUntil', 'is', null), eb('claimedUntil', '<', sql<Date>`clock_timestamp()`)]))
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

export async function releaseMismatch(db: Db, id: string): Promise<void> {
  await db.updateTable('reconciliationMismatches').set({ claimedUntil: null }).where('id', '=', id).where('status', '=', 'open').execute();
}

/** Closes an open difference with the operator's resolution and reason; answers false when it was no longer open. */
export async function resolveMismatch(
  trx: Trx,
  id: string,
  resolution: 'voided' | 'recorded' | 'resolved',
  reason: string,
  operatorId: string,
  options: { claimed: boolean; transactionId?: string | undefined },
): Promise<boolean> {
  let query = trx
    .updateTable('reconciliationMismatches')
    .set({
      status: 'resolved',
      resolution,
      resolutionReason: reason,
      resolvedBy: operatorId,
      resolvedAt: sql<Date>`now()`,
      claimedUntil: null,
      // A charge recorded now: the ledger transaction that records it.
      ...(options.transactionId ? { transactionId: options.transactionId } : {}),
    })
    .where('id', '=', id)
    .where('status', '=', 'open');
  // Marking resolved waits for nobody: it is refused while another operator's action holds the difference.
  if (!options.claimed) query = query.where((eb) => eb.or([eb('claimedUntil', 'is', null), eb('claimedUntil', '<', sql<Date>`clock_timestamp()`)]));
  const done = await query.executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

export interface RunRow {
  id: string;
  processor: string;
  day: string;
  trigger: ReconciliationTrigger;
  processorRecords: number;
  ledgerRecords: number;
  mismatches: number;
  ranAt: Date;
  open: number;
}

function runQuery(db: Db) {
  return db
    .selectFrom('reconciliationRuns')
    .select(['id', 'processor', sql<string>`to_char(reconciliation_runs.day, 'YYYY-MM-DD')`.as('day'), 'trigger', 'processorRecords', 'ledgerRecords', 'mismatches', 'ranAt'])
    .select(
      sql<number>`(SELECT COUNT(*) FROM reconciliation_mismatches m WHERE m.processor = reconciliation_runs.processor AND m.day = reconciliation_runs.day AND m.status = 'open')`.as('open'),
    );
}

export function listRuns(db: Db, processor: string, limit = 60): Promise<RunRow[]> {
  return runQuery(db).where('processor', '=', processor).orderBy('day', 'desc').limit(limit).execute();
}

export function findRun(db: Db, processor: string, day: string): Promise<RunRow | undefined> {
  return runQuery(db).where('processor', '=', processor).where('day', '=', day).executeTakeFirst();
}

/** The days from `since` on that have a run, with when each ran (the daily job skips days already done after they ended). */
export async function runTimes(db: Db, processor: string, since: string): Promise<Map<string, Date>> {
  const rows = await db
    .selectFrom('reconciliationRuns')
    .select([sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), 'ranAt'])
    .where('processor', '=', processor)
    .where('day', '>=', since)
    .execute();
  return new Map(rows.map((row) => [row.day, row.ranAt]));
}
