-- The payment gateway: stores, their payments, failed card attempts and the callback outbox.

-- A store belongs to one wallet account. store_id is the public id (128 random bits, hex);
-- the store key is kept encrypted (AES-256-GCM, key derived from SECRET_KEY) because its
-- owner must be able to read it again.
CREATE TABLE stores (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id text NOT NULL UNIQUE,
  account_id uuid NOT NULL REFERENCES accounts (id),
  created_by uuid NOT NULL REFERENCES users (id),
  store_name text NOT NULL,
  store_url text NOT NULL,
  callback_url text NOT NULL,
  logo_stored_name text NOT NULL,
  logo_mime_type text NOT NULL,
  store_key_encrypted text NOT NULL,
  status text NOT NULL DEFAULT 'Pending' CHECK (status IN ('Pending', 'Approved', 'Rejected')),
  status_reason text,
  reviewed_by uuid REFERENCES users (id),
  reviewed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (status <> 'Rejected' OR status_reason IS NOT NULL)
);
CREATE INDEX stores_account_idx ON stores (account_id, created_at DESC);
CREATE INDEX stores_status_idx ON stores (status, created_at);

CREATE TABLE store_documents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id uuid NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  stored_name text NOT NULL UNIQUE,
  mime_type text NOT NULL,
  size_bytes integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX store_documents_store_idx ON store_documents (store_id);

-- A payment a store asked for. Card data kept: brand, first 6 and last 4 only (never the
-- full number or the CVC). paid_ledger_transaction_id is unique, and the status moves to
-- 'success' only with it, so a payment is paid at most once.
CREATE TABLE payments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id uuid NOT NULL REFERENCES stores (id),
  account_id uuid NOT NULL REFERENCES accounts (id),
  url_id text NOT NULL UNIQUE,
  order_id text NOT NULL,
  currency text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  fee_cents bigint CHECK (fee_cents >= 0),
  customer_name text NOT NULL,
  customer_email text NOT NULL,
  customer_phone text NOT NULL,
  customer_address text NOT NULL,
  product_name text NOT NULL,
  cancel_url text NOT NULL,
  value_a text,
  payment_status text NOT NULL DEFAULT 'initiate' CHECK (payment_status IN ('initiate', 'success')),
  payment_source_type text,
  source_brand text,
  source_first6 text CHECK (source_first6 ~ '^[0-9]{6}$'),
  source_last4 text CHECK (source_last4 ~ '^[0-9]{4}$'),
  source_length integer,
  source_expires_in text,
  billing_info jsonb,
  paid_ledger_transaction_id bigint UNIQUE REFERENCES ledger_transactions (id),
  transaction_id text,
  paid_at timestamptz,
  -- A card attempt in progress holds the payment until this time, so one attempt runs at once.
  attempt_lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT payments_store_order_key UNIQUE (store_id, order_id),
  CHECK ((payment_status = 'success') = (paid_ledger_transaction_id IS NOT NULL))
);
CREATE INDEX payments_account_idx ON payments (account_id, created_at DESC);
CREATE INDEX payments_store_idx ON payments (store_id, created_at DESC);

CREATE TABLE payment_errors (
  id bigserial PRIMARY KEY,
  payment_id uuid NOT NULL REFERENCES payments (id),
  error_message text NOT NULL,
  source_brand text,
  source_type text,
  source_number_masked text,
  error_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_errors_payment_idx ON payment_errors (payment_id, error_at);

-- The callback outbox: written in the same transaction as the payment's change, delivered
-- by the worker in the server process, retried with back-off.
CREATE TABLE callback_deliveries (
  id bigserial PRIMARY KEY,
  store_id uuid NOT NULL REFERENCES stores (id),
  payment_id uuid NOT NULL REFERENCES payments (id),
  target_url text NOT NULL,
  body text NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_attempt_at timestamptz,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX callback_deliveries_due_idx ON callback_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX callback_deliveries_store_idx ON callback_deliveries (store_id, created_at DESC);

CREATE TABLE callback_attempts (
  id bigserial PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES callback_deliveries (id),
  attempted_at timestamptz NOT NULL,
  status_code integer,
  duration_ms integer NOT NULL,
  error text
);
CREATE INDEX callback_attempts_delivery_idx ON callback_attempts (delivery_id, attempted_at);
