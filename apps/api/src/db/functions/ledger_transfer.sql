-- The ledger's transfer primitive: a wallet-to-wallet transfer in one database call (one
-- round trip): the session (by its token's hash), ownership of the sender, the recipient, the
-- idempotency record, the TPIN with its lockout, the operator's lock, the ledger transaction
-- and postings, both balances, the transfer row, both activities, the audit entry and the
-- notification event (notification_event: the "you sent" / "you received" mails, after commit).
--
-- The TPIN's keyed hash (made by the server; the key never enters the database) is compared
-- against the stored version:
--   hmac2$  with p_name_mac, made for p_mac_user_name (compared with the row's user name byte
--           for byte: a name in another case is a re-key, never a strike);
--   hmac1$  with p_id_mac, made for p_mac_account_id (a re-key when it is missing or for
--           another id); after a match the row is upgraded to p_name_mac when that was made
--           for the row's user name;
--   other   (argon2) `tpin_legacy`: the server verifies and upgrades it itself.
-- A re-key answers the sender's id and user name, so the server's next call has both hashes.
-- A strike is counted only when the hash the stored version needs was sent and differs.
--
-- Above the sender's step-up threshold (step_up_check.sql) the movement also needs a second
-- factor (p_step_up), checked and spent in this same call: kinds step_up_*.
--
-- It never raises for a refusal: it answers a result kind (see the TypeScript wrapper in
-- modules/ledger/transfer.ts), so that a wrong TPIN's count commits even though no money
-- moves. Insufficient funds rolls back only the money part (a sub-block).
--
-- Locks, always in this order: the sender's accounts row (FOR NO KEY UPDATE, so foreign-key
-- checks of other transfers naming it as recipient do not wait), then the two wallet ledger
-- accounts in ascending id order (through ledger_credit / ledger_debit).

-- The first version's signature (migration 0010, before the user-name hash): a database that
-- still has it drops it here, so only this version can be called.
DROP FUNCTION IF EXISTS ledger_transfer(text, text, text, uuid, text, text, bigint, text, text, text, text, text, integer, integer);
-- The second version's (before step-up, migration 0024's time): dropped the same way.
DROP FUNCTION IF EXISTS ledger_transfer(text, text, text, text, text, uuid, text, text, bigint, text, text, text, text, text, integer, integer);

CREATE OR REPLACE FUNCTION ledger_transfer(
  p_token_hash text,
  p_sender_key text,
  p_recipient_key text,
  p_mac_user_name text,
  p_name_mac text,
  p_mac_account_id uuid,
  p_id_mac text,
  p_currency text,
  p_amount bigint,
  p_shown_amount text,
  p_transaction_id text,
  p_idempotency_key text,
  p_request_hash text,
  p_ip text,
  p_max_attempts integer,
  p_lock_minutes integer,
  p_step_up jsonb,
  OUT kind text,
  OUT body jsonb,
  OUT remaining integer,
  OUT locked_until timestamptz,
  OUT sender_id uuid,
  OUT sender_user_name text
) LANGUAGE plpgsql AS $$
DECLARE
  v_user uuid;
  v_caller text;
  s record;
  r record;
  v_tx record;
  v_failures integer;
  v_until timestamptz;
  v_sender_la bigint;
  v_recipient_la bigint;
  v_balance bigint;
  v_constraint text;
  v_tpin_ok boolean;
  v_upgrade boolean := false;
  v_step record;
