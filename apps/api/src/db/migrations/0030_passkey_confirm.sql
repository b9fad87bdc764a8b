-- A passkey confirms a change on My Account → Security (issue 25; README, Passkeys): removing
-- a passkey asks for a current second factor, and for a person whose second factors are all
-- passkeys that is one of them. Its challenge is made for the signed-in person (user_id) and
-- spent by the removal, like the other ceremonies' challenges.
ALTER TABLE webauthn_challenges DROP CONSTRAINT webauthn_challenges_purpose_check;
ALTER TABLE webauthn_challenges ADD CONSTRAINT webauthn_challenges_purpose_check CHECK (purpose IN ('register', 'sign_in', 'second_step', 'confirm'));
