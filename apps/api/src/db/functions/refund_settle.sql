-- A card refund's last step (modules/payments/collect/refund.ts), in one call, after the
-- processor answered (or the recovery sweep asked it again): the refund under its row lock,
-- still 'processing' or nothing happens (kind 'already_settled', with the status it has), then
-- either
--   p_outcome 'succeeded': refunds in flight → card clearing (the money leaves through the
--     card network), the refund 'succeeded', the store's callback queued; or
--   p_outcome 'failed': refunds in flight → the owner's wallet and fee revenue, exactly what
--     refund_post took, the payment's reserved amount and returned fee given back, the
--     refund 'failed' with the processor's reason,
-- with the activity and the audit entry. Locks: the refunded record's row (FOR UPDATE, the
-- same order as refund_post), then the refund's; credits never wait.
CREATE OR REPLACE FUNCTION refund_settle(
  p_refund_id uuid,
  p_outcome text,
  p_failure_reason text,
  p_transaction_id text,
  p_activities jsonb,
  p_audit jsonb,
  OUT kind text,
  OUT status text
) LANGUAGE plpgsql AS $$
DECLARE
  v_refund record;
  v_inflight_la bigint;
  v_other_la bigint;
  v_fee_la bigint;
  v_tx bigint;
BEGIN
  SELECT r.payment_id, r.link_payment_id INTO v_refund FROM refunds r WHERE r.id = p_refund_id;
  IF NOT FOUND THEN kind := 'not_found'; RETURN; END IF;
  IF v_refund.payment_id IS NOT NULL THEN
    PERFORM 1 FROM payments WHERE id = v_refund.payment_id FOR UPDATE;
  ELSE
    PERFORM 1 FROM payment_request_payments WHERE id = v_refund.link_payment_id FOR UPDATE;
  END IF;
  SELECT r.* INTO v_refund FROM refunds r WHERE r.id = p_refund_id FOR UPDATE;
  IF v_refund.status <> 'processing' THEN kind := 'already_settled'; status := v_refund.status; RETURN; END IF;

  SELECT la.id INTO STRICT v_inflight_la FROM ledger_accounts la WHERE la.system_code = 'refunds_in_flight' AND la.currency = v_refund.currency;
  IF p_outcome = 'succeeded' THEN
    SELECT la.id INTO v_other_la FROM ledger_accounts la WHERE la.system_code = 'card_clearing' AND la.currency = v_refund.currency;
    IF NOT FOUND THEN
      INSERT INTO ledger_accounts (system_code, currency) VALUES ('card_clearing', v_refund.currency)
        ON CONFLICT (system_code, currency) WHERE system_code IS NOT NULL DO NOTHING;
      SELECT la.id INTO STRICT v_other_la FROM ledger_accounts la WHERE la.system_code = 'card_clearing' AND la.currency = v_refund.currency;
    END IF;
    INSERT INTO ledger_transactions (transaction_id, kind, transaction_for, currency, amount_cents, fee_cents, created_by, metadata)
    VALUES (p_transaction_id, 'refund_settlement', 'Refund settlement', v_refund.currency, v_refund.amount_cents, 0, NULL,
            jsonb_build_object('refundId', p_refund_id))
    RETURNING id INTO v_tx;
    INSERT INTO ledger_postings (ledger_transaction_id, ledger_account_id, amount_cents)
    VALUES (v_tx, v_inflight_la, -v_refund.amount_cents), (v_tx, v_other_la, v_refund.amount_cents);
    PERFORM ledger_credit(v_inflight_la, -v_refund.amount_cents);
    PERFORM ledger_credit(v_other_la, v_refund.amount_cents);
    UPDATE refunds SET status = 'succeeded', settle_ledger_transaction_id = v_tx, completed_at = now() WHERE id = p_refund_id;
    IF v_refund.payment_id IS NOT NULL THEN
      INSERT INTO callback_deliveries (store_id, payment_id, target_url, body)
      SELECT v_refund.store_id, v_refund.payment_id, s.callback_url, refund_callback_body(p_refund_id) FROM stores s WHERE s.id = v_refund.store_id;
    END IF;
  ELSE
    SELECT la.id INTO STRICT v_other_la FROM ledger_accounts la WHERE la.account_id = v_refund.account_id AND la.currency = v_refund.currency;
    INSERT INTO ledger_transactions (transaction_id, kind, transaction_for, currency, amount_cents, fee_cents, created_by, metadata)
    VALUES (p_transaction_id, 'refund_reversal', 'Refund returned', v_refund.currency, v_refund.amount_cents, 0, NULL,
            jsonb_build_object('refundId', p_refund_id, 'feeReturnedCents', v_refund.fee_cents))
    RETURNING id INTO v_tx;
    IF v_refund.fee_cents > 0 THEN
      SELECT la.id INTO STRICT v_fee_la FROM ledger_accounts la WHERE la.system_code = 'fee_revenue' AND la.currency = v_refund.currency;
    END IF;
    INSERT INTO ledger_postings (ledger_transaction_id, ledger_account_id, amount_cents)
    SELECT v_tx, la, amount FROM (VALUES (v_inflight_la, -v_refund.amount_cents), (v_other_la, v_refund.amount_cents - v_refund.fee_cents), (v_fee_la, v_refund.fee_cents)) AS v(la, amount)
     WHERE la IS NOT NULL AND amount <> 0;
    PERFORM ledger_credit(v_inflight_la, -v_refund.amount_cents);
    IF v_refund.fee_cents > 0 THEN PERFORM ledger_credit(v_fee_la, v_refund.fee_cents); END IF;
    IF v_refund.amount_cents - v_refund.fee_cents > 0 THEN PERFORM ledger_credit(v_other_la, v_refund.amount_cents - v_refund.fee_cents); END IF;
    UPDATE refunds SET status = 'failed', settle_ledger_transaction_id = v_tx, failure_reason = p_failure_reason, completed_at = now() WHERE id = p_refund_id;
    IF v_refund.payment_id IS NOT NULL THEN
      UPDATE payments SET refund_reserved_cents = refund_reserved_cents - v_refund.amount_cents, fee_returned_cents = fee_returned_cents - v_refund.fee_cents
       WHERE id = v_refund.payment_id;
    ELSE
      UPDATE payment_request_payments SET refund_reserved_cents = refund_reserved_cents - v_refund.amount_cents, fee_returned_cents = fee_returned_cents - v_refund.fee_cents
       WHERE id = v_refund.link_payment_id;
    END IF;
  END IF;

  INSERT INTO activities (account_id, name, comment)
  SELECT x.account_id, x.name, x.comment FROM jsonb_to_recordset(p_activities) AS x(account_id uuid, name text, comment text);
  INSERT INTO audit_log (actor_user_id, action, subject_type, subject_id, details)
  VALUES ((p_audit->>'actor_user_id')::uuid, p_audit->>'action', p_audit->>'subject_type', p_audit->>'subject_id', coalesce(p_audit->'details', '{}'::jsonb));
  kind := 'ok';
  SELECT r.status INTO status FROM refunds r WHERE r.id = p_refund_id;
END;
$$;
