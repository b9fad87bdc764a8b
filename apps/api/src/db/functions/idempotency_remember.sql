-- Keeps a money function's answer under the request's idempotency key (nothing when none was
-- given), in the function's own transaction, as its last write: the counterpart of
-- idempotency_earlier, used by collect_post, ledger_transfer, payment_create, refund_post,
-- withdrawal_request and withdrawal_move. A concurrent request with the same key makes this
-- insert wait for it, then fail with a unique violation, which the caller catches: its money
-- part rolls back and it answers what the first request left (idempotency_earlier).
CREATE OR REPLACE FUNCTION idempotency_remember(p_caller text, p_key text, p_request_hash text, p_status integer, p_body jsonb)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_key IS NULL THEN RETURN; END IF;
  INSERT INTO idempotency_keys (caller, idempotency_key, request_hash, response_status, response_body)
  VALUES (p_caller, p_key, p_request_hash, p_status, p_body);
END;
$$;
