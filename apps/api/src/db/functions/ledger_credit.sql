-- Adds an amount to a ledger account, with no floor check: a credit to a wallet, or any
-- change to a system account. How a balance is stored lives here and in ledger_debit /
-- ledger_balance only (the wallet_balances view reads the same way), so callers never
-- touch ledger_accounts.balance_cents themselves.
--
-- No hot row on the way in. A wallet many pay at once (a store, a popular recipient) would
-- otherwise make every payer queue on its balance row's lock until the one ahead commits.
-- Instead a credit takes the row only when nobody holds it (SKIP LOCKED, so it never waits):
-- then it adds its amount and folds in the credits that waited (see below) under that lock.
-- When another transaction holds the row, the credit is appended to ledger_pending_credits
-- (its migration is named ledger_pending_credits), an insert that waits for nobody; the next credit or
-- debit that gets the row folds it in. Readers add the pending rows (ledger_balance, the
-- wallet_balances view), so the balance a person sees includes them.
--
-- System accounts (funding, card clearing, fee revenue, payouts) keep no balance on their
-- row at all: their balance is the sum of their postings, so they are never a hot row and a
-- change to one writes nothing here.
CREATE OR REPLACE FUNCTION ledger_credit(p_ledger_account_id bigint, p_amount_cents bigint)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_wallet boolean;
BEGIN
  IF p_amount_cents = 0 THEN RETURN; END IF;
  -- FOR NO KEY UPDATE does not conflict with the KEY SHARE locks that postings' foreign keys
  -- take on the row, so only a transaction crediting or debiting it right now is skipped.
  PERFORM 1 FROM ledger_accounts WHERE id = p_ledger_account_id AND account_id IS NOT NULL
     FOR NO KEY UPDATE SKIP LOCKED;
  IF FOUND THEN
    -- The credits that waited, folded in by this row lock's holder (the only one who may).
    WITH folded AS (
      DELETE FROM ledger_pending_credits WHERE ledger_account_id = p_ledger_account_id RETURNING amount_cents
    )
    UPDATE ledger_accounts
       SET balance_cents = balance_cents + p_amount_cents + COALESCE((SELECT SUM(amount_cents) FROM folded), 0)
     WHERE id = p_ledger_account_id;
    RETURN;
  END IF;
  SELECT account_id IS NOT NULL INTO v_wallet FROM ledger_accounts WHERE id = p_ledger_account_id;
  IF v_wallet IS NULL THEN RAISE EXCEPTION 'ledger account % does not exist', p_ledger_account_id; END IF;
  IF NOT v_wallet THEN RETURN; END IF;
  -- A wallet's balance only falls through ledger_debit, which checks the floor.
  IF p_amount_cents < 0 THEN RAISE EXCEPTION 'a credit to wallet ledger account % is negative (use ledger_debit)', p_ledger_account_id; END IF;
  INSERT INTO ledger_pending_credits (ledger_account_id, amount_cents) VALUES (p_ledger_account_id, p_amount_cents);
END;
$$;
