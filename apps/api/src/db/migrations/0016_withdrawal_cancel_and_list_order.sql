-- A pending bank withdrawal can be cancelled by its owner, and the long lists page by keyset.

-- Cancelled is a final status like Failed: the held money went back to the wallet in a second
-- ledger transaction (return_transaction_id, unique, so it is given back at most once). Only
-- Failed carries a reason. The constraint names are the ones PostgreSQL gave 0008's CHECKs.
ALTER TABLE bank_withdrawals DROP CONSTRAINT bank_withdrawals_status_check;
ALTER TABLE bank_withdrawals ADD CONSTRAINT bank_withdrawals_status_check
  CHECK (status IN ('Pending', 'Processing', 'Completed', 'Failed', 'Cancelled'));
ALTER TABLE bank_withdrawals DROP CONSTRAINT bank_withdrawals_check;
ALTER TABLE bank_withdrawals ADD CONSTRAINT bank_withdrawals_returned_check
  CHECK ((status IN ('Failed', 'Cancelled')) = (return_transaction_id IS NOT NULL));

-- Keyset pagination walks each list newest first on (created_at, id): the id breaks ties
-- between rows written in the same microsecond, so a page boundary never skips or repeats one.
DROP INDEX bank_withdrawals_account_idx;
CREATE INDEX bank_withdrawals_account_idx ON bank_withdrawals (account_id, created_at DESC, id DESC);
DROP INDEX payments_account_idx;
CREATE INDEX payments_account_idx ON payments (account_id, created_at DESC, id DESC);
DROP INDEX payments_store_idx;
CREATE INDEX payments_store_idx ON payments (store_id, created_at DESC, id DESC);
DROP INDEX payment_requests_account_idx;
CREATE INDEX payment_requests_account_idx ON payment_requests (account_id, created_at DESC, id DESC);
