/**
 * Two-factor sign-in with an authenticator app (issue 25, beyond the spec): the messages of
 * the login's second step, the wallet login of the pay pages and My Account → Security.
 * A module of its own (no zod), part of `messages` as `messages.twoFactor`.
 */
export const twoFactorMessages = {
  codeRequired: 'Enter the 6-digit code from your authenticator app',
  codeFormat: 'The code is 6 digits',
  recoveryCodeRequired: 'Enter one of your recovery codes',
  codeInvalid: 'That code is not right. Enter the code your authenticator app shows now.',
  codeReused: 'That code has already been used. Wait for the next code in your authenticator app.',
  recoveryCodeInvalid: 'That recovery code is not right or has already been used.',
  challengeInvalid: 'Your sign-in has expired. Please enter your email and password again.',
  rateLimited: 'Too many wrong codes. Please wait a few minutes and try again.',
  alreadyOn: 'Two-factor authentication is already on.',
  notStarted: 'Start setting up two-factor authentication first.',
  notOn: 'Two-factor authentication is not on.',
  enabled: 'Two-factor authentication is on',
  disabled: 'Two-factor authentication is off',
  secondStep: 'Enter the code from your authenticator app to finish signing in',
  } as const;

/** The labels of the code step (the login page's second step, the pay pages' wallet login). */
export const twoFactorText = {
  secondStepTitle: 'Two-factor authentication',
  code: 'Authentication code',
  recoveryCode: 'Recovery code',
  verify: 'Verify',
  useRecoveryCode: 'Use a recovery code',
  useAppCode: 'Use a code from your app',
  startOver: 'Back to login',
} as const;
