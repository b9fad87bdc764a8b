-- Step-up for large movements (issue 25; README, Security; db/functions/step_up_check.sql).
--
-- An account's threshold: its outgoing wallet movements (transfers, withdrawals, wallet pays)
-- made without a second factor may add up to this many cents over a rolling 24 hours, the
-- new one included; past it the movement needs a second factor as well as the TPIN. The
-- default is STEP_UP_THRESHOLD_CENTS in packages/shared (a test holds them equal).
ALTER TABLE accounts ADD COLUMN step_up_threshold_cents bigint NOT NULL DEFAULT 100000
  CHECK (step_up_threshold_cents >= 0);

-- The movements that went through on the TPIN alone (no second factor), with their amount:
-- the rolling sum that decides the next one. Written by the money functions in the same
-- transaction as the ledger transaction (a movement that rolls back leaves none).
CREATE TABLE step_up_unverified_movements (
  ledger_transaction_id bigint PRIMARY KEY REFERENCES ledger_transactions (id),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX step_up_unverified_movements_account_idx ON step_up_unverified_movements (account_id, created_at);

-- The one-time codes mailed for a movement when 2FA is off: only an HMAC-SHA256 of the code
-- (under a key derived from SECRET_KEY) is stored, with the movement it was sent for
-- (binding: a digest of its kind, accounts and amount), its expiry, its wrong tries and its
-- use. Only an account's newest code counts.
CREATE TABLE step_up_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  binding text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  expires_at timestamptz NOT NULL,
  failed_attempts integer NOT NULL DEFAULT 0,
  used_at timestamptz
);
CREATE INDEX step_up_codes_user_account_idx ON step_up_codes (user_id, account_id, created_at DESC);
