-- Payment-request links: an account holder's shareable link that anyone pays by card or from
-- a Kestrel wallet, the payments made through it and its failed attempts.

-- p_request_url_id is the public id (128 random bits, base64url): whoever holds the link can
-- pay it, so it must not be guessable. A fixed link has amount_cents; a customer-choosen one
-- has its minimum and maximum. use_limit is the number of uses REMAINING when is_use_limit
-- is on: a payment takes one with a conditional UPDATE (use_limit > 0), so it never goes
-- below zero however many pay at once.
CREATE TABLE payment_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  created_by uuid NOT NULL REFERENCES users (id),
  p_request_url_id text NOT NULL UNIQUE,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  payment_purpose text NOT NULL,
  reference text NOT NULL,
  customer_name text,
  customer_email text,
  customer_phone text,
  amount_type text NOT NULL CHECK (amount_type IN ('fixed', 'customer-choosen')),
  currency text NOT NULL,
  amount_cents bigint CHECK (amount_cents > 0),
  minimum_amount_cents bigint CHECK (minimum_amount_cents > 0),
  maximum_amount_cents bigint CHECK (maximum_amount_cents > 0),
  is_use_limit boolean NOT NULL DEFAULT false,
  use_limit integer CHECK (use_limit >= 0),
  accepts_card boolean NOT NULL,
  accepts_kestrel boolean NOT NULL,
  expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (accepts_card OR accepts_kestrel),
  CHECK ((amount_type = 'fixed') = (amount_cents IS NOT NULL)),
  CHECK (
    amount_type = 'fixed'
    OR (minimum_amount_cents IS NOT NULL AND maximum_amount_cents IS NOT NULL AND minimum_amount_cents <= maximum_amount_cents)
  ),
  CHECK (is_use_limit = (use_limit IS NOT NULL))
);
CREATE INDEX payment_requests_account_idx ON payment_requests (account_id, created_at DESC);

-- One successful payment through a link, written in the same database transaction as its
-- ledger transaction (unique: a ledger transaction pays one link once). Card data kept:
-- brand, first 6 and last 4 only; never the full number or the CVC.
CREATE TABLE payment_request_payments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  payment_request_id uuid NOT NULL REFERENCES payment_requests (id),
  account_id uuid NOT NULL REFERENCES accounts (id),
  ledger_transaction_id bigint NOT NULL UNIQUE REFERENCES ledger_transactions (id),
  transaction_id text NOT NULL,
  currency text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  fee_cents bigint NOT NULL CHECK (fee_cents >= 0 AND fee_cents < amount_cents),
  source_type text NOT NULL CHECK (source_type IN ('card', 'wallet')),
  source_brand text,
  source_first6 text CHECK (source_first6 ~ '^[0-9]{6}$'),
  source_last4 text CHECK (source_last4 ~ '^[0-9]{4}$'),
  source_length integer,
  payer_account_id uuid REFERENCES accounts (id),
  payer_user_id uuid REFERENCES users (id),
  payer_email text,
  payer_phone text,
  reference text,
  card_holder_name text,
  country_or_region text,
  billing_info jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((source_type = 'wallet') = (payer_account_id IS NOT NULL))
);
CREATE INDEX payment_request_payments_request_idx ON payment_request_payments (payment_request_id, created_at DESC);
CREATE INDEX payment_request_payments_account_idx ON payment_request_payments (account_id, created_at DESC);

-- A refused attempt (declined card, wrong TPIN, insufficient balance, limit reached, link
-- disabled or expired): the owner's 'Failed' tab. The card number only masked.
CREATE TABLE payment_request_errors (
  id bigserial PRIMARY KEY,
  payment_request_id uuid NOT NULL REFERENCES payment_requests (id),
  error_message text NOT NULL,
  source_brand text,
  source_type text,
  source_number_masked text,
  error_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_request_errors_request_idx ON payment_request_errors (payment_request_id, error_at DESC);
