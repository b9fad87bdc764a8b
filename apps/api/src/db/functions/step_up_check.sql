-- Step-up for large movements (issue 25; README, Security), called by the money functions
-- (ledger_transfer, withdrawal_request, collect_post for a wallet payer) inside their own
-- call, after the TPIN and before any money moves, with the payer's accounts row already
-- locked FOR NO KEY UPDATE by the caller (so the rolling sum below is read and written by one
-- movement of that account at a time).
--
-- p_step (made by the server, modules/auth/step-up.ts):
--   binding      a digest of the movement (kind, accounts, amount) a mailed code is bound to;
--   given        whether the request carried a stepUpCode;
--   totpStep     the 30-second step the server matched the code to against the sealed secret
--                (the key never enters the database), or null;
--   recoveryHash the keyed hash of the code as a recovery code, or null;
--   mailHash     the keyed hash of the code as a mailed code, or null;
--   maxAttempts  wrong tries a mailed code takes.
--
-- Kinds: unverified (under the threshold: no second factor needed; the caller counts the
-- movement with step_up_count once the money has moved), verified (the factor was spent here: the app's
-- step advanced last_used_step, a recovery code or the mailed code marked used),
-- step_up_required_app / step_up_required_email (no code, or a mailed code for another
-- movement), step_up_invalid_app, step_up_reused_app, step_up_invalid_email (remaining),
-- step_up_expired_email (the newest code is expired, used or out of tries),
-- step_up_too_many_email (this wrong try was its last). A refusal's bookkeeping (a wrong try
-- counted) commits with the caller's refusal, which writes nothing else.
CREATE OR REPLACE FUNCTION step_up_check(
  p_account_id uuid,
  p_user_id uuid,
  p_amount bigint,
  p_step jsonb,
  OUT kind text,
  OUT remaining integer
) LANGUAGE plpgsql AS $$
DECLARE
  v_threshold bigint;
  v_used bigint;
  v_app boolean;
  v_step bigint := (p_step->>'totpStep')::bigint;
  v_max integer := coalesce((p_step->>'maxAttempts')::integer, 5);
  v_code record;
BEGIN
  SELECT a.step_up_threshold_cents INTO STRICT v_threshold FROM accounts a WHERE a.id = p_account_id;
  IF p_amount <= v_threshold THEN
    -- The current UTC hour's bucket and the 24 before it (step_up_count.sql).
    SELECT coalesce(sum(u.amount_cents), 0) INTO v_used FROM step_up_usage u
     WHERE u.account_id = p_account_id
       AND u.hour >= date_bin('1 hour', clock_timestamp(), timestamptz '2000-01-01 00:00:00+00') - interval '24 hours';
    IF v_used + p_amount <= v_threshold THEN kind := 'unverified'; RETURN; END IF;
  END IF;

  v_app := EXISTS (SELECT 1 FROM user_totp t WHERE t.user_id = p_user_id AND t.enabled_at IS NOT NULL);
  IF coalesce((p_step->>'given')::boolean, false) IS NOT TRUE THEN
    kind := CASE WHEN v_app THEN 'step_up_required_app' ELSE 'step_up_required_email' END;
    RETURN;
  END IF;

  IF v_app THEN
    IF v_step IS NOT NULL THEN
      -- Only a later step than the last one accepted (sign-in, 2FA changes, earlier step-ups).
      UPDATE user_totp SET last_used_step = v_step
       WHERE user_id = p_user_id AND (last_used_step IS NULL OR last_used_step < v_step);
      kind := CASE WHEN FOUND THEN 'verified' ELSE 'step_up_reused_app' END;
      RETURN;
    END IF;
    IF p_step->>'recoveryHash' IS NOT NULL THEN
      UPDATE recovery_codes SET used_at = clock_timestamp()
       WHERE user_id = p_user_id AND code_hash = p_step->>'recoveryHash' AND used_at IS NULL;
      IF FOUND THEN kind := 'verified'; RETURN; END IF;
    END IF;
    kind := 'step_up_invalid_app';
    RETURN;
  END IF;

  -- Without 2FA: the account's newest mailed code, under its row lock.
  SELECT c.id, c.code_hash, c.binding, c.expires_at, c.failed_attempts, c.used_at INTO v_code
    FROM step_up_codes c
   WHERE c.user_id = p_user_id AND c.account_id = p_account_id
   ORDER BY c.created_at DESC, c.id
   LIMIT 1
   FOR UPDATE;
  IF NOT FOUND THEN kind := 'step_up_required_email'; RETURN; END IF;
  IF v_code.used_at IS NOT NULL OR v_code.expires_at <= clock_timestamp() OR v_code.failed_attempts >= v_max THEN
    kind := 'step_up_expired_email';
    RETURN;
  END IF;
  -- A code sent for another movement (another amount or recipient) is not a guess: a new one is sent.
  IF v_code.binding IS DISTINCT FROM p_step->>'binding' THEN kind := 'step_up_required_email'; RETURN; END IF;
  IF v_code.code_hash = p_step->>'mailHash' THEN
    UPDATE step_up_codes SET used_at = clock_timestamp() WHERE id = v_code.id;
    kind := 'verified';
    RETURN;
  END IF;
  UPDATE step_up_codes SET failed_attempts = failed_attempts + 1 WHERE id = v_code.id;
  remaining := v_max - v_code.failed_attempts - 1;
  kind := CASE WHEN remaining <= 0 THEN 'step_up_too_many_email' ELSE 'step_up_invalid_email' END;
END;
$$;
