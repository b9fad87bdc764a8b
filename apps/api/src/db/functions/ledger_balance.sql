-- A ledger account's balance as a person sees it (e.g. the sender's balance in a transfer's
-- answer, read after ledger_debit under the same row lock): for a wallet, the folded part
-- on its row plus the credits still pending (see ledger_credit); for a system account, the
-- sum of its postings.
CREATE OR REPLACE FUNCTION ledger_balance(p_ledger_account_id bigint)
RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN la.account_id IS NOT NULL
    THEN la.balance_cents + COALESCE((SELECT SUM(pc.amount_cents) FROM ledger_pending_credits pc WHERE pc.ledger_account_id = la.id), 0)
    ELSE (SELECT COALESCE(SUM(p.amount_cents), 0) FROM ledger_postings p WHERE p.ledger_account_id = la.id)
  END::bigint
  FROM ledger_accounts la WHERE la.id = p_ledger_account_id;
$$;
