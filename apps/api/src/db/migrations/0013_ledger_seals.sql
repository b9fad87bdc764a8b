-- Ledger seals: a signed Merkle root per period of ledger transactions, each naming the one
-- before, so anyone holding a transaction and the published seals can check it was never
-- rewritten (modules/ledger/seals.ts; the checker is @kestrel/shared's ledger-proof.ts).

-- The database transaction that made each ledger transaction (64-bit, never wraps). The sealer
-- seals only what lies below its snapshot's xmin, so a transaction still in flight can never
-- be skipped, whatever the clocks say. BRIN: the numbers grow with the table, and a block-range
-- summary costs the insert almost nothing (this table is on every payment's path).
ALTER TABLE ledger_transactions ADD COLUMN created_xid bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint);
CREATE INDEX ledger_transactions_created_xid_brin ON ledger_transactions USING brin (created_xid);

CREATE TABLE ledger_seals (
  seal_no bigint PRIMARY KEY CHECK (seal_no > 0),
  from_mark bigint NOT NULL,
  to_mark bigint NOT NULL,
  first_created_at text NOT NULL,
  last_created_at text NOT NULL,
  sealed_at text NOT NULL,
  transaction_count integer NOT NULL CHECK (transaction_count > 0),
  merkle_root text NOT NULL,
  previous_seal_hash text NOT NULL,
  seal_hash text NOT NULL UNIQUE,
  signature text NOT NULL,
  CHECK (to_mark > from_mark)
);

-- Seals are published: like postings, they are never changed or removed.
CREATE FUNCTION ledger_seals_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger seals are append-only';
END;
$$;
CREATE TRIGGER ledger_seals_no_update BEFORE UPDATE OR DELETE ON ledger_seals
  FOR EACH ROW EXECUTE FUNCTION ledger_seals_append_only();

