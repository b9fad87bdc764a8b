/**
 * Step-up for large movements (issue 25): the answers of a transfer, withdrawal or wallet pay
 * above the account's threshold, and the labels of the forms' "Verification code" step. A
 * module of its own (no zod), like two-factor-messages: the pay pages import only this.
 */
export const stepUpMessages = {
  requiredApp: 'This movement needs a verification code. Enter the 6-digit code from your authenticator app.',
  requiredEmail: 'This movement needs a verification code. We e-mailed a 6-digit code to you; enter it to continue.',
  invalidApp: 'That verification code is not right. Enter the code your authenticator app shows now.',
  reusedApp: 'That verification code has already been used. Wait for the next code in your authenticator app.',
  invalidEmail: (left: number) => `That verification code is not right. ${left} ${left === 1 ? 'try' : 'tries'} left.`,
  expiredEmail: 'That verification code has expired or was used up. We e-mailed you a new one.',
  tooManyEmail: 'Too many wrong verification codes. We e-mailed you a new one.',
  codesRateLimited: 'Too many verification codes were sent. Please try again in an hour.',
  codeFormat: 'The verification code is 6 digits (or a recovery code)',
  codeRequired: 'Enter the verification code',
} as const;

export const stepUpText = {
  label: 'Verification code',
  hintApp: 'Enter the 6-digit code from your authenticator app (or one of your recovery codes).',
  hintEmail: 'Enter the 6-digit code we just e-mailed to you.',
} as const;

/** The hint beside the "Verification code" field for a step_up_required answer's message. */
export const stepUpHintFor = (message: string): string => (message === stepUpMessages.requiredApp ? stepUpText.hintApp : stepUpText.hintEmail);

// The answer codes live in their own module (no texts), so a pay page can tell a step-up refusal without carrying these texts.
export { isStepUpRefusal, STEP_UP_INVALID, STEP_UP_REQUIRED } from './step-up-codes.ts';
