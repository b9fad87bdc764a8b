-- Separation of duties (issue 19): four eyes on money entering or leaving Kestrel, stores
-- that can be suspended, and store keys that can be rotated.

-- Maker–checker. Funding above the four-eyes threshold (or past the requester's daily cap)
-- and completing a large withdrawal are requests here until a second, different operator
-- approves or refuses them. Approving executes the movement in the same database
-- transaction that flips the row from Pending, under the row's lock, so two approvers at
-- once cause one movement. The requester can never be the one who decides.
CREATE TABLE operator_approvals (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('funding', 'withdrawal_completion')),
  status text NOT NULL DEFAULT 'Pending' CHECK (status IN ('Pending', 'Approved', 'Refused')),
  account_id uuid NOT NULL REFERENCES accounts (id),
  withdrawal_id uuid REFERENCES bank_withdrawals (id),
  currency text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  -- Why the requester asked, and why a second operator is needed ('above_threshold', 'daily_cap').
  reason text NOT NULL,
  needed_because text NOT NULL,
  requested_by uuid NOT NULL REFERENCES users (id),
  requested_at timestamptz NOT NULL DEFAULT now(),
  decided_by uuid REFERENCES users (id),
  decided_at timestamptz,
  decision_reason text,
  -- The funding's ledger transaction (its public id), once approved.
  transaction_id text,
  CHECK ((kind = 'withdrawal_completion') = (withdrawal_id IS NOT NULL)),
  CHECK ((status = 'Pending') = (decided_by IS NULL)),
  CHECK ((status = 'Pending') = (decided_at IS NULL)),
  CHECK (decided_by IS NULL OR decided_by <> requested_by)
);
CREATE INDEX operator_approvals_status_idx ON operator_approvals (status, requested_at);
-- One open completion request per withdrawal.
CREATE UNIQUE INDEX operator_approvals_one_pending_completion ON operator_approvals (withdrawal_id) WHERE status = 'Pending';

-- Approved → Suspended → Approved: a suspended store's gateway calls and checkout answer 403.
ALTER TABLE stores DROP CONSTRAINT stores_status_check;
ALTER TABLE stores ADD CONSTRAINT stores_status_check CHECK (status IN ('Pending', 'Approved', 'Rejected', 'Suspended'));
ALTER TABLE stores ADD CONSTRAINT stores_suspended_reason CHECK (status <> 'Suspended' OR status_reason IS NOT NULL);

-- Key rotation: the key replaced last stays valid until previous_store_key_expires_at.
ALTER TABLE stores ADD COLUMN previous_store_key_encrypted text;
ALTER TABLE stores ADD COLUMN previous_store_key_expires_at timestamptz;
ALTER TABLE stores ADD COLUMN store_key_rotated_at timestamptz;
ALTER TABLE stores ADD CONSTRAINT stores_previous_key_expiry CHECK ((previous_store_key_encrypted IS NULL) = (previous_store_key_expires_at IS NULL));
