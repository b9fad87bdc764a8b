-- Reconciliation of the card processor's records with the ledger (issue 26).
--
-- sandbox_processor_records: what the built-in sandbox card processor accepted — charges
-- (approved, or voided later), and refunds — as a real processor's settlement file lists
-- them. The sandbox writes these rows itself, outside Kestrel's ledger transactions (they
-- stand for the processor's side of the books). `processor` is the processor's name (a
-- merchant account at the processor); Kestrel stamps the same name on each card payment's
-- ledger transaction, so each processor's records are matched with its own payments.
CREATE TABLE sandbox_processor_records (
  id bigserial PRIMARY KEY,
  processor text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('charge', 'refund')),
  -- The processor's reference: a charge's (sbx_…) or a refund's (sbxr_…).
  reference text NOT NULL,
  -- A refund's charge.
  charge_reference text,
  -- What the merchant (Kestrel) said the money is for: 'payment:<id>' or 'link:<id>' for a
  -- charge, the refund id (the processor's idempotency key) for a refund.
  merchant_reference text,
  currency text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  -- The card as processors keep it: brand, first 6, last 4, length, expiry; never the number or CVC.
  card_brand text,
  card_first6 text CHECK (card_first6 ~ '^[0-9]{6}$'),
  card_last4 text CHECK (card_last4 ~ '^[0-9]{4}$'),
  card_length integer,
  card_expires_in text,
  -- The payer's billing details when the merchant sent them (a payment link's card form).
  billing_name text,
  billing_email text,
  status text NOT NULL CHECK (status IN ('approved', 'voided', 'refunded')),
  created_at timestamptz NOT NULL DEFAULT now(),
  voided_at timestamptz,
  UNIQUE (processor, reference),
  CHECK ((kind = 'refund') = (charge_reference IS NOT NULL)),
  CHECK ((kind = 'charge' AND status IN ('approved', 'voided')) OR (kind = 'refund' AND status = 'refunded')),
  CHECK ((status = 'voided') = (voided_at IS NOT NULL))
);
-- A day's records (the settlement file of one UTC day).
CREATE INDEX sandbox_processor_records_day_idx ON sandbox_processor_records (processor, created_at);
-- One refund per refund id: asking again about a refund answers the first one.
CREATE UNIQUE INDEX sandbox_processor_records_refund_key ON sandbox_processor_records (processor, merchant_reference) WHERE kind = 'refund';

-- A charge is recorded by at most one ledger transaction, whatever races (the collect's
-- void-unless-recorded, an operator's "record" from reconciliation): its processor reference
-- is unique among the ledger's card payments. The same index finds a charge by reference.
CREATE UNIQUE INDEX ledger_transactions_processor_reference_key ON ledger_transactions ((metadata->>'processorReference'))
  WHERE metadata ? 'processorReference';
-- A day's card payments and card refunds, for reconciliation.
CREATE INDEX ledger_transactions_card_day_idx ON ledger_transactions (created_at) WHERE metadata ? 'processorReference';
CREATE INDEX refunds_card_day_idx ON refunds (created_at) WHERE destination_type = 'card';

-- One reconciliation run per processor and UTC day (the daily job, `npm run reconcile`, or
-- an operator); running a day again replaces its figures.
CREATE TABLE reconciliation_runs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  processor text NOT NULL,
  day date NOT NULL,
  trigger text NOT NULL CHECK (trigger IN ('job', 'cli', 'operator')),
  requested_by uuid REFERENCES users (id),
  processor_records integer NOT NULL,
  ledger_records integer NOT NULL,
  mismatches integer NOT NULL,
  ran_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (processor, day)
);
CREATE INDEX reconciliation_runs_recent_idx ON reconciliation_runs (processor, day DESC);

-- What a run found to differ. One row per difference (processor, kind, reference), kept
-- across runs of the same day: open until an operator voids, records or resolves it (with a
-- reason, audited), or a later run no longer finds it ('cleared').
CREATE TABLE reconciliation_mismatches (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  processor text NOT NULL,
  day date NOT NULL,
  kind text NOT NULL CHECK (kind IN (
    'charge_not_recorded', 'recorded_not_charged', 'charge_amount_differs',
    'refund_not_recorded', 'recorded_not_refunded', 'refund_amount_differs')),
  -- The processor's reference (or, for a ledger refund the processor does not know, the refund id).
  reference text NOT NULL,
  target text CHECK (target IN ('payment', 'link')),
  -- The gateway payment's id, or the payment link's (payment_requests) id.
  record_id uuid,
  -- The account that was (or would have been) paid: an operator never acts on their own.
  account_id uuid REFERENCES accounts (id),
  refund_id uuid REFERENCES refunds (id),
  currency text NOT NULL,
  processor_amount_cents bigint,
  ledger_amount_cents bigint,
  -- The ledger's transaction id, when the ledger has the movement.
  transaction_id text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
  resolution text CHECK (resolution IN ('voided', 'recorded', 'resolved', 'cleared')),
  resolution_reason text,
  resolved_by uuid REFERENCES users (id),
  resolved_at timestamptz,
  -- An operator's void or record in progress (the processor is called outside any
  -- transaction): one action at a time per difference.
  claimed_until timestamptz,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (processor, kind, reference),
  CHECK ((status = 'open') = (resolution IS NULL)),
  CHECK ((status = 'open') = (resolved_at IS NULL))
);
CREATE INDEX reconciliation_mismatches_open_idx ON reconciliation_mismatches (processor, day DESC) WHERE status = 'open';
CREATE INDEX reconciliation_mismatches_day_idx ON reconciliation_mismatches (processor, day DESC, first_seen_at);
