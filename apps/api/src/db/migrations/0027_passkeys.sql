-- Passkeys (WebAuthn) as a second factor and as a way to sign in without the password
-- (issue 25; README, Passkeys).
--
-- passkeys: one row per registered credential. id is the credential id as the authenticator
-- gave it (base64url); the public key is the COSE key, base64url. sign_count is the
-- authenticator's signature counter: an assertion whose counter does not move past it is
-- refused (a cloned authenticator), unless the authenticator keeps no counter (both 0).
CREATE TABLE passkeys (
  id text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 60),
  public_key text NOT NULL,
  sign_count bigint NOT NULL DEFAULT 0 CHECK (sign_count >= 0),
  transports text[] NOT NULL DEFAULT '{}',
  backed_up boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX passkeys_user_id_idx ON passkeys (user_id);

-- A WebAuthn ceremony's challenge: 256 random bits, only its SHA-256 stored, single use
-- (used_at), short-lived (expires_at). purpose says which ceremony may spend it; user_id is
-- the person it was made for (null for a passwordless sign-in, where the passkey names them).
-- login_challenge_id binds a second step's challenge to that sign-in's password step.
CREATE TABLE webauthn_challenges (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  purpose text NOT NULL CHECK (purpose IN ('register', 'sign_in', 'second_step')),
  user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  login_challenge_id uuid REFERENCES login_challenges (id) ON DELETE CASCADE,
  challenge_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX webauthn_challenges_expires_at_idx ON webauthn_challenges (expires_at);
