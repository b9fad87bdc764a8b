-- The charts' day sums (issue 26) as range scans: each chart reads the last 30 days of one
-- wallet's postings, one store's payments and refused attempts, or (the operator's) every
-- store's and link's, instead of every row the wallet or store ever had.

-- A wallet's postings by time: the dashboard's money in / out per day, and the postings since
-- the period's start that take its opening balance back from the balance it has now.
CREATE INDEX ledger_postings_account_time_idx ON ledger_postings (ledger_account_id, created_at) INCLUDE (amount_cents);

-- Paid payments by the moment they were paid: one store's (its chart), every store's (the operator's).
CREATE INDEX payments_store_paid_idx ON payments (store_id, paid_at) INCLUDE (currency, amount_cents) WHERE paid_at IS NOT NULL;
CREATE INDEX payments_paid_idx ON payments (paid_at) INCLUDE (currency, amount_cents) WHERE paid_at IS NOT NULL;

-- Refused attempts by time, per store (every code: the declines-only index of the attempt
-- limits leaves the others out) and over all stores. Rows kept before the attempt limits
-- carried their store get it from their payment, so the store's chart can read them by it.
UPDATE payment_errors pe SET store_id = p.store_id FROM payments p WHERE p.id = pe.payment_id AND pe.store_id IS NULL;
CREATE INDEX payment_errors_store_time_idx ON payment_errors (store_id, error_at);
CREATE INDEX payment_errors_time_idx ON payment_errors (error_at);

-- Every link's payments and refused attempts by time (the operator's chart).
CREATE INDEX payment_request_payments_time_idx ON payment_request_payments (created_at) INCLUDE (currency, amount_cents);
CREATE INDEX payment_request_errors_time_idx ON payment_request_errors (error_at);
