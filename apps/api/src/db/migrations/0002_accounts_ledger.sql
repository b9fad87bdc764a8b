-- Wallet accounts, the double-entry ledger, idempotency records and account activities.

-- Account numbers come from a sequence (never reused) and carry a check digit.
CREATE SEQUENCE account_number_seq START 10000001;

CREATE TABLE accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_number text NOT NULL UNIQUE,
  account_type text NOT NULL CHECK (account_type IN ('personal', 'business')),
  account_holder_name text NOT NULL,
  business_name text,
  company_name text,
  user_name text NOT NULL,
  account_email text NOT NULL,
  account_phone text NOT NULL,
  identity_type text NOT NULL CHECK (identity_type IN ('nid', 'passport', 'drivingLicense', 'tradeLicense')),
  identity_number text NOT NULL,
  identity_verified boolean NOT NULL DEFAULT false,
  date_of_birth date NOT NULL,
  street text NOT NULL,
  city text NOT NULL,
  state text NOT NULL,
  zip_code text NOT NULL,
  country text NOT NULL,
  notification_preference text NOT NULL CHECK (notification_preference IN ('email', 'sms')),
  occupation text NOT NULL,
  annual_income text NOT NULL,
  gateway_fee_fixed_cents bigint NOT NULL DEFAULT 0,
  gateway_fee_percent numeric(5, 2) NOT NULL DEFAULT 2,
  payment_request_fee_fixed_cents bigint NOT NULL DEFAULT 0,
  payment_request_fee_percent numeric(5, 2) NOT NULL DEFAULT 2,
  tpin_hash text NOT NULL,
  tpin_failed_attempts integer NOT NULL DEFAULT 0,
  tpin_locked_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (account_type = 'personal' OR business_name IS NOT NULL)
);
-- Case-insensitive uniqueness: "Alice" and "alice" are one user name.
CREATE UNIQUE INDEX accounts_user_name_key ON accounts (lower(user_name));
CREATE UNIQUE INDEX accounts_account_email_key ON accounts (lower(account_email));
CREATE UNIQUE INDEX accounts_account_phone_key ON accounts (account_phone);
CREATE UNIQUE INDEX accounts_identity_number_key ON accounts (identity_number);

CREATE TABLE account_users (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL DEFAULT 'owner',
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, user_id)
);
CREATE INDEX account_users_user_id_idx ON account_users (user_id, created_at);

CREATE TABLE identity_documents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  stored_name text NOT NULL UNIQUE,
  mime_type text NOT NULL,
  size_bytes integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX identity_documents_account_id_idx ON identity_documents (account_id);

-- Ledger accounts: one per (wallet account, currency), plus system accounts that hold the
-- other side of money entering or leaving (funding, card clearing, fee revenue, payouts).
-- Only system accounts may go negative; a wallet balance can never be below zero.
CREATE TABLE ledger_accounts (
  id bigserial PRIMARY KEY,
  account_id uuid REFERENCES accounts (id),
  system_code text,
  currency text NOT NULL,
  balance_cents bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((account_id IS NULL) <> (system_code IS NULL)),
  CHECK (system_code IS NOT NULL OR balance_cents >= 0)
);
CREATE UNIQUE INDEX ledger_accounts_account_currency_key ON ledger_accounts (account_id, currency) WHERE account_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_accounts_system_currency_key ON ledger_accounts (system_code, currency) WHERE system_code IS NOT NULL;

CREATE TABLE ledger_transactions (
  id bigserial PRIMARY KEY,
  transaction_id text NOT NULL UNIQUE,
  kind text NOT NULL,
  transaction_for text NOT NULL,
  currency text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  fee_cents bigint NOT NULL DEFAULT 0 CHECK (fee_cents >= 0),
  created_by uuid REFERENCES users (id),
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A posting moves amount_cents into (positive) or out of (negative) one ledger account.
CREATE TABLE ledger_postings (
  id bigserial PRIMARY KEY,
  ledger_transaction_id bigint NOT NULL REFERENCES ledger_transactions (id),
  ledger_account_id bigint NOT NULL REFERENCES ledger_accounts (id),
  amount_cents bigint NOT NULL CHECK (amount_cents <> 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_postings_transaction_idx ON ledger_postings (ledger_transaction_id);
CREATE INDEX ledger_postings_account_idx ON ledger_postings (ledger_account_id, ledger_transaction_id DESC);

-- Postings are append-only: the history is never rewritten.
CREATE FUNCTION ledger_postings_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger postings are append-only';
END;
$$;
CREATE TRIGGER ledger_postings_no_update BEFORE UPDATE OR DELETE ON ledger_postings
  FOR EACH ROW EXECUTE FUNCTION ledger_postings_append_only();

-- At commit, every ledger transaction's postings must sum to zero (the double-entry rule),
-- whatever code wrote them.
CREATE FUNCTION ledger_transaction_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total bigint;
BEGIN
  SELECT COALESCE(SUM(amount_cents), 0) INTO total FROM ledger_postings WHERE ledger_transaction_id = NEW.ledger_transaction_id;
  IF total <> 0 THEN
    RAISE EXCEPTION 'ledger transaction % does not balance (sum %)', NEW.ledger_transaction_id, total;
  END IF;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER ledger_postings_balanced AFTER INSERT ON ledger_postings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_transaction_balanced();

-- Idempotency: one row per (caller, key), written in the same transaction as the change.
CREATE TABLE idempotency_keys (
  caller text NOT NULL,
  idempotency_key text NOT NULL,
  request_hash text NOT NULL,
  response_status integer NOT NULL,
  response_body jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (caller, idempotency_key)
);

CREATE TABLE activities (
  id bigserial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name text NOT NULL,
  comment text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX activities_account_idx ON activities (account_id, created_at DESC);
