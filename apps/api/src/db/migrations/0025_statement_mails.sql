-- Monthly statements (issue 26): one row per account and UTC month whose "your statement is
-- ready" mail was staged, written in the mail's own transaction, so each account is mailed once
-- a month however many API processes run the job or how often it runs.
CREATE TABLE statement_mails (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  month text NOT NULL CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  mailed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, month)
);
