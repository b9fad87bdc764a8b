import { z } from 'zod';
import { withExample } from '../contract-examples.ts';
import { twoFactorMessages } from '../two-factor-messages.ts';
import { currentPassword, loginResult } from './auth.ts';
import { passkeyAssertion, passkeyRequestOptions } from './passkeys.ts';

const m = twoFactorMessages;

/*
 * Two-factor sign-in with an authenticator app (issue 25; README, Two-factor sign-in). A code
 * is either the app's 6 digits or one of the recovery codes ("xxxxx-xxxxx"); the server tells
 * them apart by their form, so every route that takes a code takes either in `code`.
 */

const code = withExample(z.string({ error: m.codeRequired }).trim().min(1, m.codeRequired).max(40, m.codeInvalid), '492039');

/** POST /v1/auth/two-factor/recovery-codes and /disable: a current code (new codes: the app's; disable: the app's or a recovery code). */
export const twoFactorCodeBody = z.object({ code }).strict();
export type TwoFactorCodeBody = z.infer<typeof twoFactorCodeBody>;

/*
 * Adding a second factor asks for the account's password (re-authentication): a stolen
 * session (and the TPIN) alone must not add an app or a passkey of the thief's, whose codes
 * would then pass step-up and sign in (README, Two-factor sign-in).
 */

/** POST /v1/auth/two-factor/setup: the account's current password. */
export const twoFactorSetupBody = z.object({ password: currentPassword }).strict();
export type TwoFactorSetupBody = z.infer<typeof twoFactorSetupBody>;

/** POST /v1/auth/two-factor/enable: a code from the app that confirms it, and the account's current password again. */
export const twoFactorEnableBody = z.object({ code, password: currentPassword }).strict();
export type TwoFactorEnableBody = z.infer<typeof twoFactorEnableBody>;

/** My Account → Security, before an app or a passkey is added: the password, with the sign-in's message when it is missing. */
export const reauthenticationForm = z.object({ password: currentPassword });
export type ReauthenticationForm = z.input<typeof reauthenticationForm>;

/** My Account → Security, turning on: the app's 6 digits (the API takes the same in `code`). */
export const twoFactorEnableForm = z.object({
  code: z
    .string()
    .transform((value) => value.replace(/\s/g, ''))
    .pipe(z.string().min(1, m.codeRequired).regex(/^\d{6}$/, m.codeFormat)),
});
export type TwoFactorEnableForm = z.input<typeof twoFactorEnableForm>;

/** My Account → Security, turning off: the app's code or a recovery code. */
export const twoFactorDisableForm = z.object({ code: z.string().trim().min(1, m.codeRequired) });
export type TwoFactorDisableForm = z.input<typeof twoFactorDisableForm>;

/**
 * POST /v1/auth/login/second-step: the challenge the password step answered, and either a code
 * or (the person has a passkey) a passkey's assertion over the answer's `passkey.challenge`.
 */
export const loginSecondStepBody = z
  .object({
    challengeToken: withExample(z.string({ error: m.challengeInvalid }).min(16, m.challengeInvalid).max(200, m.challengeInvalid), 'q0H3mU2cS1bXk9vO7y4dR6tJ8wLpZ5aE3nF1gC0hI2s'),
    code: code.optional(),
    passkey: passkeyAssertion.optional(),
  })
  .strict()
  .refine((body) => (body.code === undefined) !== (body.passkey === undefined), { message: m.codeRequired, path: ['code'] });
export type LoginSecondStepBody = z.infer<typeof loginSecondStepBody>;
export type LoginSecondStepInput = z.input<typeof loginSecondStepBody>;

// ---- Responses ----

/** GET /v1/auth/two-factor: whether it is on, and how many recovery codes are left. */
export const twoFactorStatus = z.object({
  enabled: z.boolean(),
  recoveryCodesLeft: z.number().int().nonnegative(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatus>;

/** POST /v1/auth/two-factor/setup: a new secret to add to the app (not on until a code confirms it). */
export const twoFactorSetup = z.object({
  secret: withExample(z.string().describe('The secret in base32, for entering by hand'), 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'),
  otpauthUri: withExample(
    z.string().describe('The otpauth:// key URI the QR code holds'),
    'otpauth://totp/Kestrel:ada%40example.org?issuer=Kestrel&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30',
  ),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetup>;

/** POST /v1/auth/two-factor/enable and …/recovery-codes: the ten recovery codes, shown this once. */
export const twoFactorEnabled = z.object({
  recoveryCodes: z.array(withExample(z.string(), 'k7m2q-x4r9t')),
});
export type TwoFactorEnabled = z.infer<typeof twoFactorEnabled>;

/** POST /v1/auth/login with 2FA on: no session yet, a challenge for the second step. */
export const loginSecondStep = z.object({
  secondStep: z
    .enum(['totp', 'passkey'])
    .describe("What the second step asks for first: 'totp', a code from the authenticator app (or a recovery code); 'passkey', one of the person's passkeys (no app set up)"),
  challengeToken: withExample(z.string().describe('Single use; give it to POST /v1/auth/login/second-step'), 'q0H3mU2cS1bXk9vO7y4dR6tJ8wLpZ5aE3nF1gC0hI2s'),
  expiresAt: withExample(z.string().describe('ISO 8601 time; five minutes after the password step'), '2026-11-25T09:17:00.000Z'),
  passkey: passkeyRequestOptions.optional().describe("When the person has a passkey: the options for navigator.credentials.get; its assertion goes in the second step's `passkey`"),
});
export type LoginSecondStep = z.infer<typeof loginSecondStep>;

/** POST /v1/auth/login answers a session, or (2FA on) the second step it needs. */
export const loginAnswer = z.union([loginResult, loginSecondStep]);
export type LoginAnswer = z.infer<typeof loginAnswer>;