BEGIN
  SELECT user_id INTO v_user FROM sessions
   WHERE token_hash = p_token_hash AND revoked_at IS NULL AND expires_at > clock_timestamp();
  IF NOT FOUND THEN kind := 'session_invalid'; RETURN; END IF;

  SELECT a.id, a.account_number, a.user_name
    INTO s FROM accounts a
   WHERE lower(a.user_name) = lower(p_sender_key)
     AND EXISTS (SELECT 1 FROM account_users au WHERE au.account_id = a.id AND au.user_id = v_user);
  IF NOT FOUND THEN kind := 'sender_not_found'; RETURN; END IF;

  SELECT a.id, a.account_number, a.user_name,
         CASE WHEN a.account_type = 'business' AND a.business_name IS NOT NULL THEN a.business_name ELSE a.account_holder_name END AS shown_name
    INTO r FROM accounts a
   WHERE lower(a.user_name) = lower(p_recipient_key);
  IF NOT FOUND THEN kind := 'recipient_not_found'; RETURN; END IF;
  IF r.id = s.id THEN kind := 'same_account'; RETURN; END IF;

  -- The sender's row lock, held to commit: TPIN checks on one account run one after another
  -- (parallel guesses are counted exactly), and a lock written by any other path either
  -- committed before this read or waits for this transfer to commit.
  SELECT a.id, a.account_number, a.user_name, a.tpin_hash, a.tpin_failed_attempts, a.tpin_locked_until, a.money_movement_locked,
         CASE WHEN a.account_type = 'business' AND a.business_name IS NOT NULL THEN a.business_name ELSE a.account_holder_name END AS shown_name
    INTO s FROM accounts a WHERE a.id = s.id FOR NO KEY UPDATE;
  sender_id := s.id;
  sender_user_name := s.user_name;

  -- Read after the lock: a request with the same key that held it has committed by now.
  v_caller := 'user:' || v_user::text;
  SELECT e.kind, e.body INTO kind, body FROM idempotency_earlier(v_caller, p_idempotency_key, p_request_hash) e;
  IF kind IS NOT NULL THEN RETURN; END IF;

  -- An operator's lock (the operator console) stops every money movement, whatever the TPIN.
  IF s.money_movement_locked THEN kind := 'operator_locked'; RETURN; END IF;
  IF s.tpin_locked_until IS NOT NULL AND s.tpin_locked_until > clock_timestamp() THEN
    kind := 'tpin_locked';
    locked_until := s.tpin_locked_until;
    RETURN;
  END IF;
  IF left(s.tpin_hash, 6) = 'hmac2$' THEN
    -- The keyed hash covers the user name as stored; one made for another spelling (or none)
    -- is not a guess.
    IF p_name_mac IS NULL OR p_mac_user_name IS DISTINCT FROM s.user_name THEN kind := 'tpin_rekey'; RETURN; END IF;
    v_tpin_ok := s.tpin_hash = p_name_mac;
  ELSIF left(s.tpin_hash, 6) = 'hmac1$' THEN
    -- The first version covers the account id; one made for another id (or none) is not a guess.
    IF p_mac_account_id IS DISTINCT FROM s.id OR p_id_mac IS NULL THEN kind := 'tpin_rekey'; RETURN; END IF;
    v_tpin_ok := s.tpin_hash = p_id_mac;
    v_upgrade := v_tpin_ok AND p_name_mac IS NOT NULL AND p_mac_user_name = s.user_name;
  ELSE
    -- An argon2 hash from before keyed hashes: the server verifies (and upgrades) it itself.
    kind := 'tpin_legacy';
    RETURN;
  END IF;

  -- IS NOT TRUE: a comparison that came out NULL is never a match.
  IF v_tpin_ok IS NOT TRUE THEN
    -- A lock that has run out starts a fresh count.
    v_failures := (CASE WHEN s.tpin_locked_until IS NOT NULL THEN 0 ELSE s.tpin_failed_attempts END) + 1;
    IF v_failures >= p_max_attempts THEN
      v_until := clock_timestamp() + make_interval(mins => p_lock_minutes);
      UPDATE accounts SET tpin_failed_attempts = 0, tpin_locked_until = v_until WHERE id = s.id;
      INSERT INTO activities (account_id, name, comment)
      VALUES (s.id, 'TPIN locked', format('Money movement locked for %s minutes after %s wrong TPINs', p_lock_minutes, p_max_attempts));
      INSERT INTO audit_log (actor_user_id, action, subject_type, subject_id) VALUES (v_user, 'account.tpin_locked', 'account', s.id::text);
      kind := 'tpin_locked';
      locked_until := v_until;
      RETURN;
    END IF;
    UPDATE accounts SET tpin_failed_attempts = v_failures, tpin_locked_until = NULL WHERE id = s.id;
    kind := 'tpin_wrong';
    remaining := p_max_attempts - v_failures;
    RETURN;
  END IF;
  IF v_upgrade THEN
    UPDATE accounts SET tpin_hash = p_name_mac, tpin_failed_attempts = 0, tpin_locked_until = NULL WHERE id = s.id;
  ELSIF s.tpin_failed_attempts > 0 OR s.tpin_locked_until IS NOT NULL THEN
    UPDATE accounts SET tpin_failed_attempts = 0, tpin_locked_until = NULL WHERE id = s.id;
  END IF;

  -- Step-up (step_up_check.sql): above the account's threshold over 24 hours the movement
  -- also needs a second factor, spent here; a refusal writes nothing but its own bookkeeping.
  SELECT c.kind, c.remaining INTO v_step FROM step_up_check(s.id, v_user, p_amount, p_step_up) c;
  IF v_step.kind NOT IN ('unverified', 'verified') THEN
    kind := v_step.kind;
    remaining := v_step.remaining;
    RETURN;
  END IF;

  SELECT la.id INTO v_sender_la FROM ledger_accounts la WHERE la.account_id = s.id AND la.currency = p_currency;
  IF NOT FOUND THEN kind := 'insufficient_funds'; RETURN; END IF;

  -- The money part: everything in it commits together or (insufficient funds, a concurrent
  -- request with the same key) not at all, while the TPIN bookkeeping above stays.
  BEGIN
    SELECT la.id INTO v_recipient_la FROM ledger_accounts la WHERE la.account_id = r.id AND la.currency = p_currency;
    IF NOT FOUND THEN
      INSERT INTO ledger_accounts (account_id, currency) VALUES (r.id, p_currency)
        ON CONFLICT (account_id, currency) WHERE account_id IS NOT NULL DO NOTHING;
      SELECT la.id INTO STRICT v_recipient_la FROM ledger_accounts la WHERE la.account_id = r.id AND la.currency = p_currency;
    END IF;

    INSERT INTO ledger_transactions (transaction_id, kind, transaction_for, currency, amount_cents, created_by, metadata)
    VALUES (p_transaction_id, 'transfer', 'Fund Transfer', p_currency, p_amount, v_user,
            jsonb_build_object('from', s.account_number, 'to', r.account_number))
    RETURNING id, transaction_id, created_at INTO v_tx;
    INSERT INTO ledger_postings (ledger_transaction_id, ledger_account_id, amount_cents)
    VALUES (v_tx.id, v_sender_la, -p_amount), (v_tx.id, v_recipient_la, p_amount);
    IF v_step.kind = 'unverified' THEN
      PERFORM step_up_count(s.id, p_amount);
    END IF;
    INSERT INTO transfers (ledger_transaction_id, from_account_id, to_account_id, currency, amount_cents, created_by)
    VALUES (v_tx.id, s.id, r.id, p_currency, p_amount, v_user);
    INSERT INTO activities (account_id, name, comment) VALUES
      (s.id, 'Fund transfer sent', format('%s to %s (%s), %s', p_shown_amount, r.shown_name, r.account_number, v_tx.transaction_id)),
      (r.id, 'Fund transfer received', format('%s from %s (%s), %s', p_shown_amount, s.shown_name, s.account_number, v_tx.transaction_id));
    INSERT INTO audit_log (actor_user_id, action, subject_type, subject_id, ip, details)
    VALUES (v_user, 'transfer.created', 'ledger_transaction', v_tx.transaction_id, p_ip,
            jsonb_build_object('from', s.account_number, 'to', r.account_number, 'amountCents', p_amount, 'currency', p_currency));
    -- "You sent" / "You received", rendered and mailed after commit (modules/notifications).
    PERFORM notification_event('transfer', v_tx.id::text);

    -- Balances last (their row locks are held for the shortest time), in ascending ledger
    -- account id order (no deadlocks); the sender's is conditional (ledger_debit), and the
    -- table's CHECK keeps a wallet from going below zero whatever happens here.
    IF v_recipient_la < v_sender_la THEN
      PERFORM ledger_credit(v_recipient_la, p_amount);
    END IF;
    IF NOT ledger_debit(v_sender_la, p_amount) THEN RAISE EXCEPTION 'insufficient funds' USING ERRCODE = 'KL001'; END IF;
    v_balance := ledger_balance(v_sender_la);
    IF v_recipient_la > v_sender_la THEN
      PERFORM ledger_credit(v_recipient_la, p_amount);
    END IF;

    body := jsonb_build_object(
      'transactionId', v_tx.transaction_id,
      'amount', round(p_amount::numeric / 100, 2),
      'currency', p_currency,
      'debitAccountKey', s.user_name,
      'creditAccountKey', r.user_name,
      'balance', round(v_balance::numeric / 100, 2),
      'transactionAt', to_char(v_tx.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
    -- A concurrent request with this key from another of the caller's accounts makes this
    -- wait for it, then fail: this money part rolls back and its answer is returned.
    PERFORM idempotency_remember(v_caller, p_idempotency_key, p_request_hash, 200, body);
    kind := 'ok';
  EXCEPTION
    WHEN SQLSTATE 'KL001' THEN
      kind := 'insufficient_funds';
      body := NULL;
    WHEN unique_violation THEN
      GET STACKED DIAGNOSTICS v_constraint = CONSTRAINT_NAME;
      IF v_constraint IS DISTINCT FROM 'idempotency_keys_pkey' THEN RAISE; END IF;
      SELECT e.kind, e.body INTO kind, body FROM idempotency_earlier(v_caller, p_idempotency_key, p_request_hash) e;
  END;
END;
$$;
