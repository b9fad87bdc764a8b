-- A withdrawal's status move in one call: an operator's Processing, Completed or Failed (the
-- money back to the wallet), or the owner's cancel of a Pending one (the money back too) —
-- the withdrawal's row lock, the checks, the return's ledger transaction, the status, the
-- activity, the audit entry, the notification event (the new status, mailed to the owner after
-- commit) and (a cancel with an Idempotency-Key) the stored answer, in one
-- round trip. Called on its own (its own transaction) or inside the caller's transaction
-- (a four-eyes approval flips its request in the same one).
--
-- The server reads the withdrawal first (its amount, currency and bank never change) and
-- makes every text before the call: the activity's comment, the audit entry, the return's
-- ledger transaction id and metadata, the cancel's answer without its update time. This only
-- decides under the row lock and writes. It never raises for a refusal; kinds:
--   ok (moved_at: the row's new updated_at; body = the cancel's answer), replay (body), idempotency_mismatch,
--   not_found, own_record (an operator acting on an account their own user holds),
--   wrong_status (current_status), four_eyes_required, completion_awaiting_decision,
--   money_movement_locked, tpin_locked (locked_until) — the last two for a cancel only.
--
-- Locks, in this order: (a cancel) the owner's account row FOR SHARE, as assertTpinNotLocked;
-- the withdrawal's row FOR UPDATE (two moves at once take turns; the second sees the first's
-- status); then the wallet's balance through ledger_credit.
CREATE OR REPLACE FUNCTION withdrawal_move(
  p_id uuid,
  p_from text,
  p_to text,
  p_operator_id uuid,
  p_owner_account_id uuid,
  p_four_eyes_from bigint,
  p_check_open_payout boolean,
  p_failure_reason text,
  p_return jsonb,
  p_activity jsonb,
  p_audit jsonb,
  p_idempotency_caller text,
  p_idempotency_key text,
  p_request_hash text,
  p_answer jsonb,
  OUT kind text,
  OUT body jsonb,
  OUT current_status text,
  OUT moved_at timestamptz,
  OUT locked_until timestamptz
) LANGUAGE plpgsql AS $$
DECLARE
  v_row record;
  v_wallet_la bigint;
  v_payouts_la bigint;
  v_tx bigint;
  v_constraint text;
BEGIN
  IF p_owner_account_id IS NOT NULL THEN
    SELECT r.kind, r.locked_until INTO kind, locked_until FROM account_movement_refusal(p_owner_account_id) r;
    IF kind = 'account_missing' THEN kind := 'not_found'; END IF;
    IF kind IS NOT NULL THEN RETURN; END IF;
  END IF;

  SELECT w.id, w.account_id, w.status, w.currency, w.amount_cents INTO v_row FROM bank_withdrawals w WHERE w.id = p_id FOR UPDATE;
  IF NOT FOUND THEN kind := 'not_found'; RETURN; END IF;
  IF p_owner_account_id IS NOT NULL AND v_row.account_id IS DISTINCT FROM p_owner_account_id THEN kind := 'not_found'; RETURN; END IF;
  IF p_operator_id IS NOT NULL AND EXISTS (SELECT 1 FROM account_users au WHERE au.account_id = v_row.account_id AND au.user_id = p_operator_id) THEN
    kind := 'own_record';
    RETURN;
  END IF;
  IF v_row.status IS DISTINCT FROM p_from THEN
    -- A cancel racing one with the same key: that one has committed (this waited on the row
    -- lock), and its answer is this one's.
    SELECT e.kind, e.body INTO kind, body FROM idempotency_earlier(p_idempotency_caller, p_idempotency_key, p_request_hash) e;
    IF kind IS NOT NULL THEN RETURN; END IF;
    kind := 'wrong_status';
    current_status := v_row.status;
    RETURN;
  END IF;
  IF p_four_eyes_from IS NOT NULL AND v_row.amount_cents >= p_four_eyes_from THEN kind := 'four_eyes_required'; RETURN; END IF;
  -- An open payout request would otherwise outlive the withdrawal it asks to pay.
  IF p_check_open_payout AND EXISTS (SELECT 1 FROM operator_approvals oa WHERE oa.withdrawal_id = v_row.id AND oa.status = 'Pending') THEN
    kind := 'completion_awaiting_decision';
    RETURN;
  END IF;

  SELECT e.kind, e.body INTO kind, body FROM idempotency_earlier(p_idempotency_caller, p_idempotency_key, p_request_hash) e;
  IF kind IS NOT NULL THEN RETURN; END IF;

  BEGIN
    IF p_return IS NOT NULL THEN
      -- The money back: payouts in flight pays the wallet that the hold took it from.
      SELECT la.id INTO STRICT v_wallet_la FROM ledger_accounts la WHERE la.account_id = v_row.account_id AND la.currency = v_row.currency;
      SELECT la.id INTO STRICT v_payouts_la FROM ledger_accounts la WHERE la.system_code = 'payouts_in_flight' AND la.currency = v_row.currency;
      INSERT INTO ledger_transactions (transaction_id, kind, transaction_for, currency, amount_cents, fee_cents, created_by, metadata)
      VALUES (p_return->>'transaction_id', 'withdrawal_return', p_return->>'transaction_for', v_row.currency, v_row.amount_cents, 0,
              coalesce(p_operator_id, (p_audit->>'actor_user_id')::uuid), coalesce(p_return->'metadata', '{}'::jsonb))
      RETURNING id INTO v_tx;
      INSERT INTO ledger_postings (ledger_transaction_id, ledger_account_id, amount_cents)
      VALUES (v_tx, v_payouts_la, -v_row.amount_cents), (v_tx, v_wallet_la, v_row.amount_cents);
    END IF;

    UPDATE bank_withdrawals w SET
      status = p_to,
      updated_at = now(),
      failure_reason = CASE WHEN p_to = 'Failed' THEN p_failure_reason ELSE w.failure_reason END,
      return_transaction_id = coalesce(v_tx, w.return_transaction_id)
     WHERE w.id = v_row.id
    RETURNING w.updated_at INTO moved_at;
    INSERT INTO activities (account_id, name, comment) VALUES (v_row.account_id, p_activity->>'name', p_activity->>'comment');
    INSERT INTO audit_log (actor_user_id, action, subject_type, subject_id, ip, details)
    VALUES ((p_audit->>'actor_user_id')::uuid, p_audit->>'action', p_audit->>'subject_type', p_audit->>'subject_id', p_audit->>'ip',
            coalesce(p_audit->'details', '{}'::jsonb));
    IF v_tx IS NOT NULL THEN PERFORM ledger_credit(v_wallet_la, v_row.amount_cents); END IF;
    -- The owner is told of the new status after commit; the event keeps it, as the row moves on.
    PERFORM notification_event('withdrawal', v_row.id::text, jsonb_build_object('status', p_to));

    IF p_answer IS NOT NULL THEN
      body := p_answer || jsonb_build_object('updatedAt', to_char(moved_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
    END IF;
    PERFORM idempotency_remember(p_idempotency_caller, p_idempotency_key, p_request_hash, 200, body);
    kind := 'ok';
  EXCEPTION
    WHEN unique_violation THEN
      GET STACKED DIAGNOSTICS v_constraint = CONSTRAINT_NAME;
      IF v_constraint IS DISTINCT FROM 'idempotency_keys_pkey' THEN RAISE; END IF;
      moved_at := NULL;
      SELECT e.kind, e.body INTO kind, body FROM idempotency_earlier(p_idempotency_caller, p_idempotency_key, p_request_hash) e;
  END;
END;
$$;
