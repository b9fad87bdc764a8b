/**
 * Two-factor sign-in with an authenticator app (issue 25, beyond the spec): the messages of
 * the login's second step, the wallet login of the pay pages and My Account → Security.
 * A module of its own (no zod), apart from `messages`: the messages chunk every page downloads
 * (the pay pages included) stays as it was.
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
  recoveryCodesRenewed: 'New recovery codes made; the old ones no longer work',
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

/** My Account → Security's "Two-factor authentication" section. */
export const twoFactorSectionText = {
  title: 'Two-factor authentication',
  offHint: 'Ask for a code from an authenticator app (Google Authenticator, 1Password, Aegis…) each time you log in, after your password.',
  onHint: 'Logging in asks for a code from your authenticator app after your password.',
  on: 'On',
  off: 'Off',
  turnOn: 'Turn on',
  turnOff: 'Turn off',
  /** Adding a second factor asks for the password first (re-authentication). */
  passwordHint: 'Enter your password to set up an authenticator app.',
  password: 'Password',
  continue: 'Continue',
  scan: 'Scan this QR code with your authenticator app, or enter the key by hand.',
  key: 'Setup key',
  code: '6-digit code',
  confirm: 'Confirm and turn on',
  cancel: 'Cancel',
  recoveryTitle: 'Your recovery codes',
  recoveryHint: 'Each code signs you in once if you lose your phone. Keep them somewhere safe: they are shown only now.',
  copy: 'Copy codes',
  copied: 'Recovery codes copied',
  download: 'Download codes',
  done: 'I have saved my codes',
  recoveryLeft: 'Recovery codes left',
  offCode: 'Code from your app or a recovery code',
  renew: 'New recovery codes',
  renewHint: 'Makes ten new recovery codes; the ones you have stop working. Confirm with a code from your app.',
  renewCode: 'Code from your app',
  renewConfirm: 'Make new codes',
  offConfirm: 'Turn off two-factor',
  failed: 'Two-factor authentication could not be loaded.',
} as const;
