import type { AccountSummary } from '../auth/api.ts';

/** The spec names personal accounts by holder name and business accounts by business name. */
export function accountDisplayName(account: Pick<AccountSummary, 'accountType' | 'accountHolderName' | 'businessName'>): string {
  if (account.accountType === 'business' && account.businessName) return account.businessName;
  return account.accountHolderName;
}
