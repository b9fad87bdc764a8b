import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../constants.ts';
import { messages } from '../messages.ts';
import { withExample } from '../contract-examples.ts';

const m = messages;

/** Login form and POST /v1/auth/login body. The spec sets no bounds beyond "required". */
export const loginBody = z
  .object({
    email: z.string({ error: m.login.emailRequired }).trim().min(1, m.login.emailRequired),
    password: z.string({ error: m.login.passwordRequired }).min(1, m.login.passwordRequired),
  })
  .strict();
export type LoginBody = z.infer<typeof loginBody>;

/** Checkout's wallet login (other messages, document 2, section 5; rules in the web's WalletPay). */
export interface CheckoutLoginForm {
  email: string;
  password: string;
}

/** E-mail addresses are compared case-insensitively; we store them lower-cased. */
export const emailAddress = (required: string) =>
  withExample(z.string({ error: required }).trim().min(1, required).max(254, m.signup.emailInvalid), 'ada@example.org')
    .pipe(z.email({ error: m.signup.emailInvalid }))
    .transform((value) => value.toLowerCase());

// The example is of the text as sent (a transformed schema's examples would describe its output).
const phoneNumber = withExample(
  z
    .string({ error: m.signup.phoneRequired })
    .trim()
    .min(1, m.signup.phoneRequired)
    .regex(/^\+?[0-9][0-9 -]{5,18}[0-9]$/, m.signup.phoneInvalid),
  '+15550100001',
).transform((value) => value.replace(/[ -]/g, ''));

/** POST /v1/user/register body. */
export const registerBody = z
  .object({
    firstName: z.string({ error: m.signup.firstNameRequired }).trim().min(1, m.signup.firstNameRequired).max(100),
    lastName: z.string({ error: m.signup.lastNameRequired }).trim().min(1, m.signup.lastNameRequired).max(100),
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

/** The sign-up form: the register body's fields plus confirmation, with the form's field names. */
export const signupForm = z
  .object({
    firstName: registerBody.shape.firstName,
    lastName: registerBody.shape.lastName,
    email: z.string().trim().min(1, m.signup.emailRequired).pipe(z.email({ error: m.signup.emailInvalid })),
    phone: z.string().trim().min(1, m.signup.phoneRequired).regex(/^\+?[0-9][0-9 -]{5,18}[0-9]$/, m.signup.phoneInvalid),
    password: z.string().min(1, m.signup.passwordRequired).min(PASSWORD_MIN_LENGTH, m.signup.passwordTooShort),
    confirmPassword: z.string().min(1, m.signup.confirmRequired),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: m.signup.passwordMismatch,
    path: ['confirmPassword'],
  });
export type SignupForm = z.infer<typeof signupForm>;

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
export type ResetPasswordForm = z.infer<typeof resetPasswordForm>;

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
