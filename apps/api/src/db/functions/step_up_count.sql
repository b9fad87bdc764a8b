-- Counts a movement made on the TPIN alone (step_up_check answered 'unverified') towards the
-- account's step-up threshold: adds it to the account's bucket for this UTC hour
-- (migrations/0029_step_up_usage.sql). Called by ledger_transfer, withdrawal_request and
-- collect_post after the money has moved, in their transaction and under the payer's accounts
-- row lock, so one movement of an account writes its buckets at a time. The first movement of
-- an hour also deletes the account's buckets that left the window (older than the 24 hours
-- before this one), which step_up_check no longer reads.
CREATE OR REPLACE FUNCTION step_up_count(p_account_id uuid, p_amount bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  -- The hour's start in UTC, whatever the session's time zone.
  v_hour timestamptz := date_bin('1 hour', clock_timestamp(), timestamptz '2000-01-01 00:00:00+00');
BEGIN
  UPDATE step_up_usage SET amount_cents = amount_cents + p_amount
   WHERE account_id = p_account_id AND hour = v_hour;
  IF NOT FOUND THEN
    DELETE FROM step_up_usage WHERE account_id = p_account_id AND hour < v_hour - interval '24 hours';
    INSERT INTO step_up_usage (account_id, hour, amount_cents) VALUES (p_account_id, v_hour, p_amount);
  END IF;
END;
$$;
