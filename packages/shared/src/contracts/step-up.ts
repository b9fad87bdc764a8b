import { z } from 'zod';
import { withExample } from '../contract-examples.ts';
import { stepUpMessages } from '../step-up-messages.ts';

/**
 * The optional `stepUpCode` of a money movement's body (transfers, withdrawals, wallet pays):
 * needed only above the account's step-up threshold (answered 403 step_up_required without
 * it); a 6-digit authenticator code, a recovery code ("xxxxx-xxxxx", 11 characters with its
 * dash), or the 6-digit code mailed when 2FA is off.
 */
export const stepUpCodeField = withExample(
  z.string().trim().min(6, stepUpMessages.codeFormat).max(11, stepUpMessages.codeFormat).optional().describe(
    'Only above the step-up threshold: the code from the authenticator app (or a recovery code), or the code e-mailed by the 403 step_up_required answer when 2FA is off',
  ),
  '492039',
);
