-- The e-mails and SMS a wallet sends (issue 25; README, "The e-mails Kestrel sends").
--
-- A money movement writes one notification event inside its own database call (the
-- notification_event function, called by ledger_transfer, collect_post, withdrawal_request
-- and withdrawal_move), and TypeScript code writes one in the caller's transaction (a sign-in
-- from a new device). The event names what happened by kind and id, nothing more: it commits
-- or rolls back with the movement. A dispatcher after commit (modules/notifications) claims
-- due events FOR UPDATE SKIP LOCKED, renders the mails by each recipient's preference and
-- writes them to the outbox in the transaction that marks the event dispatched, so each
-- event's mails are written once; a failing event is retried with back-off. Dispatched and
-- given-up events are deleted NOTIFICATION_KEEP_DAYS after they were written.
CREATE TABLE notification_events (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('transfer', 'payment', 'link_payment', 'withdrawal', 'new_device_sign_in')),
  -- The row the event is about: a ledger transaction (transfer), a payment, a link payment,
  -- a withdrawal, a user (sign-in).
  subject_id text NOT NULL,
  -- What the row will not say later: the withdrawal status this move set, the sign-in's address.
  detail jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'dispatched', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  dispatched_at timestamptz,
  last_error text,
  CHECK ((state = 'dispatched') = (dispatched_at IS NOT NULL))
);
CREATE INDEX notification_events_due_idx ON notification_events (next_attempt_at, id) WHERE state = 'pending';
-- For pruning: a new (pending) event has no entry here, so the money call's insert does not pay for it.
CREATE INDEX notification_events_done_idx ON notification_events (created_at) WHERE state <> 'pending';

-- The outbox learns which channel a row is (an SMS is stored beside the mails: no SMS provider
-- is reachable here), which template and event wrote it, and, for SMTP, when to try again.
ALTER TABLE mail_messages
  ADD COLUMN channel text NOT NULL DEFAULT 'email' CHECK (channel IN ('email', 'sms')),
  ADD COLUMN template text,
  -- No foreign key: events are pruned a while after dispatch (the dispatcher), their mails stay.
  ADD COLUMN event_id bigint,
  ADD COLUMN attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN next_attempt_at timestamptz;
-- One mail of a kind per event, whatever happens to the dispatcher.
CREATE UNIQUE INDEX mail_messages_event_template_key ON mail_messages (event_id, template) WHERE event_id IS NOT NULL;
-- Staged SMTP mails not yet accepted by the server, for the retry sweep.
CREATE INDEX mail_messages_smtp_due_idx ON mail_messages (next_attempt_at) WHERE sent_at IS NULL AND next_attempt_at IS NOT NULL;

-- "You got paid" mails per store: on unless the owner switches them off on the store page.
ALTER TABLE stores ADD COLUMN notify_on_payment boolean NOT NULL DEFAULT true;
