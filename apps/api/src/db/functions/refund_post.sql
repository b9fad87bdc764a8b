-- A refund's ledger step (the collect pipeline in reverse, modules/payments/collect/refund.ts)
-- in one call: the refunded record (a gateway payment, p_target 'payment', or a link payment,
-- 'link') under its row lock, the limits checked there, the fee to return worked out, the
-- owner's wallet debited (never below zero), fee revenue debited by the fee returned, the
-- payer's wallet credited (a wallet payment: the refund is 'succeeded' at once, the store's
-- callback queued) or the system account refunds_in_flight credited (a card payment: the
-- refund is 'processing' until refund_settle), the refund row, activities, audit and the
-- idempotency record (its body names the refund), in one round trip and one transaction.
--
-- The fee returned: fee * (reserved after this refund) / amount, rounded down, less the fee
-- already returned, so the fees returned over all refunds of a payment add up to exactly
-- the fee charged once the whole amount is refunded (the last refund takes the remainder).
--
-- Kinds: ok, replay (refund_id = the first refund), idempotency_mismatch, not_refundable
-- (not paid), window_closed, exceeds_remaining (remaining = what is left), money_movement_locked
-- (the owner's account is locked by an operator), insufficient_funds (the owner's wallet).
-- A refusal writes nothing (the money part is a sub-block that rolls back).
--
-- Locks, in this order: the record's row (FOR UPDATE), the owner's accounts row (FOR SHARE),
-- then the owner's wallet balance through ledger_debit; credits never wait (ledger_credit).
CREATE OR REPLACE FUNCTION refund_post(
  p_target text,
  p_record_id uuid,
  p_refund_id uuid,
  p_amount bigint,
  p_window_days integer,
  p_destination_type text,
  p_destination_account_id uuid,
  p_destination_masked text,
  p_processor_reference text,
  p_transaction_id text,
  p_initiated_by text,
  p_initiated_by_user_id uuid,
  p_initiated_by_name text,
  p_reason text,
  p_activities jsonb,
  p_audit jsonb,
  p_idempotency_caller text,
  p_idempotency_key text,
  p_request_hash text,
  OUT kind text,
  OUT refund_id uuid,
  OUT remaining bigint
) LANGUAGE plpgsql AS $$
DECLARE
  v_record record;
  v_refusal text;
  v_fee bigint;
  v_owner_la bigint;
  v_fee_la bigint;
  v_dest_la bigint;
  v_dest_code text;
  v_tx bigint;
  v_constraint text;
  v_status text;
