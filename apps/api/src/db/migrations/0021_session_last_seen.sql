-- My Account → Security lists a user's signed-in devices with when each was last used.
-- Written by the session lookup at most once a minute per session (sessions.repository.ts),
-- so it costs no write on a usual request.
ALTER TABLE sessions ADD COLUMN last_seen_at timestamptz;
UPDATE sessions SET last_seen_at = created_at;
ALTER TABLE sessions ALTER COLUMN last_seen_at SET DEFAULT now();
ALTER TABLE sessions ALTER COLUMN last_seen_at SET NOT NULL;
