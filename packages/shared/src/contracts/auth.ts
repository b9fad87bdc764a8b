import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../constants.ts';
import { messages } from '../messages.ts';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PHONE_PATTERN } from '../signup-rules.ts';
import { withExample } from '../contract-examples.ts';

const m = messages;

/**
 * The account's current password, with the sign-in's message when it is missing: the login,
 * and the re-authentication that adding a second factor asks for (two-factor.ts, passkeys.ts).
 */
export const currentPassword = withExample(z.string({ error: m.login.passwordRequired }).min(1, m.login.passwordRequired), 'correct horse battery staple');

/** Login form and POST /v1/auth/login body. The spec sets no bounds beyond "required". */
export const loginBody = z
  .object({
    email: z.string({ error: m.login.emailRequired }).trim().min(1, m.login.emailRequired),
    password: currentPassword,
  })
  .strict();
export type LoginBody = z.infer<typeof loginBody>;

/** Checkout's wallet login (other messages, document 2, section 5; rules in the web's WalletPay). */
export interface CheckoutLoginFormValues {
  email: string;
  password: string;
}

/** E-mail addresses are compared case-insensitively; we store them lower-cased. */
export const emailAddress = (required: string) =>
  withExample(z.string({ error: required }).trim().min(1, required).max(EMAIL_MAX_LENGTH, m.signup.emailInvalid), 'ada@example.org')
    .pipe(z.email({ error: m.signup.emailInvalid }))
    .transform((value) => value.toLowerCase());

// The example is of the text as sent (a transformed schema's examples would describe its output).
const phoneNumber = withExample(
  z
    .string({ error: m.signup.phoneRequired })
    .trim()
    .min(1, m.signup.phoneRequired)
    .regex(PHONE_PATTERN, m.signup.phoneInvalid),
  '+15550100001',
).transform((value) => value.replace(/[ -]/g, ''));

/** POST /v1/user/register body. */
export const registerBody = z
  .object({
    firstName: z.string({ error: m.signup.firstNameRequired }).trim().min(1, m.signup.firstNameRequired).max(NAME_MAX_LENGTH, m.signup.firstNameTooLong),
    lastName: z.string({ error: m.signup.lastNameRequired }).trim().min(1, m.signup.lastNameRequired).max(NAME_MAX_LENGTH, m.signup.lastNameTooLong),
    email: emailAddress(m.signup.emailRequired),
    contactNumber: phoneNumber,
    password: z
      .string({ error: m.signup.passwordRequired })
      .min(1, m.signup.passwordRequired)
      .min(PASSWORD_MIN_LENGTH, m.signup.passwordTooShort)
      .max(256),
  })
  .strict();
export type RegisterBody = z.infer<typeof registerBody>;

export const sendVerificationBody = z
  .object({ email: emailAddress(m.signup.emailRequired) })
  .strict();
export type SendVerificationBody = z.infer<typeof sendVerificationBody>;

export const verifyEmailBody = z.object({ token: z.string().min(16).max(200) }).strict();
export type VerifyEmailBody = z.infer<typeof verifyEmailBody>;

/** POST /v1/auth/forgot-password body: the account's e-mail (answered the same way whether or not it exists). */
export const forgotPasswordBody = z.object({ email: emailAddress(m.signup.emailRequired) }).strict();
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBody>;

/** The new-password fields with the sign-up's rules and exact messages (document 2, section 5). */
const newPassword = registerBody.shape.password;
const passwordsMatch = (form: { password: string; confirmPassword: string }) => form.password === form.confirmPassword;

/** POST /v1/auth/reset-password body: the mailed token and the new password twice. */
export const resetPasswordBody = z
  .object({
    token: z.string({ error: m.passwordReset.linkInvalid }).min(16, m.passwordReset.linkInvalid).max(200, m.passwordReset.linkInvalid),
    password: newPassword,
    confirmPassword: z.string({ error: m.signup.confirmRequired }).min(1, m.signup.confirmRequired),
  })
  .strict()
  .refine(passwordsMatch, { message: m.signup.passwordMismatch, path: ['confirmPassword'] });
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;

/** The reset page's form: the body without the token, which comes from the link. */
export const resetPasswordForm = z
  .object({
    password: z.string().min(1, m.signup.passwordRequired).min(PASSWORD_MIN_LENGTH, m.signup.passwordTooShort),
    confirmPassword: z.string().min(1, m.signup.confirmRequired),
  })
  .refine(passwordsMatch, { message: m.signup.passwordMismatch, path: ['confirmPassword'] });
export type ResetPasswordFormValues = z.infer<typeof resetPasswordForm>;

// ---- Responses ----

/** POST /v1/auth/login answers this. */
export const loginResult = z.object({
  _id: z.string(),
  token: z.string(),
  accounts: z.array(z.string()).describe("Ids of the user's accounts; the first one becomes the active account"),
});
export type LoginResult = z.infer<typeof loginResult>;

/** POST /v1/user/register answers a session token, so the new user is signed in. */
export const registerResult = z.object({ _id: z.string(), token: z.string() });
export type RegisterResult = z.infer<typeof registerResult>;

// ---- Signed-in devices (My Account → Security) ----

/** The answers' messages of the signed-in devices routes and the Security tab. */
export const sessionMessages = {
  signedOut: 'Signed out',
  signedOutOthers: 'Signed out everywhere else',
  /** 404: not one of the caller's live sessions (another user's, revoked, expired or malformed). */
  notFound: 'Session not found',
  /** 409: the caller's own session is ended with Logout, not from the list. */
  current: 'This is the session you are using; use Logout to end it',
};

/** One signed-in device of the caller, newest use first (GET /v1/auth/sessions). */
export const sessionView = z.object({
  _id: withExample(z.string(), '0b7f3c1e-5d6a-4c1b-9f3e-2a8d4e6f7a10'),
  device: withExample(z.string().describe('Browser and system, read from the User-Agent'), 'Chrome 142 on Linux'),
  ip: withExample(z.string().nullable(), '203.0.113.7'),
  signedInAt: withExample(z.string().describe('ISO 8601 time'), '2026-11-25T09:12:00.000Z'),
  lastSeenAt: withExample(z.string().describe('ISO 8601 time; updated at most once a minute'), '2026-11-25T10:40:00.000Z'),
  current: z.boolean().describe('The session of the token that asked'),
});
export type SessionView = z.infer<typeof sessionView>;
export const sessionList = z.array(sessionView);

export const sessionIdParams = z.object({ sessionId: z.string().min(1).max(100) });

/** POST /v1/auth/sessions/sign-out-others answers how many sessions it ended. */
export const signedOutOthers = z.object({ signedOut: z.number().int().nonnegative() });
