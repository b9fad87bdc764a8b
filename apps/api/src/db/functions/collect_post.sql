-- The collect pipeline's database step (modules/payments/collect/collect.ts) in one call:
-- money from a payer (a wallet, or card clearing for a charged card) into a payee's wallet,
-- less the fee to fee revenue, recorded on what was paid — a gateway payment (p_target
-- 'payment': the row marked paid, the store's callback queued) or a payment-request link
-- (p_target 'link': its use spent, a link payment row written) — with the activities, the
-- audit entry, the notification event (the receipt and "you got paid", mailed after commit)
-- and the idempotency record, in one round trip and one database transaction.
--
-- The server makes everything that is text before the call (the transaction id, the answer,
-- the activity comments, the callback body), so this only checks and writes. It never raises
-- for a refusal: it answers a result kind that the TypeScript wrapper maps to the API's exact
-- error, and a refusal writes nothing (the money part is a sub-block that rolls back).
--
-- Kinds: ok (body = p_answer), replay (body = the stored answer), idempotency_mismatch,
-- tpin_locked (locked_until), money_movement_locked, already_paid, attempt_in_progress,
-- limit_exceeded, link_unavailable (the server looks up why), owner_locked,
-- insufficient_funds, step_up_* (a wallet payer above its step-up threshold without a good
-- second factor in p_step_up: step_up_check.sql; body = {remaining}), tpin_check (a wallet
-- payer's TPIN given in p_tpin was not accepted: body = {kind, remaining, userName} as
-- tpin_check.sql answers them, locked_until; a wrong TPIN's count commits with this answer).
--
-- p_tpin (a wallet payer, when the server has not checked the TPIN itself: modules/accounts/
-- tpin.ts tpinCheckArgs): the keyed hashes of the TPIN the request carried, checked by
-- tpin_check under the payer's row lock after the idempotency look-up and before step-up, so a
-- wallet pay is one call; null when the server checked it already, and for a card.
--
-- Locks, in this order: the payer's accounts row (FOR NO KEY UPDATE, then FOR SHARE: its TPIN and operator locks,
-- decided again here, held to commit), the record's row (the payment FOR UPDATE, or the
-- link's row by the conditional update that spends its use), the payee's accounts row (FOR
-- SHARE: an operator's lock on a link's owner), then the wallets' balances through
-- ledger_debit / ledger_credit in ascending ledger account id order.
-- The versions before step-up and before the TPIN (one and two arguments fewer) are dropped,
-- so only this one can be called.
DROP FUNCTION IF EXISTS collect_post(text, uuid, uuid, uuid, uuid, text, bigint, bigint, text, text, text, uuid, jsonb, jsonb, jsonb, jsonb, jsonb, text, text, text, jsonb);
DROP FUNCTION IF EXISTS collect_post(text, uuid, uuid, uuid, uuid, text, bigint, bigint, text, text, text, uuid, jsonb, jsonb, jsonb, jsonb, jsonb, text, text, text, jsonb, jsonb);

CREATE OR REPLACE FUNCTION collect_post(
  p_target text,
  p_record_id uuid,
  p_hold_id uuid,
  p_payer_account_id uuid,
  p_payee_account_id uuid,
  p_currency text,
  p_amount bigint,
  p_fee bigint,
  p_transaction_id text,
  p_ledger_kind text,
  p_transaction_for text,
  p_created_by uuid,
  p_metadata jsonb,
  p_record jsonb,
  p_activities jsonb,
  p_audit jsonb,
  p_callback jsonb,
  p_idempotency_caller text,
  p_idempotency_key text,
  p_request_hash text,
  p_answer jsonb,
  p_step_up jsonb,
  p_tpin jsonb,
  OUT kind text,
  OUT body jsonb,
  OUT locked_until timestamptz
) LANGUAGE plpgsql AS $$
DECLARE
  v_payment record;
  v_refusal text;
  v_tx bigint;
  v_source_la bigint;
  v_payee_la bigint;
  v_fee_la bigint;
  v_constraint text;
  v_spent boolean;
  v_step record;
  v_tpin record;
  -- The step-up check's answer; stays null for a card payer (v_step is never assigned then).
  v_step_kind text;
BEGIN
  IF p_payer_account_id IS NOT NULL THEN
    -- FOR NO KEY UPDATE before the share lock below takes the row: the wallet's movements are
    -- added up for step-up one at a time (step_up_check.sql).
    PERFORM 1 FROM accounts a WHERE a.id = p_payer_account_id FOR NO KEY UPDATE;
    SELECT r.kind, r.locked_until INTO kind, locked_until FROM account_movement_refusal(p_payer_account_id) r;
    IF kind IS NOT NULL THEN RETURN; END IF;
  END IF;

  SELECT e.kind, e.body INTO kind, body FROM idempotency_earlier(p_idempotency_caller, p_idempotency_key, p_request_hash) e;
  IF kind IS NOT NULL THEN RETURN; END IF;

  -- The wallet payer's TPIN, when the server left it to this call: anything but ok is answered
  -- as it is, and returned from here (not raised), so a wrong TPIN's count and a lock commit.
  IF p_tpin IS NOT NULL THEN
    SELECT t.kind, t.remaining, t.locked_until, t.user_name INTO v_tpin
      FROM tpin_check(p_payer_account_id, p_tpin->>'macUserName', p_tpin->>'nameMac', p_tpin->>'idMac', p_created_by,
                      (p_tpin->>'maxAttempts')::integer, (p_tpin->>'lockMinutes')::integer) t;
    IF v_tpin.kind <> 'ok' THEN
      kind := 'tpin_check';
      body := jsonb_build_object('kind', v_tpin.kind, 'remaining', v_tpin.remaining, 'userName', v_tpin.user_name);
      locked_until := v_tpin.locked_until;
      RETURN;
    END IF;
  END IF;

  -- Step-up, for a wallet payer: above its threshold the second factor is checked and spent
  -- here (a refusal's kind is step_up_*, the tries left in body.remaining; nothing else is written).
  IF p_payer_account_id IS NOT NULL THEN
    SELECT c.kind, c.remaining INTO v_step FROM step_up_check(p_payer_account_id, p_created_by, p_amount, p_step_up) c;
    v_step_kind := v_step.kind;
    IF v_step_kind NOT IN ('unverified', 'verified') THEN
      kind := v_step.kind;
      body := jsonb_build_object('remaining', v_step.remaining);
      RETURN;
    END IF;
  END IF;

  BEGIN
    -- The record, under its row lock: paid at most once (the unique paid_ledger_transaction_id
    -- backs this up), and a wallet never pays a payment a card attempt holds.
    IF p_target = 'payment' THEN
      SELECT p.payment_status, p.attempt_lease_until INTO v_payment FROM payments p WHERE p.id = p_record_id FOR UPDATE;
      IF v_payment.payment_status = 'success' THEN v_refusal := 'already_paid'; RAISE EXCEPTION USING ERRCODE = 'KC001'; END IF;
      IF p_payer_account_id IS NOT NULL AND v_payment.attempt_lease_until IS NOT NULL AND v_payment.attempt_lease_until > clock_timestamp() THEN
        v_refusal := 'attempt_in_progress'; RAISE EXCEPTION USING ERRCODE = 'KC001';
      END IF;
    ELSIF p_hold_id IS NOT NULL THEN
      -- A card attempt's held use is spent; a use the owner's new limit no longer has is not.
      WITH gone AS (DELETE FROM payment_request_holds WHERE id = p_hold_id RETURNING payment_request_id)
      UPDATE payment_requests r
         SET held_uses = r.held_uses - 1, use_limit = CASE WHEN r.is_use_limit THEN r.use_limit - 1 ELSE r.use_limit END
        FROM gone
       WHERE r.id = gone.payment_request_id AND (NOT r.is_use_limit OR r.use_limit > 0);
      v_spent := FOUND;
      IF NOT v_spent THEN
        -- The hold ran out and was swept (a very slow processor): a use still free may be taken.
        UPDATE payment_requests r SET use_limit = CASE WHEN r.is_use_limit THEN r.use_limit - 1 ELSE r.use_limit END
         WHERE r.id = p_record_id AND (NOT r.is_use_limit OR r.use_limit > r.held_uses)
           AND NOT EXISTS (SELECT 1 FROM payment_request_holds h WHERE h.id = p_hold_id);
        IF NOT FOUND THEN v_refusal := 'limit_exceeded'; RAISE EXCEPTION USING ERRCODE = 'KC001'; END IF;
      END IF;
    ELSE
      -- No held use (a wallet payment, or a standing card charge an operator records from
      -- reconciliation): the use is taken now; the rollback of a refusal gives it back.
      UPDATE payment_requests r SET use_limit = CASE WHEN r.is_use_limit THEN r.use_limit - 1 ELSE r.use_limit END
       WHERE r.id = p_record_id AND r.status = 'active' AND (r.expires_at IS NULL OR r.expires_at > now())
         AND (NOT r.is_use_limit OR r.use_limit > r.held_uses);
      IF NOT FOUND THEN v_refusal := 'link_unavailable'; RAISE EXCEPTION USING ERRCODE = 'KC001'; END IF;
    END IF;
    IF p_target = 'link' AND (SELECT a.money_movement_locked FROM accounts a WHERE a.id = p_payee_account_id FOR SHARE) THEN
      v_refusal := 'owner_locked'; RAISE EXCEPTION USING ERRCODE = 'KC001';
    END IF;

    -- The ledger accounts: the source (the payer's wallet, or card clearing), the payee's
    -- wallet and fee revenue; a wallet's or system account's first use in a currency opens it.
    IF p_payer_account_id IS NOT NULL THEN
      SELECT la.id INTO v_source_la FROM ledger_accounts la WHERE la.account_id = p_payer_account_id AND la.currency = p_currency;
      IF NOT FOUND THEN v_refusal := 'insufficient_funds'; RAISE EXCEPTION USING ERRCODE = 'KC001'; END IF;
    ELSE
      SELECT la.id INTO v_source_la FROM ledger_accounts la WHERE la.system_code = 'card_clearing' AND la.currency = p_currency;
      IF NOT FOUND THEN
        INSERT INTO ledger_accounts (system_code, currency) VALUES ('card_clearing', p_currency)
          ON CONFLICT (system_code, currency) WHERE system_code IS NOT NULL DO NOTHING;
        SELECT la.id INTO STRICT v_source_la FROM ledger_accounts la WHERE la.system_code = 'card_clearing' AND la.currency = p_currency;
      END IF;
    END IF;
    SELECT la.id INTO v_payee_la FROM ledger_accounts la WHERE la.account_id = p_payee_account_id AND la.currency = p_currency;
    IF NOT FOUND THEN
      INSERT INTO ledger_accounts (account_id, currency) VALUES (p_payee_account_id, p_currency)
        ON CONFLICT (account_id, currency) WHERE account_id IS NOT NULL DO NOTHING;
      SELECT la.id INTO STRICT v_payee_la FROM ledger_accounts la WHERE la.account_id = p_payee_account_id AND la.currency = p_currency;
    END IF;
    IF p_fee > 0 THEN
      SELECT la.id INTO v_fee_la FROM ledger_accounts la WHERE la.system_code = 'fee_revenue' AND la.currency = p_currency;
      IF NOT FOUND THEN
        INSERT INTO ledger_accounts (system_code, currency) VALUES ('fee_revenue', p_currency)
          ON CONFLICT (system_code, currency) WHERE system_code IS NOT NULL DO NOTHING;
        SELECT la.id INTO STRICT v_fee_la FROM ledger_accounts la WHERE la.system_code = 'fee_revenue' AND la.currency = p_currency;
      END IF;
    END IF;

    INSERT INTO ledger_transactions (transaction_id, kind, transaction_for, currency, amount_cents, fee_cents, created_by, metadata)
    VALUES (p_transaction_id, p_ledger_kind, p_transaction_for, p_currency, p_amount, p_fee, p_created_by, p_metadata)
    RETURNING id INTO v_tx;
    INSERT INTO ledger_postings (ledger_transaction_id, ledger_account_id, amount_cents)
    SELECT v_tx, la, amount FROM (VALUES (v_source_la, -p_amount), (v_payee_la, p_amount - p_fee), (v_fee_la, p_fee)) AS v(la, amount)
     WHERE la IS NOT NULL AND amount <> 0;
    IF v_step_kind = 'unverified' THEN
      PERFORM step_up_count(p_payer_account_id, p_amount);
    END IF;

    IF p_target = 'payment' THEN
      UPDATE payments p SET
        payment_source_type = p_record->>'payment_source_type',
        source_brand = p_record->>'source_brand',
        source_first6 = p_record->>'source_first6',
        source_last4 = p_record->>'source_last4',
        source_length = (p_record->>'source_length')::integer,
        source_expires_in = p_record->>'source_expires_in',
        billing_info = NULLIF(p_record->'billing_info', 'null'::jsonb),
        payment_status = 'success', paid_ledger_transaction_id = v_tx, transaction_id = p_transaction_id,
        fee_cents = p_fee, paid_at = now(), attempt_lease_until = NULL
       WHERE p.id = p_record_id;
      INSERT INTO callback_deliveries (store_id, payment_id, target_url, body)
      VALUES ((p_callback->>'store_id')::uuid, p_record_id, p_callback->>'target_url', p_callback->>'body');
    ELSE
      INSERT INTO payment_request_payments (
        id, payment_request_id, account_id, ledger_transaction_id, transaction_id, currency, amount_cents, fee_cents,
        source_type, source_brand, source_first6, source_last4, source_length, payer_account_id, payer_user_id,
        payer_email, payer_phone, reference, card_holder_name, country_or_region, billing_info)
      VALUES (
        (p_record->>'id')::uuid, p_record_id, p_payee_account_id, v_tx, p_transaction_id, p_currency, p_amount, p_fee,
        p_record->>'source_type', p_record->>'source_brand', p_record->>'source_first6', p_record->>'source_last4',
        (p_record->>'source_length')::integer, (p_record->>'payer_account_id')::uuid, (p_record->>'payer_user_id')::uuid,
        p_record->>'payer_email', p_record->>'payer_phone', p_record->>'reference', p_record->>'card_holder_name',
        p_record->>'country_or_region', NULLIF(p_record->'billing_info', 'null'::jsonb));
    END IF;

    INSERT INTO activities (account_id, name, comment)
    SELECT x.account_id, x.name, x.comment FROM jsonb_to_recordset(p_activities) AS x(account_id uuid, name text, comment text);
    INSERT INTO audit_log (actor_user_id, action, subject_type, subject_id, details)
    VALUES ((p_audit->>'actor_user_id')::uuid, p_audit->>'action', p_audit->>'subject_type', p_audit->>'subject_id', coalesce(p_audit->'details', '{}'::jsonb));
    -- The payer's receipt and the payee's "you got paid", mailed after commit (modules/notifications).
    IF p_target = 'payment' THEN
      PERFORM notification_event('payment', p_record_id::text);
    ELSE
      PERFORM notification_event('link_payment', p_record->>'id');
    END IF;

    -- Balances last (their row locks are held for the shortest time), in ascending ledger
    -- account id order; only wallets keep a balance (system accounts are their postings' sum).
    IF p_payer_account_id IS NOT NULL AND v_source_la < v_payee_la THEN
      IF NOT ledger_debit(v_source_la, p_amount) THEN v_refusal := 'insufficient_funds'; RAISE EXCEPTION USING ERRCODE = 'KC001'; END IF;
    END IF;
    IF p_amount - p_fee <> 0 THEN PERFORM ledger_credit(v_payee_la, p_amount - p_fee); END IF;
    IF p_payer_account_id IS NOT NULL AND v_source_la > v_payee_la THEN
      IF NOT ledger_debit(v_source_la, p_amount) THEN v_refusal := 'insufficient_funds'; RAISE EXCEPTION USING ERRCODE = 'KC001'; END IF;
    END IF;

    PERFORM idempotency_remember(p_idempotency_caller, p_idempotency_key, p_request_hash, 200, p_answer);
    kind := 'ok';
    body := p_answer;
  EXCEPTION
    WHEN SQLSTATE 'KC001' THEN
      kind := v_refusal;
      body := NULL;
    WHEN unique_violation THEN
      GET STACKED DIAGNOSTICS v_constraint = CONSTRAINT_NAME;
      IF v_constraint IS DISTINCT FROM 'idempotency_keys_pkey' THEN RAISE; END IF;
      SELECT e.kind, e.body INTO kind, body FROM idempotency_earlier(p_idempotency_caller, p_idempotency_key, p_request_hash) e;
  END;
END;
$$;
