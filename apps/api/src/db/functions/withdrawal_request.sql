-- Requesting a bank withdrawal (POST /v1/bank-withdraw/create) after the TPIN check, in one
-- call: the account's locks decided again under its row lock, the idempotency record, the hold
-- (a ledger transaction: the wallet pays payouts in flight), the withdrawal row, the activity,
-- the audit entry, the notification event (the owner's mail, after commit) and the idempotency
-- record's answer, in one round trip and one transaction.
--
-- The server makes everything that is text before the call: the withdrawal's id, the ledger
-- transaction id, the activity's comment, the audit entry and the answer (p_answer, without
-- its times, which the row's are added to). It never raises for a refusal; it answers a kind
-- the TypeScript wrapper (modules/withdrawals/withdrawal-post.ts) maps to the API's exact error:
--   ok (body = the answer), replay (body = the stored answer), idempotency_mismatch,
--   account_missing, money_movement_locked, tpin_locked (locked_until), insufficient_funds,
--   step_up_* (step_up_check.sql; body = {remaining}).
-- A refusal writes nothing (the money part is a sub-block that rolls back).
--
-- Locks, in this order: the account's row FOR NO KEY UPDATE (step-up's rolling sum is read and
-- written by one movement of the account at a time), the same row FOR SHARE (as
-- assertTpinNotLocked: a TPIN or operator lock written since the check either committed
-- before or waits for this commit), then the wallet's balance row through ledger_debit.

-- The version before step-up (one argument fewer) is dropped, so only this one can be called.
DROP FUNCTION IF EXISTS withdrawal_request(jsonb, text, jsonb, jsonb, jsonb, text, text, text, jsonb);

CREATE OR REPLACE FUNCTION withdrawal_request(
  p_withdrawal jsonb,
  p_transaction_id text,
  p_metadata jsonb,
  p_activity jsonb,
  p_audit jsonb,
  p_idempotency_caller text,
  p_idempotency_key text,
  p_request_hash text,
  p_answer jsonb,
  p_step_up jsonb,
  OUT kind text,
  OUT body jsonb,
  OUT locked_until timestamptz
) LANGUAGE plpgsql AS $$
DECLARE
  v_account_id uuid := (p_withdrawal->>'account_id')::uuid;
  v_currency text := p_withdrawal->>'currency';
  v_amount bigint := (p_withdrawal->>'amount_cents')::bigint;
  v_wallet_la bigint;
  v_payouts_la bigint;
  v_tx bigint;
  v_row record;
  v_constraint text;
  v_step record;
