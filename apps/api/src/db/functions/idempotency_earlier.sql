-- What an earlier request with this idempotency key decided, for the one-call money functions
-- (collect_post, ledger_transfer, payment_create, refund_post, withdrawal_request,
-- withdrawal_move): kind 'replay' with the first answer's body when the same request came with
-- this key before; 'idempotency_mismatch' (body NULL) when another request used it; NULL when
-- the key is new or none was given. Each statement of the caller takes a fresh snapshot, so
-- asked after a unique violation on idempotency_keys (the other request has committed) it
-- reads the winner's row.
CREATE OR REPLACE FUNCTION idempotency_earlier(p_caller text, p_key text, p_request_hash text, OUT kind text, OUT body jsonb)
LANGUAGE plpgsql AS $$
DECLARE
  v_stored record;
BEGIN
  IF p_key IS NULL THEN RETURN; END IF;
  SELECT k.request_hash, k.response_body INTO v_stored FROM idempotency_keys k WHERE k.caller = p_caller AND k.idempotency_key = p_key;
  IF NOT FOUND THEN RETURN; END IF;
  IF v_stored.request_hash = p_request_hash THEN
    kind := 'replay';
    body := v_stored.response_body;
  ELSE
    kind := 'idempotency_mismatch';
  END IF;
END;
$$;
