-- Step-up's rolling sum in hour buckets (README, Security; db/functions/step_up_check.sql).
--
-- step_up_unverified_movements kept one row per movement made on the TPIN alone, for ever,
-- and each movement summed every row of its account's last 24 hours: the table grew as fast
-- as the ledger and the sum with an account's activity. step_up_usage keeps, per account, one
-- row per UTC hour with the hour's total; a movement adds to its hour's row
-- (step_up_count.sql), and the check sums the current hour and the 24 before it (at most 25
-- rows). A movement therefore counts for at least 24 hours and at most 25, never less. An
-- account's rows older than that are deleted when it starts a new hour, so the table holds
-- at most 25 rows an account.
CREATE TABLE step_up_usage (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  hour timestamptz NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  PRIMARY KEY (account_id, hour)
);

INSERT INTO step_up_usage (account_id, hour, amount_cents)
SELECT m.account_id, date_bin('1 hour', m.created_at, timestamptz '2000-01-01 00:00:00+00'), sum(m.amount_cents)
  FROM step_up_unverified_movements m
 WHERE m.created_at > now() - interval '25 hours'
 GROUP BY 1, 2;

DROP TABLE step_up_unverified_movements;
