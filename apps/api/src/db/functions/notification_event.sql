-- Records that something happened that people are told about (a transfer, a payment, a link
-- payment, a withdrawal's new status), in the caller's transaction: the money functions call
-- it inside their money part, so the event commits or rolls back with the movement. Kind and
-- id only; the dispatcher (modules/notifications) reads the rest after commit and renders the
-- mails, so the money call pays for one small insert and no round trip.
-- PL/pgSQL rather than SQL: its insert's plan is kept for the session (measured cheaper per call).
CREATE OR REPLACE FUNCTION notification_event(p_kind text, p_subject_id text, p_detail jsonb DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO notification_events (kind, subject_id, detail) VALUES (p_kind, p_subject_id, p_detail);
END;
$$;