BEGIN
  -- The account's row, FOR NO KEY UPDATE before the share lock below takes it: the movements
  -- of one account are added up for step-up one at a time (step_up_check.sql).
  PERFORM 1 FROM accounts a WHERE a.id = v_account_id FOR NO KEY UPDATE;
  SELECT r.kind, r.locked_until INTO kind, locked_until FROM account_movement_refusal(v_account_id) r;
  IF kind IS NOT NULL THEN RETURN; END IF;

  SELECT e.kind, e.body INTO kind, body FROM idempotency_earlier(p_idempotency_caller, p_idempotency_key, p_request_hash) e;
  IF kind IS NOT NULL THEN RETURN; END IF;

  -- Step-up: above the threshold the second factor is checked and spent here (a refusal's
  -- kind is step_up_*, with the tries left in body.remaining; nothing else is written).
  SELECT c.kind, c.remaining INTO v_step FROM step_up_check(v_account_id, (p_withdrawal->>'requested_by')::uuid, v_amount, p_step_up) c;
  IF v_step.kind NOT IN ('unverified', 'verified') THEN
    kind := v_step.kind;
    body := jsonb_build_object('remaining', v_step.remaining);
    RETURN;
  END IF;

  BEGIN
    -- A wallet without a ledger account in this currency holds nothing in it.
    SELECT la.id INTO v_wallet_la FROM ledger_accounts la WHERE la.account_id = v_account_id AND la.currency = v_currency;
    IF NOT FOUND THEN RAISE EXCEPTION USING ERRCODE = 'KW001'; END IF;
    SELECT la.id INTO v_payouts_la FROM ledger_accounts la WHERE la.system_code = 'payouts_in_flight' AND la.currency = v_currency;
    IF NOT FOUND THEN
      INSERT INTO ledger_accounts (system_code, currency) VALUES ('payouts_in_flight', v_currency)
        ON CONFLICT (system_code, currency) WHERE system_code IS NOT NULL DO NOTHING;
      SELECT la.id INTO STRICT v_payouts_la FROM ledger_accounts la WHERE la.system_code = 'payouts_in_flight' AND la.currency = v_currency;
    END IF;

    INSERT INTO ledger_transactions (transaction_id, kind, transaction_for, currency, amount_cents, fee_cents, created_by, metadata)
    VALUES (p_transaction_id, 'withdrawal', 'Bank Withdraw', v_currency, v_amount, 0, (p_withdrawal->>'requested_by')::uuid, p_metadata)
    RETURNING id INTO v_tx;
    INSERT INTO ledger_postings (ledger_transaction_id, ledger_account_id, amount_cents)
    VALUES (v_tx, v_wallet_la, -v_amount), (v_tx, v_payouts_la, v_amount);
    IF v_step.kind = 'unverified' THEN
      PERFORM step_up_count(v_account_id, v_amount);
    END IF;

    INSERT INTO bank_withdrawals (
      id, account_id, requested_by, currency, amount_cents, country, bank_name, branch_name, account_type,
      bank_account_number, routing_number, account_holder_name, hold_transaction_id)
    VALUES (
      (p_withdrawal->>'id')::uuid, v_account_id, (p_withdrawal->>'requested_by')::uuid, v_currency, v_amount,
      p_withdrawal->>'country', p_withdrawal->>'bank_name', p_withdrawal->>'branch_name', p_withdrawal->>'account_type',
      p_withdrawal->>'bank_account_number', p_withdrawal->>'routing_number', p_withdrawal->>'account_holder_name', v_tx)
    RETURNING created_at, updated_at INTO v_row;
    INSERT INTO activities (account_id, name, comment) VALUES (v_account_id, p_activity->>'name', p_activity->>'comment');
    INSERT INTO audit_log (actor_user_id, action, subject_type, subject_id, ip, details)
    VALUES ((p_audit->>'actor_user_id')::uuid, p_audit->>'action', p_audit->>'subject_type', p_audit->>'subject_id', p_audit->>'ip',
            coalesce(p_audit->'details', '{}'::jsonb));

    -- The balance last (its row lock is held for the shortest time); the table's CHECK stands
    -- behind it: no wallet goes below zero.
    IF NOT ledger_debit(v_wallet_la, v_amount) THEN RAISE EXCEPTION USING ERRCODE = 'KW001'; END IF;
    -- The owner is told of the request after commit (modules/notifications).
    PERFORM notification_event('withdrawal', p_withdrawal->>'id', jsonb_build_object('status', 'Pending'));

    body := p_answer || jsonb_build_object(
      'createdAt', to_char(v_row.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'updatedAt', to_char(v_row.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
    PERFORM idempotency_remember(p_idempotency_caller, p_idempotency_key, p_request_hash, 201, body);
    kind := 'ok';
  EXCEPTION
    WHEN SQLSTATE 'KW001' THEN
      kind := 'insufficient_funds';
      body := NULL;
    WHEN unique_violation THEN
      GET STACKED DIAGNOSTICS v_constraint = CONSTRAINT_NAME;
      IF v_constraint IS DISTINCT FROM 'idempotency_keys_pkey' THEN RAISE; END IF;
      SELECT e.kind, e.body INTO kind, body FROM idempotency_earlier(p_idempotency_caller, p_idempotency_key, p_request_hash) e;
  END;
END;
$$;
