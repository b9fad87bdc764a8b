-- Two-factor sign-in with an authenticator app (issue 25; README, Two-factor sign-in).
--
-- user_totp: one row per person who started enrolment. The TOTP secret is kept sealed with
-- AES-256-GCM under a key derived from SECRET_KEY (never in plain text); enabled_at is set
-- once a code has confirmed it. last_used_step is the last 30-second step whose code was
-- accepted: a code is taken only for a later step, so a code cannot be replayed.
CREATE TABLE user_totp (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret_sealed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  enabled_at timestamptz,
  last_used_step bigint
);

-- Ten single-use recovery codes per person, stored only as a keyed hash (HMAC-SHA256 under a
-- key derived from SECRET_KEY); used_at spends one.
CREATE TABLE recovery_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  used_at timestamptz,
  UNIQUE (user_id, code_hash)
);

-- The second step of a sign-in: after the right password, a person with 2FA on gets a
-- short-lived, single-use challenge token (only its SHA-256 is stored), not a session.
-- failed_attempts counts wrong codes; a challenge with too many is spent.
CREATE TABLE login_challenges (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  failed_attempts integer NOT NULL DEFAULT 0
);
CREATE INDEX login_challenges_user_id_idx ON login_challenges (user_id);
