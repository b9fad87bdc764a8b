-- No hot row on the way in: credits to a wallet that another transaction is crediting or
-- debiting right now wait here instead of queueing on the wallet's balance row.
--
-- A wallet's balance is its ledger_accounts.balance_cents (the folded part) plus the sum of
-- its rows here (credits not folded yet). Only the holder of the balance row's lock deletes
-- rows here, adding them to balance_cents in the same transaction, so a reader's one
-- snapshot sees each credit exactly once: either still here or already folded. How the two
-- parts are written and read lives in the ledger functions (db/functions: ledger_credit,
-- ledger_debit, ledger_balance); the view below is that reading for plain queries.
-- Credits only (amount > 0): a debit always takes the balance row's lock and folds first, so
-- a wallet's balance can never go below zero (the CHECK on ledger_accounts stands behind it).
CREATE TABLE ledger_pending_credits (
  ledger_account_id bigint NOT NULL REFERENCES ledger_accounts (id),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0)
);
CREATE INDEX ledger_pending_credits_account_idx ON ledger_pending_credits (ledger_account_id);

-- Every wallet ledger account's balance as a person sees it (folded + pending), for the
-- readers that are queries rather than one account's function call (balances pages, the
-- operator console, ledger:verify).
CREATE VIEW wallet_balances AS
SELECT la.id AS ledger_account_id, la.account_id, la.currency,
       la.balance_cents + COALESCE((SELECT SUM(pc.amount_cents) FROM ledger_pending_credits pc WHERE pc.ledger_account_id = la.id), 0)::bigint AS balance_cents
FROM ledger_accounts la
WHERE la.account_id IS NOT NULL;
