import { describe, expect, it } from 'vitest';
import { registerBody } from './contracts/auth.ts';
import { messages } from './messages.ts';
import { signupRules, type SignupFormValues } from './signup-rules.ts';

const m = messages.signup;
const good: SignupFormValues = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org', phone: '+1 555-010-0001', password: 'correct horse', confirmPassword: 'correct horse' };

const formProblems = (form: SignupFormValues) =>
  Object.fromEntries(
    (Object.keys(signupRules) as (keyof SignupFormValues)[]).flatMap((field) => {
      const problem = signupRules[field](form[field], form);
      return problem ? [[field, problem]] : [];
    }),
  );

/** The register body's first message for each field the sign-up form also has. */
function apiProblems(form: SignupFormValues) {
  const parsed = registerBody.safeParse({ firstName: form.firstName, lastName: form.lastName, email: form.email, contactNumber: form.phone, password: form.password });
  if (parsed.success) return {};
  const found: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] === 'contactNumber' ? 'phone' : String(issue.path[0]);
    found[field] ??= issue.message;
  }
  return found;
}

describe('the sign-up form rules (no zod on the page)', () => {
  it('pass a good form', () => {
    expect(formProblems(good)).toEqual({});
  });

  it('give the spec’s messages for empty fields', () => {
    expect(formProblems({ firstName: ' ', lastName: '', email: '', phone: '', password: '', confirmPassword: '' })).toEqual({
      firstName: m.firstNameRequired,
      lastName: m.lastNameRequired,
      email: m.emailRequired,
      phone: m.phoneRequired,
      password: m.passwordRequired,
      confirmPassword: m.confirmRequired,
    });
  });

  it('refuse a confirmation that differs', () => {
    expect(formProblems({ ...good, confirmPassword: 'correct horsE' })).toEqual({ confirmPassword: m.passwordMismatch });
  });

  // The form must refuse exactly what the API refuses, with the same message, or a person fixes
  // one message only to be shown another by the server.
  const cases: [string, Partial<SignupFormValues>, 'refused' | 'accepted'][] = [
    ['a malformed e-mail', { email: 'ada@example' }, 'refused'],
    ['an e-mail with two dots', { email: 'ada..l@example.org' }, 'refused'],
    ['an e-mail with a space', { email: 'ada l@example.org' }, 'refused'],
    ['an e-mail of 255 characters', { email: `${'a'.repeat(243)}@example.org` }, 'refused'],
    ['an e-mail of 254 characters', { email: `${'a'.repeat(242)}@example.org` }, 'accepted'],
    ['a phone with letters', { phone: '555-CALL-NOW' }, 'refused'],
    ['a phone too short', { phone: '12345' }, 'refused'],
    ['a phone with a plus in the middle', { phone: '1+5550100001' }, 'refused'],
    ['a short password', { password: 'seven77', confirmPassword: 'seven77' }, 'refused'],
    ['a name of 101 characters', { firstName: 'A'.repeat(101) }, 'refused'],
    ['a name of 100 characters', { lastName: 'L'.repeat(100) }, 'accepted'],
  ];
  it.each(cases)('agree with the register body on %s (%s)', (_name, change, verdict) => {
    const form = { ...good, ...change };
    const { confirmPassword: _confirm, ...fromForm } = formProblems(form);
    expect(fromForm).toEqual(apiProblems(form));
    expect(Object.keys(fromForm).length > 0).toBe(verdict === 'refused');
  });
});
