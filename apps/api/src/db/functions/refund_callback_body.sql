-- The store's refund callback body (contracts/refunds.ts storeRefundCallbackEvent), made inside
-- the transaction that makes the refund succeed (refund_post for a wallet payment, refund_settle
-- for a card), so its totals are the payment's under that transaction's row lock. Amounts in
-- major units as JSON numbers (12.5); json_build_object keeps the fields in this order, and
-- the callback worker signs the text exactly as stored.
CREATE OR REPLACE FUNCTION refund_callback_body(p_refund_id uuid)
RETURNS text LANGUAGE sql STABLE AS $$
  SELECT json_build_object(
    'event', 'refund.succeeded',
    'refundId', r.id,
    'paymentId', p.id,
    'orderId', p.order_id,
    'currency', r.currency,
    'amount', trim_scale(r.amount_cents / 100.0),
    'fee', trim_scale(r.fee_cents / 100.0),
    'amountRefunded', trim_scale(done.total / 100.0),
    'amountRemaining', trim_scale((p.amount_cents - done.total) / 100.0),
    'refundStatus', 'succeeded',
    'tnxId', r.transaction_id,
    'refundedAt', to_char(COALESCE(r.completed_at, now()) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  )::text
  FROM refunds r
  JOIN payments p ON p.id = r.payment_id
  CROSS JOIN LATERAL (
    SELECT COALESCE(SUM(o.amount_cents), 0)::bigint AS total FROM refunds o
     WHERE o.payment_id = r.payment_id AND (o.status = 'succeeded' OR o.id = r.id)
  ) done
  WHERE r.id = p_refund_id;
$$;
