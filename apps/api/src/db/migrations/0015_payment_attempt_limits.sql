-- Payment attempts that can neither be used for card testing nor lose a link's use
-- (issue 19, items 4 and 9). Tables only.

-- Declines are counted per payment and per store per hour: each kept refusal says what it
-- was (the processor's decline code, or the refusal's code) and, for the gateway, which store.
ALTER TABLE payment_errors ADD COLUMN error_code text;
ALTER TABLE payment_errors ADD COLUMN store_id uuid REFERENCES stores (id);
CREATE INDEX payment_errors_store_declines_idx ON payment_errors (store_id, error_at)
  WHERE error_code IN ('card_declined', 'insufficient_funds', 'incorrect_cvc');
ALTER TABLE payment_request_errors ADD COLUMN error_code text;
CREATE INDEX payment_request_errors_declines_idx ON payment_request_errors (payment_request_id, error_at)
  WHERE error_code IN ('card_declined', 'insufficient_funds', 'incorrect_cvc');

-- A card attempt on a link holds one use until it is recorded, declined or the hold expires:
-- use_limit stays the number of uses REMAINING (spent only when a payment is recorded), and
-- held_uses counts the live holds, so a new hold is taken only while use_limit > held_uses.
-- A process that dies between taking a hold and recording the payment leaves a hold that
-- expires (the next attempt on the link sweeps it), and an owner's new limit counts the
-- holds in flight: a declined card gives back its hold, never a use on top of the new limit.
ALTER TABLE payment_requests ADD COLUMN held_uses integer NOT NULL DEFAULT 0 CHECK (held_uses >= 0);

CREATE TABLE payment_request_holds (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  payment_request_id uuid NOT NULL REFERENCES payment_requests (id),
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_request_holds_request_idx ON payment_request_holds (payment_request_id, expires_at);
CREATE INDEX payment_request_holds_expiry_idx ON payment_request_holds (expires_at);
