/**
 * The words of signing in with a passkey (issue 25): the login page's buttons and the second
 * step's, the pay pages' wallet login too. A module of its own, apart from the Security tab's
 * (`passkey-messages.ts`): a bundler splits by module, so /login downloads only these.
 */
export const passkeySignInText = {
  signIn: 'Sign in with a passkey',
  or: 'or',
  useInSecondStep: 'Use a passkey',
  secondStepHint: 'Use one of your passkeys to finish signing in.',
  startOver: 'Back to login',
  cancelled: 'The passkey request was cancelled or timed out.',
} as const;
