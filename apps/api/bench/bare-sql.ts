import type pg from 'pg';
import { newTransactionId } from '../src/modules/ledger/ledger.service.ts';
import type { BenchAccount } from './fixture.ts';

/**
 * The ceiling: the statements the ledger (postTransaction) and the transfer row need for one
 * transfer, sent straight through `pg` — no HTTP, no session or ownership lookups, no TPIN,
 * no activities or audit rows, no query builder. In one database transaction, in the
 * ledger's order: the ledger transaction with its two postings (one statement, as the
 * ledger writes them), the transfers row, then the conditional balance updates in ascending
 * ledger-account order (the ledger's lock order).
 */
export async function bareTransfer(pool: pg.Pool, from: BenchAccount, to: BenchAccount, amountCents: number, createdBy: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    try {
      const written = await client.query<{ id: number }>(
        `WITH t AS (
           INSERT INTO ledger_transactions (transaction_id, kind, transaction_for, currency, amount_cents, fee_cents, created_by, metadata)
           VALUES ($1, 'transfer', 'Fund Transfer', $2, $3, 0, $4, $5::jsonb)
           RETURNING id, transaction_id, created_at
         ), p AS (
           INSERT INTO ledger_postings (ledger_transaction_id, ledger_account_id, amount_cents)
           SELECT t.id, la.id, v.amount_cents
           FROM t
           CROSS JOIN unnest($6::uuid[], $7::text[], $8::bigint[]) AS v(account_id, system_code, amount_cents)
           JOIN ledger_accounts la ON la.currency = $2 AND (la.account_id = v.account_id OR la.system_code = v.system_code)
           RETURNING ledger_account_id
         )
         SELECT t.id, t.transaction_id, t.created_at, p.ledger_account_id, la.account_id, la.system_code
         FROM t
         LEFT JOIN p ON true
         LEFT JOIN ledger_accounts la ON la.id = p.ledger_account_id`,
        [
          newTransactionId(),
          'USD',
          amountCents,
          createdBy,
          JSON.stringify({ from: from.accountNumber, to: to.accountNumber }),
          [from.id, to.id],
          [null, null],
          [-amountCents, amountCents],
        ],
      );
      if (written.rows.length !== 2) throw new Error('postings not written');
      await client.query('INSERT INTO transfers (ledger_transaction_id, from_account_id, to_account_id, currency, amount_cents, created_by) VALUES ($1, $2, $3, $4, $5, $6)', [
        written.rows[0]?.id,
        from.id,
        to.id,
        'USD',
        amountCents,
        createdBy,
      ]);
      const moves = [
        { id: from.ledgerAccountId, delta: -amountCents },
        { id: to.ledgerAccountId, delta: amountCents },
      ].sort((a, b) => a.id - b.id);
      for (const move of moves) {
        const updated = await client.query('UPDATE ledger_accounts SET balance_cents = balance_cents + $1 WHERE id = $2 AND balance_cents + $1 >= 0 RETURNING balance_cents', [
          move.delta,
          move.id,
        ]);
        if (updated.rowCount !== 1) throw new Error('insufficient balance');
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  } finally {
    client.release();
  }
}

export interface BareLoad {
  concurrency: number;
  /** Per slot: the sending accounts and the user id recorded as their creator. */
  slots: { senders: BenchAccount[]; createdBy: string }[];
  recipients: BenchAccount[];
  hotRecipient?: BenchAccount;
  durationMs: number;
  maxTransfers: number;
}

/** Runs bare transfers from `concurrency` slots for the given time; answers latencies and failures. */
export async function runBare(pool: pg.Pool, load: BareLoad): Promise<{ latenciesMs: number[]; elapsedMs: number; failures: Record<string, number> }> {
  const latenciesMs: number[] = [];
  const failures: Record<string, number> = {};
  const started = performance.now();
  const deadline = started + load.durationMs;
  let issued = 0;
  const slot = async (index: number) => {
    const { senders, createdBy } = load.slots[index] ?? { senders: [], createdBy: '' };
    for (let i = 0; performance.now() < deadline && issued < load.maxTransfers; i++) {
      issued++;
      const from = senders[i % senders.length];
      if (!from) throw new Error('a slot without senders');
      let to = load.hotRecipient;
      if (!to) {
        const pick = Math.floor(Math.random() * load.recipients.length);
        to = load.recipients[pick];
        if (to?.id === from.id) to = load.recipients[(pick + 1) % load.recipients.length];
      }
      if (!to) throw new Error('no recipient');
      const t0 = performance.now();
      try {
        await bareTransfer(pool, from, to, 1 + Math.floor(Math.random() * 100), createdBy);
        latenciesMs.push(performance.now() - t0);
      } catch (error) {
        const key = (error as { code?: string }).code ?? (error as Error).message;
        failures[key] = (failures[key] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: load.concurrency }, (_, i) => slot(i)));
  return { latenciesMs, elapsedMs: performance.now() - started, failures };
}
