import { z } from 'zod';
import { withExample } from '../contract-examples.ts';
import { passkeyMessages } from '../passkey-messages.ts';
import { currentPassword } from './auth.ts';

const m = passkeyMessages;

/*
 * Passkeys (WebAuthn; issue 25; README, Passkeys). The ceremonies' options and answers are
 * WebAuthn's JSON forms (what @simplewebauthn's browser part sends and takes): binary values
 * as base64url text. The server makes every challenge and keeps only its digest.
 */

const base64url = (max: number) => z.string().max(max).regex(/^[A-Za-z0-9_-]*$/, 'Must be base64url');

/** The extension outputs the browser reports (none is used here; the others are dropped). */
const clientExtensionResults = z
  .object({ appid: z.boolean().optional(), credProps: z.object({ rk: z.boolean().optional() }).optional(), hmacCreateSecret: z.boolean().optional() })
  .default({});

const transport = z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/** A passkey's name, as the person gives it. */
export const passkeyName = withExample(z.string({ error: m.nameRequired }).trim().min(1, m.nameRequired).max(60, m.nameTooLong), 'My laptop');

/** An assertion (navigator.credentials.get) in WebAuthn's JSON form. */
export const passkeyAssertion = z.object({
  id: withExample(base64url(1024).min(1), 'hjq4kxWcS1bXk9vO7y4dR6tJ8wLpZ5aE3nF1gC0hI2s'),
  rawId: withExample(base64url(1024).min(1), 'hjq4kxWcS1bXk9vO7y4dR6tJ8wLpZ5aE3nF1gC0hI2s'),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: withExample(base64url(4096), 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0'),
    authenticatorData: withExample(base64url(4096), 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ'),
    signature: withExample(base64url(1024), 'MEUCIQDx'),
    userHandle: withExample(base64url(256), 'a2VzdHJlbC11c2Vy').optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults,
});
export type PasskeyAssertion = z.infer<typeof passkeyAssertion>;
export type PasskeyAssertionInput = z.input<typeof passkeyAssertion>;

/** An attestation (navigator.credentials.create) in WebAuthn's JSON form. */
export const passkeyAttestation = z.object({
  id: withExample(base64url(1024).min(1), 'hjq4kxWcS1bXk9vO7y4dR6tJ8wLpZ5aE3nF1gC0hI2s'),
  rawId: withExample(base64url(1024).min(1), 'hjq4kxWcS1bXk9vO7y4dR6tJ8wLpZ5aE3nF1gC0hI2s'),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: withExample(base64url(4096), 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0'),
    attestationObject: withExample(base64url(16384), 'o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YQ'),
    authenticatorData: base64url(4096).optional(),
    transports: z.array(transport).max(8).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(4096).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults,
});
export type PasskeyAttestation = z.infer<typeof passkeyAttestation>;

/** POST /v1/auth/passkeys: the new passkey's name and the browser's attestation. */
export const passkeyRegisterBody = z.object({ name: passkeyName, credential: passkeyAttestation }).strict();
export type PasskeyRegisterBody = z.infer<typeof passkeyRegisterBody>;
export type PasskeyRegisterInput = z.input<typeof passkeyRegisterBody>;

/** PATCH /v1/auth/passkeys/:passkeyId: a new name. */
export const passkeyRenameBody = z.object({ name: passkeyName }).strict();
export type PasskeyRenameBody = z.infer<typeof passkeyRenameBody>;

/**
 * POST /v1/auth/passkeys/options: the account's current password. Adding a second factor asks
 * for it (re-authentication); the challenge these options carry is made only then, and
 * POST /v1/auth/passkeys takes no passkey without one.
 */
export const passkeyOptionsBody = z.object({ password: currentPassword }).strict();
export type PasskeyOptionsBody = z.infer<typeof passkeyOptionsBody>;

/**
 * POST /v1/auth/passkeys/:passkeyId/remove: a current second factor, as turning two-factor
 * sign-in off asks — a code (the authenticator app's or a recovery code) or a passkey's
 * assertion over a challenge from POST /v1/auth/passkeys/confirm/options. Not the password:
 * a second factor must not go on the first factor alone.
 */
export const passkeyRemoveBody = z
  .object({
    code: withExample(z.string().trim().min(1, m.confirmRequired).max(40), '492039').optional(),
    passkey: passkeyAssertion.optional(),
  })
  .strict()
  .refine((body) => (body.code === undefined) !== (body.passkey === undefined), { message: m.confirmRequired, path: ['code'] });
export type PasskeyRemoveBody = z.infer<typeof passkeyRemoveBody>;
export type PasskeyRemoveInput = z.input<typeof passkeyRemoveBody>;

/** My Account → Security, adding or renaming: the name (the API takes the same). */
export const passkeyNameForm = z.object({ name: passkeyName });
export type PasskeyNameFormValues = z.output<typeof passkeyNameForm>;
export type PasskeyNameFormInput = z.input<typeof passkeyNameForm>;

/** My Account → Security, removing with a code (the app's or a recovery code; a passkey is the other way). */
export const passkeyRemoveForm = z.object({ code: z.string().trim().min(1, m.confirmRequired) });
export type PasskeyRemoveFormValues = z.output<typeof passkeyRemoveForm>;
export type PasskeyRemoveFormInput = z.input<typeof passkeyRemoveForm>;

export const passkeyIdParams = z.object({ passkeyId: withExample(z.string().min(1).max(1024), 'hjq4kxWcS1bXk9vO7y4dR6tJ8wLpZ5aE3nF1gC0hI2s') });
export type PasskeyIdParams = z.infer<typeof passkeyIdParams>;

/** POST /v1/auth/login/passkey: a passkey's assertion over a challenge from /v1/auth/login/passkey/options. */
export const passkeySignInBody = z.object({ credential: passkeyAssertion }).strict();
export type PasskeySignInBody = z.infer<typeof passkeySignInBody>;
export type PasskeySignInInput = z.input<typeof passkeySignInBody>;

// ---- Responses ----

const credentialDescriptor = z.object({ id: z.string(), type: withExample(z.string(), 'public-key'), transports: z.array(z.string()).optional() });

/** The options of navigator.credentials.create, in WebAuthn's JSON form (as @simplewebauthn's startRegistration takes them). */
export const passkeyCreationOptions = z.looseObject({
  challenge: withExample(z.string().describe('base64url, 256 random bits, single use, 5 minutes'), 'xJ3kq0mU2cS1bXk9vO7y4dR6tJ8wLpZ5aE3nF1gC0hI'),
  rp: z.object({ name: withExample(z.string(), 'Kestrel'), id: withExample(z.string().optional(), 'localhost') }),
  user: z.object({ id: withExample(z.string(), 'MGYxYjJjM2Q'), name: withExample(z.string(), 'ada@example.org'), displayName: withExample(z.string(), 'Ada Lovelace') }),
  pubKeyCredParams: z.array(z.object({ alg: withExample(z.number(), -7), type: withExample(z.string(), 'public-key') })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(credentialDescriptor).optional(),
  attestation: z.string().optional(),
});
export type PasskeyCreationOptions = z.infer<typeof passkeyCreationOptions>;

/** The options of navigator.credentials.get, in WebAuthn's JSON form (as @simplewebauthn's startAuthentication takes them). */
export const passkeyRequestOptions = z.looseObject({
  challenge: withExample(z.string().describe('base64url, 256 random bits, single use, 5 minutes'), 'xJ3kq0mU2cS1bXk9vO7y4dR6tJ8wLpZ5aE3nF1gC0hI'),
  rpId: withExample(z.string().optional(), 'localhost'),
  timeout: z.number().optional(),
  allowCredentials: z.array(credentialDescriptor).optional(),
  userVerification: z.string().optional(),
});
export type PasskeyRequestOptions = z.infer<typeof passkeyRequestOptions>;

/** One of the caller's passkeys. */
export const passkeyView = z.object({
  _id: withExample(z.string().describe('The credential id (base64url)'), 'hjq4kxWcS1bXk9vO7y4dR6tJ8wLpZ5aE3nF1gC0hI2s'),
  name: withExample(z.string(), 'My laptop'),
  createdAt: withExample(z.string(), '2026-11-25T09:12:00.000Z'),
  lastUsedAt: withExample(z.string().nullable(), '2026-11-26T18:40:00.000Z'),
  backedUp: z.boolean().describe('Whether the passkey is synced (for example through a password manager)'),
});
export type PasskeyView = z.infer<typeof passkeyView>;

export const passkeyList = z.array(passkeyView);
export type PasskeyList = z.infer<typeof passkeyList>;
