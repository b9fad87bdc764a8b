/*
 * The answer codes of a refused step-up (issue 25), without the texts of step-up-messages: the
 * pay pages tell a step-up refusal by these and load the texts only when one comes.
 */

/** The answer codes of a refused step-up (all 403). */
export const STEP_UP_REQUIRED = 'step_up_required';
export const STEP_UP_INVALID = 'step_up_invalid';

/** Whether an answer's code is a step-up refusal (the Idempotency-Key stays for the retry with the code). */
export const isStepUpRefusal = (code: string | undefined): boolean => code === STEP_UP_REQUIRED || code === STEP_UP_INVALID;

