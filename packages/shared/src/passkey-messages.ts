/**
 * Passkeys (WebAuthn; issue 25, beyond the spec): the messages and labels of My Account →
 * Security's "Passkeys" section and of signing in with a passkey. A module of its own (no zod),
 * like the two-factor messages, so the pages every visitor downloads stay as they were.
 */
export const passkeyMessages = {
  nameRequired: 'Give this passkey a name',
  nameTooLong: 'Keep the name to 60 characters or fewer',
  added: 'Passkey added',
  renamed: 'Passkey renamed',
  removed: 'Passkey removed',
  notFound: 'That passkey was not found.',
  alreadyRegistered: 'This passkey is already registered.',
  registrationFailed: 'The passkey could not be checked. Please try again.',
  challengeInvalid: 'This passkey request has expired. Please try again.',
  signInFailed: 'That passkey could not sign you in. Try again, or use your email and password.',
  confirmFailed: 'That passkey could not be checked. Please try again.',
  counterStale: 'This passkey looks like a copy of one already used. Sign in another way and remove it from My Account → Security.',
  confirmRequired: 'Enter a code from your authenticator app or a recovery code, or confirm with a passkey',
  /** The re-authentication before a second factor is added (an app or a passkey): a wrong password, under the field. */
  passwordWrong: 'That password is not right.',
  rateLimited: 'Too many tries. Please wait a few minutes and try again.',
  unsupported: 'This browser cannot use passkeys.',
} as const;

/** The labels of My Account → Security's "Passkeys" section. */
export const passkeyText = {
  title: 'Passkeys',
  hint: 'A passkey signs you in with your fingerprint, face or screen lock instead of your password, and counts as a second factor after it.',
  none: 'No passkeys yet.',
  add: 'Add a passkey',
  name: 'Passkey name',
  create: 'Create passkey',
  cancel: 'Cancel',
  created: 'Added',
  lastUsed: 'Last used',
  never: 'never',
  rename: 'Rename',
  renameTitle: 'Rename this passkey',
  save: 'Save',
  renameFailed: 'The passkey could not be renamed. Please try again.',
  remove: 'Remove',
  removeTitle: 'Remove this passkey?',
  removeHint: 'Confirm with a code from your authenticator app or a recovery code, or with one of your passkeys.',
  removeHintPasskeysOnly: 'Confirm with one of your passkeys: your browser asks for it.',
  /** Adding a second factor asks for the password first (re-authentication). */
  addHint: 'Adding a passkey asks for your password.',
  password: 'Password',
  code: 'Code from your app or a recovery code',
  confirmRemove: 'Remove passkey',
  usePasskey: 'Confirm with a passkey',
  failed: 'Passkeys could not be loaded.',
  /** The two-factor section's badge and hint when a passkey is the second factor (no app). */
  onWithPasskey: 'On with a passkey',
  onWithPasskeyHint: 'Your passkeys answer the second step after your password. Add an authenticator app as well to have another way in, with recovery codes.',
  addApp: 'Add an authenticator app',
} as const;
