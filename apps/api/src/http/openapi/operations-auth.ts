import type { OperationDoc } from './operations.ts';

/* Signing in and keeping an account safe: password, second factors (app, passkeys, recovery codes), sessions, password reset. */

export const authOperations: Record<string, OperationDoc> = {
  'POST /v1/auth/login': {
    operationId: 'login',
    tag: 'Auth',
    description:
      'Signs in with e-mail and password and answers a session token for the `Authorization` header. Repeated failures are limited per address and per account (429). With two-factor sign-in on (an authenticator app or a passkey), the right password answers `secondStep`, a `challengeToken` and, with a passkey, `passkey` (the options for `navigator.credentials.get`) instead (no session, no cookie): finish with `POST /v1/auth/login/second-step`.',
    requestExample: { email: 'ada@example.org', password: 'correct horse battery staple' },
  },
  'POST /v1/auth/login/second-step': {
    operationId: 'loginSecondStep',
    tag: 'Auth',
    description:
      "Finishes a sign-in with two-factor sign-in on: the password step's `challengeToken` (single use, 5 minutes, dead after 5 wrong codes) and a `code`, the authenticator app's 6 digits (one 30-second step either side is taken; a code already used is refused) or a recovery code (each works once) — or, when the person has a passkey, a `passkey`: its assertion over the password step's `passkey.challenge` (made for this sign-in only). Answers the session as `POST /v1/auth/login` does. A challenge that is unknown, used or expired, and a wrong code, are 401; code checks are limited per account like passwords (429).",
    requestExample: { challengeToken: 'q0H3mU2cS1bXk9vO7y4dR6tJ8wLpZ5aE3nF1gC0hI2s', code: '492039' },
  },
  'GET /v1/auth/two-factor': {
    operationId: 'getTwoFactor',
    tag: 'Auth',
    description: "Whether the caller's two-factor sign-in (an authenticator app) is on, and how many unused recovery codes are left.",
  },
  'POST /v1/auth/two-factor/setup': {
    operationId: 'startTwoFactorSetup',
    tag: 'Auth',
    description:
      "Makes a new authenticator-app secret (RFC 6238: SHA-1, 6 digits, 30 s) and answers it as base32 text and as the `otpauth://` URI a QR code holds. Asks for the account's current `password` (re-authentication: a stolen session must not add a second factor of the thief's), checked as the sign-in checks it — a wrong one is 400 `password_invalid` with `fields.password`, and counts towards the sign-in's limits (429 `login_rate_limited`). It stays off until `POST /v1/auth/two-factor/enable` confirms a code; asking again replaces a secret not yet confirmed. 409 when two-factor sign-in is already on.",
    requestExample: { password: 'correct horse battery staple' },
  },
  'POST /v1/auth/two-factor/enable': {
    operationId: 'enableTwoFactor',
    tag: 'Auth',
    description:
      "Turns two-factor sign-in on with a current code from the app and the account's current `password` (as for the setup), and answers ten single-use recovery codes, shown this once (only a keyed hash of each is kept). A wrong password is 400 `password_invalid`; a wrong or reused code 400; no setup started, or already on, 409; password and code checks are limited like sign-ins (429). Mails a security notice.",
    requestExample: { code: '492039', password: 'correct horse battery staple' },
  },
  'POST /v1/auth/two-factor/recovery-codes': {
    operationId: 'renewRecoveryCodes',
    tag: 'Auth',
    description:
      'Makes ten new single-use recovery codes, shown this once, with a current code from the app (a recovery code is not taken here, so one leaked code cannot make a new set); the old codes stop working. A wrong or reused code is 400; two-factor sign-in not on with an app, 409; limited like passwords (429). Audited and mailed.',
    requestExample: { code: '492039' },
  },
  'POST /v1/auth/two-factor/disable': {
    operationId: 'disableTwoFactor',
    tag: 'Auth',
    description:
      "Turns the authenticator app off with a current code: the app's 6 digits or an unused recovery code. The secret and the recovery codes are deleted; the person's passkeys, if any, still answer the second step (two-factor sign-in stays on with them). A wrong or reused code is 400; no app on, 409; limited like passwords (429). Mails a security notice saying which.",
    requestExample: { code: '492039' },
  },
  'POST /v1/auth/login/passkey/options': {
    operationId: 'passkeySignInOptions',
    tag: 'Auth',
    description:
      "Starts a sign-in with a passkey, without the password: the options for `navigator.credentials.get` (WebAuthn's JSON form, as `@simplewebauthn/browser`'s `startAuthentication` takes them). No credential is named: the browser offers the passkeys it holds for this site. The challenge is 256 random bits, single use, valid 5 minutes; only its SHA-256 is kept. Limited per address (429).",
  },
  'POST /v1/auth/login/passkey': {
    operationId: 'passkeySignIn',
    tag: 'Auth',
    description:
      "Signs in with a passkey's assertion over a challenge from `POST /v1/auth/login/passkey/options` and answers the session as `POST /v1/auth/login` does. The challenge is spent by the first answer that names it; the signature, origin, relying-party id, user verification, user handle and the authenticator's counter (it must move on, unless the authenticator keeps none) are checked. An unknown, used or expired challenge, an unknown or removed passkey and a failed check are 401; failures are limited per account like passwords (429).",
    requestExample: {
      credential: {
        id: 'hjq4kxWcS1bXk9vO7y4dR6tJ8wLpZ5aE3nF1gC0hI2s',
        rawId: 'hjq4kxWcS1bXk9vO7y4dR6tJ8wLpZ5aE3nF1gC0hI2s',
        type: 'public-key',
        response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0', authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ', signature: 'MEUCIQDx', userHandle: 'a2VzdHJlbC11c2Vy' },
        clientExtensionResults: {},
      },
    },
  },
  'GET /v1/auth/passkeys': {
    operationId: 'listPasskeys',
    tag: 'Auth',
    description: "The caller's passkeys, oldest first: name, when added and last used, and whether it is synced.",
  },
  'POST /v1/auth/passkeys/options': {
    operationId: 'passkeyRegistrationOptions',
    tag: 'Auth',
    description:
      "Starts adding a passkey, with the account's current `password` (re-authentication, checked as the sign-in checks it: a wrong one is 400 `password_invalid` with `fields.password` and counts towards the sign-in's limits, 429 `login_rate_limited`): the options for `navigator.credentials.create` (as `@simplewebauthn/browser`'s `startRegistration` takes them): a discoverable credential, 'none' attestation, the caller's passkeys excluded. The challenge is made only once the password was right, is single use and valid 5 minutes; `POST /v1/auth/passkeys` takes no passkey without one. 409 at the limit of passkeys.",
    requestExample: { password: 'correct horse battery staple' },
  },
  'POST /v1/auth/passkeys/confirm/options': {
    operationId: 'passkeyConfirmOptions',
    tag: 'Auth',
    description:
      "Starts confirming a change with one of the caller's passkeys (removing a passkey): the options for `navigator.credentials.get`, the caller's passkeys allowed. The challenge is made for the caller only, single use, valid 5 minutes. 404 when the caller has no passkey.",
  },
  'POST /v1/auth/passkeys': {
    operationId: 'addPasskey',
    tag: 'Auth',
    description:
      "Adds a passkey: a name and the browser's attestation over a challenge from `POST /v1/auth/passkeys/options` made for the caller. From then on two-factor sign-in is on: the password step asks for a second step, which the passkey (or an authenticator app's code) answers. A used, expired or another person's challenge and a failed check are 400; a passkey already registered is 409. Mails a security notice.",
    requestExample: {
      name: 'My laptop',
      credential: {
        id: 'hjq4kxWcS1bXk9vO7y4dR6tJ8wLpZ5aE3nF1gC0hI2s',
        rawId: 'hjq4kxWcS1bXk9vO7y4dR6tJ8wLpZ5aE3nF1gC0hI2s',
        type: 'public-key',
        response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0', attestationObject: 'o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YQ', transports: ['internal'] },
        clientExtensionResults: {},
      },
    },
  },
  'PATCH /v1/auth/passkeys/:passkeyId': {
    operationId: 'renamePasskey',
    tag: 'Auth',
    description: "Renames one of the caller's passkeys; anything else is 404.",
    requestExample: { name: 'Old laptop' },
  },
  'POST /v1/auth/passkeys/:passkeyId/remove': {
    operationId: 'removePasskey',
    tag: 'Auth',
    description:
      "Removes one of the caller's passkeys, confirmed with a current second factor, as turning the app off is: a `code` (the authenticator app's 6 digits or an unused recovery code, with the app on) or a `passkey`, an assertion of one of the caller's passkeys over a challenge from `POST /v1/auth/passkeys/confirm/options` (the way for a person whose second factors are all passkeys). Not the password: a second factor is not taken away with the first. A wrong code or assertion is 400; anything but the caller's passkey is 404; checks are limited like codes (429). Mails a security notice; when it was the last second factor, two-factor sign-in is off and the 'turned off' notice is mailed too.",
    requestExample: { code: '492039' },
  },
  'POST /v1/auth/logout': {
    operationId: 'logout',
    tag: 'Auth',
    description: 'Revokes the session behind the token; the token stops working at once.',
  },
  'GET /v1/auth/sessions': {
    operationId: 'listSessions',
    tag: 'Auth',
    description: "The caller's signed-in devices (live sessions), most recently used first: browser and system read from the User-Agent, address, when signed in and last seen (updated at most once a minute), and which one is asking.",
  },
  'DELETE /v1/auth/sessions/:sessionId': {
    operationId: 'signOutSession',
    tag: 'Auth',
    description: "Signs one of the caller's other devices out at once. Anything but one of the caller's live sessions is 404; the session asking is 409 (Logout ends it).",
  },
  'POST /v1/auth/sessions/sign-out-others': {
    operationId: 'signOutOtherSessions',
    tag: 'Auth',
    description: 'Signs every device of the caller out except the one asking, and answers how many it ended.',
  },
  'POST /v1/auth/forgot-password': {
    operationId: 'requestPasswordReset',
    tag: 'Auth',
    description: 'Mails a single-use password reset link, valid 30 minutes, when the address has an account; the answer is the same either way. Limited per e-mail and per address (429).',
    requestExample: { email: 'ada@example.org' },
  },
  'POST /v1/auth/reset-password': {
    operationId: 'resetPassword',
    tag: 'Auth',
    description: "Sets a new password with a mailed reset link's token (the sign-up's rules); the link is spent and every session of the account ends. A used, expired or unknown link is 400.",
    requestExample: { token: 'rst_4f3c2a1b0e9d8c7b6a5f4e3d', password: 'correct horse battery staple', confirmPassword: 'correct horse battery staple' },
  },
};
