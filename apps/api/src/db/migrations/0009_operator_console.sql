-- Operator console.

-- An operator may stop every movement of money out of an account (transfers, withdrawals,
-- new stores) while something is looked into; the reason is kept with the lock and in the
-- audit log. The same checks that honour the TPIN lock honour this one.
ALTER TABLE accounts ADD COLUMN money_movement_locked boolean NOT NULL DEFAULT false;
ALTER TABLE accounts ADD COLUMN money_movement_lock_reason text;
ALTER TABLE accounts ADD CONSTRAINT accounts_money_lock_reason CHECK (NOT money_movement_locked OR money_movement_lock_reason IS NOT NULL);

-- "Ask for new documents": the documents reviewed so far are set aside (kept, for the
-- record) and the account leaves the review queue until the holder uploads new ones.
ALTER TABLE identity_documents ADD COLUMN set_aside_at timestamptz;

CREATE INDEX audit_log_created_idx ON audit_log (created_at DESC, id DESC);
