-- Wallet-to-wallet transfers: one row per transfer, beside its ledger transaction, so that
-- "recent recipients" and transfer history are one index lookup away.
CREATE TABLE transfers (
  id bigserial PRIMARY KEY,
  ledger_transaction_id bigint NOT NULL UNIQUE REFERENCES ledger_transactions (id),
  from_account_id uuid NOT NULL REFERENCES accounts (id),
  to_account_id uuid NOT NULL REFERENCES accounts (id),
  currency text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  created_by uuid NOT NULL REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (from_account_id <> to_account_id)
);
CREATE INDEX transfers_from_account_idx ON transfers (from_account_id, created_at DESC);
