-- Bank withdrawals and invoices.

-- A bank withdrawal holds its money in the payouts-in-flight system account from the moment it
-- is requested (hold_transaction_id); Failed gives it back in a second ledger transaction
-- (return_transaction_id). The CHECKs keep the status and the ledger in step, and the unique
-- return transaction means the money can be given back at most once.
CREATE TABLE bank_withdrawals (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  requested_by uuid NOT NULL REFERENCES users (id),
  currency text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  status text NOT NULL DEFAULT 'Pending' CHECK (status IN ('Pending', 'Processing', 'Completed', 'Failed')),
  country text NOT NULL CHECK (country IN ('United States', 'Bangladesh')),
  bank_name text NOT NULL,
  branch_name text,
  account_type text,
  bank_account_number text NOT NULL,
  routing_number text NOT NULL,
  account_holder_name text NOT NULL,
  failure_reason text,
  hold_transaction_id bigint NOT NULL UNIQUE REFERENCES ledger_transactions (id),
  return_transaction_id bigint UNIQUE REFERENCES ledger_transactions (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'Failed') = (return_transaction_id IS NOT NULL)),
  CHECK ((status = 'Failed') = (failure_reason IS NOT NULL)),
  CHECK (country = 'Bangladesh' OR branch_name IS NULL),
  CHECK (country = 'United States' OR account_type IS NULL)
);
CREATE INDEX bank_withdrawals_account_idx ON bank_withdrawals (account_id, created_at DESC);
CREATE INDEX bank_withdrawals_status_idx ON bank_withdrawals (status, created_at);

-- Invoices an account holder issues to their customers. Money in cents; the total is stored
-- and checked against unit price × quantity. Numbers run 1, 2, 3… per user, handed out by
-- an upsert on invoice_counters in the invoice's own transaction (so two at once never
-- share a number), and the unique index backs that.
CREATE TABLE invoice_counters (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  last_number integer NOT NULL CHECK (last_number > 0)
);

CREATE TABLE invoices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  invoice_number integer NOT NULL CHECK (invoice_number > 0),
  name text NOT NULL,
  phone text NOT NULL,
  email text NOT NULL,
  receiver_name text NOT NULL,
  unit_price_cents bigint NOT NULL CHECK (unit_price_cents >= 100),
  quantity integer NOT NULL CHECK (quantity >= 1),
  total_cents bigint NOT NULL,
  currency text NOT NULL DEFAULT 'USD',
  details text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (total_cents = unit_price_cents * quantity),
  UNIQUE (user_id, invoice_number)
);
CREATE INDEX invoices_user_idx ON invoices (user_id, invoice_number DESC);