BEGIN
  SELECT e.kind, (e.body->>'refundId')::uuid INTO kind, refund_id FROM idempotency_earlier(p_idempotency_caller, p_idempotency_key, p_request_hash) e;
  IF kind IS NOT NULL THEN RETURN; END IF;

  BEGIN
    IF p_target = 'payment' THEN
      SELECT p.account_id, p.store_id, p.currency, p.amount_cents, COALESCE(p.fee_cents, 0) AS fee_cents, p.refund_reserved_cents,
             p.fee_returned_cents, p.payment_status = 'success' AS paid, p.paid_at AS paid_at
        INTO v_record FROM payments p WHERE p.id = p_record_id FOR UPDATE;
    ELSE
      SELECT p.account_id, NULL::uuid AS store_id, p.currency, p.amount_cents, p.fee_cents, p.refund_reserved_cents,
             p.fee_returned_cents, true AS paid, p.created_at AS paid_at
        INTO v_record FROM payment_request_payments p WHERE p.id = p_record_id FOR UPDATE;
    END IF;
    IF NOT FOUND OR NOT v_record.paid THEN v_refusal := 'not_refundable'; RAISE EXCEPTION USING ERRCODE = 'KC001'; END IF;
    IF v_record.paid_at < now() - make_interval(days => p_window_days) THEN v_refusal := 'window_closed'; RAISE EXCEPTION USING ERRCODE = 'KC001'; END IF;
    remaining := v_record.amount_cents - v_record.refund_reserved_cents;
    IF p_amount > remaining THEN v_refusal := 'exceeds_remaining'; RAISE EXCEPTION USING ERRCODE = 'KC001'; END IF;
    IF (SELECT a.money_movement_locked FROM accounts a WHERE a.id = v_record.account_id FOR SHARE) THEN
      v_refusal := 'money_movement_locked'; RAISE EXCEPTION USING ERRCODE = 'KC001';
    END IF;

    v_fee := (v_record.fee_cents * (v_record.refund_reserved_cents + p_amount)) / v_record.amount_cents - v_record.fee_returned_cents;
    v_fee := GREATEST(0, LEAST(v_fee, v_record.fee_cents - v_record.fee_returned_cents, p_amount));

    -- The ledger accounts: the owner's wallet, fee revenue, and the payer's wallet or refunds
    -- in flight; a wallet's or system account's first use in a currency opens it.
    SELECT la.id INTO v_owner_la FROM ledger_accounts la WHERE la.account_id = v_record.account_id AND la.currency = v_record.currency;
    IF NOT FOUND THEN v_refusal := 'insufficient_funds'; RAISE EXCEPTION USING ERRCODE = 'KC001'; END IF;
    IF v_fee > 0 THEN
      SELECT la.id INTO v_fee_la FROM ledger_accounts la WHERE la.system_code = 'fee_revenue' AND la.currency = v_record.currency;
      IF NOT FOUND THEN
        INSERT INTO ledger_accounts (system_code, currency) VALUES ('fee_revenue', v_record.currency)
          ON CONFLICT (system_code, currency) WHERE system_code IS NOT NULL DO NOTHING;
        SELECT la.id INTO STRICT v_fee_la FROM ledger_accounts la WHERE la.system_code = 'fee_revenue' AND la.currency = v_record.currency;
      END IF;
    END IF;
    IF p_destination_type = 'wallet' THEN
      SELECT la.id INTO v_dest_la FROM ledger_accounts la WHERE la.account_id = p_destination_account_id AND la.currency = v_record.currency;
      IF NOT FOUND THEN
        INSERT INTO ledger_accounts (account_id, currency) VALUES (p_destination_account_id, v_record.currency)
          ON CONFLICT (account_id, currency) WHERE account_id IS NOT NULL DO NOTHING;
        SELECT la.id INTO STRICT v_dest_la FROM ledger_accounts la WHERE la.account_id = p_destination_account_id AND la.currency = v_record.currency;
      END IF;
      v_status := 'succeeded';
    ELSE
      v_dest_code := 'refunds_in_flight';
      SELECT la.id INTO v_dest_la FROM ledger_accounts la WHERE la.system_code = v_dest_code AND la.currency = v_record.currency;
      IF NOT FOUND THEN
        INSERT INTO ledger_accounts (system_code, currency) VALUES (v_dest_code, v_record.currency)
          ON CONFLICT (system_code, currency) WHERE system_code IS NOT NULL DO NOTHING;
        SELECT la.id INTO STRICT v_dest_la FROM ledger_accounts la WHERE la.system_code = v_dest_code AND la.currency = v_record.currency;
      END IF;
      v_status := 'processing';
    END IF;

    INSERT INTO ledger_transactions (transaction_id, kind, transaction_for, currency, amount_cents, fee_cents, created_by, metadata)
    VALUES (p_transaction_id, 'refund', 'Refund', v_record.currency, p_amount, 0, p_initiated_by_user_id,
            jsonb_build_object('refundId', p_refund_id, 'target', p_target, 'recordId', p_record_id, 'feeReturnedCents', v_fee))
    RETURNING id INTO v_tx;
    INSERT INTO ledger_postings (ledger_transaction_id, ledger_account_id, amount_cents)
    SELECT v_tx, la, amount FROM (VALUES (v_owner_la, -(p_amount - v_fee)), (v_fee_la, -v_fee), (v_dest_la, p_amount)) AS v(la, amount)
     WHERE la IS NOT NULL AND amount <> 0;

    INSERT INTO refunds (id, payment_id, link_payment_id, account_id, store_id, currency, amount_cents, fee_cents, destination_type,
                         destination_account_id, destination_masked, processor_reference, status, reason, initiated_by,
                         initiated_by_user_id, initiated_by_name, ledger_transaction_id, transaction_id, completed_at)
    VALUES (p_refund_id, CASE WHEN p_target = 'payment' THEN p_record_id END, CASE WHEN p_target = 'link' THEN p_record_id END,
            v_record.account_id, v_record.store_id, v_record.currency, p_amount, v_fee, p_destination_type,
            p_destination_account_id, p_destination_masked, p_processor_reference, v_status, p_reason, p_initiated_by,
            p_initiated_by_user_id, p_initiated_by_name, v_tx, p_transaction_id, CASE WHEN v_status = 'succeeded' THEN now() END);

    IF p_target = 'payment' THEN
      UPDATE payments SET refund_reserved_cents = refund_reserved_cents + p_amount, fee_returned_cents = fee_returned_cents + v_fee WHERE id = p_record_id;
      IF v_status = 'succeeded' THEN
        INSERT INTO callback_deliveries (store_id, payment_id, target_url, body)
        SELECT v_record.store_id, p_record_id, s.callback_url, refund_callback_body(p_refund_id) FROM stores s WHERE s.id = v_record.store_id;
      END IF;
    ELSE
      UPDATE payment_request_payments SET refund_reserved_cents = refund_reserved_cents + p_amount, fee_returned_cents = fee_returned_cents + v_fee WHERE id = p_record_id;
    END IF;

    INSERT INTO activities (account_id, name, comment)
    SELECT x.account_id, x.name, x.comment FROM jsonb_to_recordset(p_activities) AS x(account_id uuid, name text, comment text);
    INSERT INTO audit_log (actor_user_id, action, subject_type, subject_id, details)
    VALUES ((p_audit->>'actor_user_id')::uuid, p_audit->>'action', p_audit->>'subject_type', p_audit->>'subject_id',
            coalesce(p_audit->'details', '{}'::jsonb) || jsonb_build_object('refundId', p_refund_id, 'amountCents', p_amount, 'feeReturnedCents', v_fee, 'status', v_status));

    -- Balances last: the owner's wallet is the one debit (it waits for the row and never goes
    -- below zero); fee revenue is a system account; the credit never waits.
    IF p_amount - v_fee > 0 THEN
      IF NOT ledger_debit(v_owner_la, p_amount - v_fee) THEN v_refusal := 'insufficient_funds'; RAISE EXCEPTION USING ERRCODE = 'KC001'; END IF;
    END IF;
    IF v_fee > 0 THEN PERFORM ledger_credit(v_fee_la, -v_fee); END IF;
    PERFORM ledger_credit(v_dest_la, p_amount);

    PERFORM idempotency_remember(p_idempotency_caller, p_idempotency_key, p_request_hash, 200, jsonb_build_object('refundId', p_refund_id));
    kind := 'ok';
    refund_id := p_refund_id;
    remaining := remaining - p_amount;
  EXCEPTION
    WHEN SQLSTATE 'KC001' THEN
      kind := v_refusal;
      refund_id := NULL;
    WHEN unique_violation THEN
      GET STACKED DIAGNOSTICS v_constraint = CONSTRAINT_NAME;
      IF v_constraint IS DISTINCT FROM 'idempotency_keys_pkey' THEN RAISE; END IF;
      SELECT e.kind, (e.body->>'refundId')::uuid INTO kind, refund_id FROM idempotency_earlier(p_idempotency_caller, p_idempotency_key, p_request_hash) e;
  END;
END;
$$;
