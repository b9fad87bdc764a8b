-- Whether an account may move money now, for the one-call money functions that act for an
-- account holder (collect_post for a wallet payer, withdrawal_request, withdrawal_move for the
-- owner's cancel): takes the account's row FOR SHARE (its operator and TPIN locks cannot
-- change until the caller's transaction ends) and answers kind NULL when it may;
-- 'money_movement_locked' (an operator's lock); 'tpin_locked' with locked_until (too many
-- wrong TPINs); 'account_missing' when there is no such account.
CREATE OR REPLACE FUNCTION account_movement_refusal(p_account_id uuid, OUT kind text, OUT locked_until timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  v_account record;
BEGIN
  SELECT a.tpin_locked_until, a.money_movement_locked INTO v_account FROM accounts a WHERE a.id = p_account_id FOR SHARE;
  IF NOT FOUND THEN kind := 'account_missing'; RETURN; END IF;
  IF v_account.money_movement_locked THEN kind := 'money_movement_locked'; RETURN; END IF;
  IF v_account.tpin_locked_until IS NOT NULL AND v_account.tpin_locked_until > clock_timestamp() THEN
    kind := 'tpin_locked';
    locked_until := v_account.tpin_locked_until;
  END IF;
END;
$$;
