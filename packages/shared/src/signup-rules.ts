import { regexes } from 'zod/v4/core';
import { PASSWORD_MIN_LENGTH } from './constants.ts';
import { messages } from './messages.ts';

/*
 * The sign-up form's rules as plain functions, in a module of their own without zod's schemas:
 * the sign-up page is one of the first pages people see and must paint and answer quickly on a
 * phone, so it does not download a validation library (issue 20). The register body's schema
 * (contracts/auth.ts) uses the same patterns and bounds, so the form and the API agree.
 */

const m = messages.signup;

/** A first or last name's longest form, in the register body as in the form. */
export const NAME_MAX_LENGTH = 100;
/** An e-mail address's longest form (RFC 5321's path limit less its brackets). */
export const EMAIL_MAX_LENGTH = 254;
/** A phone number: an optional +, then 7–20 digits, spaces or dashes, starting and ending with a digit. */
export const PHONE_PATTERN = /^\+?[0-9][0-9 -]{5,18}[0-9]$/;
/** The e-mail pattern zod's `z.email()` checks, so the form refuses what the API refuses. */
export const EMAIL_PATTERN: RegExp = regexes.email;

/** The sign-up form's values, as typed. */
export interface SignupFormValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  password: string;
  confirmPassword: string;
}

const nameProblem = (required: string, tooLong: string) => (value: string) => {
  const name = value.trim();
  if (name === '') return required;
  return name.length > NAME_MAX_LENGTH ? tooLong : undefined;
};

/** For each field, the message of its first broken rule (the spec's messages), or undefined. */
export const signupRules: { [Field in keyof SignupFormValues]: (value: string, form: SignupFormValues) => string | undefined } = {
  firstName: nameProblem(m.firstNameRequired, m.firstNameTooLong),
  lastName: nameProblem(m.lastNameRequired, m.lastNameTooLong),
  email: (value) => {
    const email = value.trim();
    if (email === '') return m.emailRequired;
    return email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email) ? m.emailInvalid : undefined;
  },
  phone: (value) => {
    const phone = value.trim();
    if (phone === '') return m.phoneRequired;
    return PHONE_PATTERN.test(phone) ? undefined : m.phoneInvalid;
  },
  password: (value) => {
    if (value === '') return m.passwordRequired;
    return value.length < PASSWORD_MIN_LENGTH ? m.passwordTooShort : undefined;
  },
  confirmPassword: (value, form) => {
    if (value === '') return m.confirmRequired;
    return value === form.password ? undefined : m.passwordMismatch;
  },
};
