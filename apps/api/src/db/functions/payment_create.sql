-- Creating a gateway payment (POST /v1/payment/web-pay, /redirect, and the create step of the
-- direct card payment) in one call: the idempotency record, the store's order id, the payment
-- row and the idempotency record's answer, in one round trip and one database transaction.
--
-- The server makes everything before the call: the payment's id and checkout address
-- (url_id, 128 random bits), its columns (p_payment, snake_case) and the answer (p_answer).
-- It never raises for a refusal; it answers a result kind the TypeScript wrapper
-- (modules/payments/payment-create.ts) maps to the API's exact error:
--   ok (body = p_answer), replay (body = the stored answer), idempotency_mismatch,
--   order_taken (existing_payment_id: the store's payment with that order id).
-- A request racing another with the same key (or the same order id) waits for it on the
-- unique index, then answers what the first one left: its stored answer, or order_taken; one
-- that finds the order's payment already committed asks the key again first, since a request
-- with the same key may have committed between its two look-ups.
CREATE OR REPLACE FUNCTION payment_create(
  p_payment jsonb,
  p_idempotency_caller text,
  p_idempotency_key text,
  p_request_hash text,
  p_answer jsonb,
  OUT kind text,
  OUT body jsonb,
  OUT existing_payment_id uuid
) LANGUAGE plpgsql AS $$
DECLARE
  v_store uuid := (p_payment->>'store_id')::uuid;
  v_order text := p_payment->>'order_id';
  v_constraint text;
BEGIN
  SELECT e.kind, e.body INTO kind, body FROM idempotency_earlier(p_idempotency_caller, p_idempotency_key, p_request_hash) e;
  IF kind IS NOT NULL THEN RETURN; END IF;

  SELECT p.id INTO existing_payment_id FROM payments p WHERE p.store_id = v_store AND p.order_id = v_order;
  IF FOUND THEN
    -- A request with this same key may have committed between the look-up above and this one
    -- (its payment and its key commit together): its answer is this one's, not order_taken.
    SELECT e.kind, e.body INTO kind, body FROM idempotency_earlier(p_idempotency_caller, p_idempotency_key, p_request_hash) e;
    IF kind IS NOT NULL THEN existing_payment_id := NULL; RETURN; END IF;
    kind := 'order_taken';
    RETURN;
  END IF;

  BEGIN
    INSERT INTO payments (
      id, store_id, account_id, url_id, order_id, currency, amount_cents,
      customer_name, customer_email, customer_phone, customer_address, product_name, cancel_url, value_a)
    VALUES (
      (p_payment->>'id')::uuid, v_store, (p_payment->>'account_id')::uuid, p_payment->>'url_id', v_order,
      p_payment->>'currency', (p_payment->>'amount_cents')::bigint,
      p_payment->>'customer_name', p_payment->>'customer_email', p_payment->>'customer_phone',
      p_payment->>'customer_address', p_payment->>'product_name', p_payment->>'cancel_url', p_payment->>'value_a');
    PERFORM idempotency_remember(p_idempotency_caller, p_idempotency_key, p_request_hash, 200, p_answer);
    kind := 'ok';
    body := p_answer;
  EXCEPTION
    WHEN unique_violation THEN
      GET STACKED DIAGNOSTICS v_constraint = CONSTRAINT_NAME;
      IF v_constraint IS DISTINCT FROM 'idempotency_keys_pkey' AND v_constraint IS DISTINCT FROM 'payments_store_order_key' THEN RAISE; END IF;
      -- The other request has committed (the unique index made this one wait for it); each
      -- statement here sees it. The same key: its answer is this one's. Else the order is taken.
      SELECT e.kind, e.body INTO kind, body FROM idempotency_earlier(p_idempotency_caller, p_idempotency_key, p_request_hash) e;
      IF kind IS NOT NULL THEN RETURN; END IF;
      SELECT p.id INTO existing_payment_id FROM payments p WHERE p.store_id = v_store AND p.order_id = v_order;
      IF NOT FOUND THEN RAISE; END IF;
      kind := 'order_taken';
      body := NULL;
  END;
END;
$$;
