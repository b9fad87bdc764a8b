/*
 * Step-up for large movements (issue 25): the money functions' step-up argument and their
 * step_up_* answers (db/functions/step_up_check.sql), shared by the wrappers of those calls
 * (here, withdrawals, payments) and modules/auth/step-up.ts, which makes the argument and maps
 * the answers to the API's 403s. Kept here, at the bottom of the module layers.
 */

/** The call's step-up argument (see step_up_check.sql). */
export interface StepUpArgs {
  binding: string;
  given: boolean;
  totpStep: number | null;
  recoveryHash: string | null;
  mailHash: string | null;
  maxAttempts: number;
}

/** The step-up kinds of the money functions' answers. */
const STEP_UP_KINDS = [
  'step_up_required_app',
  'step_up_required_email',
  'step_up_invalid_app',
  'step_up_reused_app',
  'step_up_invalid_email',
  'step_up_expired_email',
  'step_up_too_many_email',
] as const;

export type StepUpKind = (typeof STEP_UP_KINDS)[number];

const stepUpKinds = new Set<string>(STEP_UP_KINDS);

export function isStepUpKind(kind: string): kind is StepUpKind {
  return stepUpKinds.has(kind);
}

/**
 * A money call's step-up refusal as one variant of its result, so a caller has one case for
 * all of them: which refusal, and the tries a wrong mailed code has left.
 */
export interface StepUpOutcome {
  kind: 'step_up';
  refusal: StepUpKind;
  remaining: number | null;
}

