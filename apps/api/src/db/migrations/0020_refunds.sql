-- Refunds (issue 23): money of a successful payment (a gateway payment or a payment-request
-- link payment) given back to its payer, in full or in parts. Each refund is written by the
-- one-call database functions refund_post / refund_settle (db/functions/), never row by row.
--
-- A wallet payer's refund is one ledger transaction (owner's wallet and fee revenue → the
-- payer's wallet) and is 'succeeded' at once. A card payer's refund takes the money from the
-- owner into the system account refunds_in_flight ('processing'), the processor is asked
-- outside any transaction, then a second ledger transaction settles it (in flight → card
-- clearing: 'succeeded') or puts it back (in flight → owner and fee revenue: 'failed').
CREATE TABLE refunds (
  id uuid PRIMARY KEY,
  payment_id uuid REFERENCES payments (id),
  link_payment_id uuid REFERENCES payment_request_payments (id),
  -- The owner: the account the payment was paid into, which gives the money back.
  account_id uuid NOT NULL REFERENCES accounts (id),
  store_id uuid REFERENCES stores (id),
  currency text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  -- The part of the payment's fee returned with this refund (see refund_post for the rule).
  fee_cents bigint NOT NULL CHECK (fee_cents >= 0 AND fee_cents <= amount_cents),
  destination_type text NOT NULL CHECK (destination_type IN ('card', 'wallet')),
  -- The payer's wallet (destination 'wallet'), the wallet the payment came from.
  destination_account_id uuid REFERENCES accounts (id),
  destination_masked text NOT NULL,
  -- The charge's processor reference (card), as the payment's ledger transaction names it.
  processor_reference text,
  status text NOT NULL CHECK (status IN ('processing', 'succeeded', 'failed')),
  reason text,
  initiated_by text NOT NULL CHECK (initiated_by IN ('store', 'owner', 'operator')),
  initiated_by_user_id uuid REFERENCES users (id),
  initiated_by_name text NOT NULL,
  -- Step 1 (every refund), and step 3 (a card refund's settlement or its putting back).
  ledger_transaction_id bigint NOT NULL UNIQUE REFERENCES ledger_transactions (id),
  settle_ledger_transaction_id bigint UNIQUE REFERENCES ledger_transactions (id),
  transaction_id text NOT NULL,
  failure_reason text,
  -- How many times the recovery sweep asked the processor about this refund.
  recovery_attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  CHECK ((payment_id IS NULL) <> (link_payment_id IS NULL)),
  CHECK ((destination_type = 'wallet') = (destination_account_id IS NOT NULL)),
  CHECK ((status = 'processing') = (completed_at IS NULL)),
  CHECK (status = 'processing' OR destination_type = 'wallet' OR settle_ledger_transaction_id IS NOT NULL)
);
CREATE INDEX refunds_payment_idx ON refunds (payment_id, created_at DESC) WHERE payment_id IS NOT NULL;
CREATE INDEX refunds_link_payment_idx ON refunds (link_payment_id, created_at DESC) WHERE link_payment_id IS NOT NULL;
CREATE INDEX refunds_account_idx ON refunds (account_id, created_at DESC);
-- The recovery sweep's queue: card refunds left between the ledger step and the processor's answer.
CREATE INDEX refunds_processing_idx ON refunds (created_at) WHERE status = 'processing';

-- What is reserved by refunds (processing or succeeded) and the fee returned so far, kept on
-- the payment's row: refund_post decides under that row's lock, so parallel refunds of one
-- payment never pass its amount.
ALTER TABLE payments
  ADD COLUMN refund_reserved_cents bigint NOT NULL DEFAULT 0,
  ADD COLUMN fee_returned_cents bigint NOT NULL DEFAULT 0,
  ADD CONSTRAINT payments_refund_reserved_check CHECK (refund_reserved_cents >= 0 AND refund_reserved_cents <= amount_cents),
  ADD CONSTRAINT payments_fee_returned_check CHECK (fee_returned_cents >= 0 AND fee_returned_cents <= COALESCE(fee_cents, 0));
ALTER TABLE payment_request_payments
  ADD COLUMN refund_reserved_cents bigint NOT NULL DEFAULT 0,
  ADD COLUMN fee_returned_cents bigint NOT NULL DEFAULT 0,
  ADD CONSTRAINT payment_request_payments_refund_reserved_check CHECK (refund_reserved_cents >= 0 AND refund_reserved_cents <= amount_cents),
  ADD CONSTRAINT payment_request_payments_fee_returned_check CHECK (fee_returned_cents >= 0 AND fee_returned_cents <= fee_cents);
