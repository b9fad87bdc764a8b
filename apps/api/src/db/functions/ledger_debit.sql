-- Takes an amount from a wallet only if its balance stays at or above zero: answers false,
-- and changes nothing, when it would not. See ledger_credit for how a balance is stored.
--
-- The debit takes the wallet's balance row lock and waits for it (two debits of one wallet
-- run one after the other, and a debit waits for a credit that holds the row to commit),
-- then folds in every pending credit that has committed (each statement of this function
-- sees what committed before it started, and only the lock holder deletes pending rows, so
-- none is counted twice or lost; one that commits later stays pending). The check is on the
-- folded balance: money not committed yet is never spent, and the CHECK on ledger_accounts
-- stands behind it. A refused debit's fold is kept (it changes no balance a person sees).
--
-- A system account's balance is the sum of its postings (nothing stored): answers true.
CREATE OR REPLACE FUNCTION ledger_debit(p_ledger_account_id bigint, p_amount_cents bigint)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  v_wallet boolean;
  v_balance bigint;
  v_folded bigint;
BEGIN
  SELECT account_id IS NOT NULL, balance_cents INTO v_wallet, v_balance FROM ledger_accounts
   WHERE id = p_ledger_account_id FOR NO KEY UPDATE;
  IF v_wallet IS NULL THEN RAISE EXCEPTION 'ledger account % does not exist', p_ledger_account_id; END IF;
  IF NOT v_wallet THEN RETURN true; END IF;
  IF p_amount_cents < 0 THEN RAISE EXCEPTION 'a debit of wallet ledger account % is negative (use ledger_credit)', p_ledger_account_id; END IF;
  WITH folded AS (
    DELETE FROM ledger_pending_credits WHERE ledger_account_id = p_ledger_account_id RETURNING amount_cents
  )
  SELECT COALESCE(SUM(amount_cents), 0) INTO v_folded FROM folded;
  IF v_balance + v_folded < p_amount_cents THEN
    IF v_folded <> 0 THEN UPDATE ledger_accounts SET balance_cents = balance_cents + v_folded WHERE id = p_ledger_account_id; END IF;
    RETURN false;
  END IF;
  UPDATE ledger_accounts SET balance_cents = balance_cents + v_folded - p_amount_cents WHERE id = p_ledger_account_id;
  RETURN true;
END;
$$;
