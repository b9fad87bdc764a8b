import { z } from 'zod';
import { accountIdentity } from './accounts.ts';

/** One of the user's accounts, as GET /v1/user/{userId} lists them. */
export const userAccountSummary = accountIdentity.extend({ accountEmail: z.string() });
export type AccountSummary = z.infer<typeof userAccountSummary>;
export type AccountType = AccountSummary['accountType'];

/** GET /v1/user/{userId}: the signed-in user with their accounts. */
export const userProfile = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  contactNumber: z.string(),
  isEmailVerified: z.boolean(),
  isAccountHolder: z.boolean(),
  /** Operators may open the operator console (/ops); the API checks again on every operator route. */
  isOperator: z.boolean(),
  accounts: z.array(userAccountSummary),
  createdAt: z.string().describe('ISO 8601 time'),
});
export type UserProfile = z.infer<typeof userProfile>;

export const userParams = z.object({ userId: z.string() });
