import { transactionGroupList } from '@kestrel/shared';
import { useQuery } from '@tanstack/react-query';
import { http, segment } from '../../lib/http.ts';

/*
 * Transaction history of the active account (GET /v1/transaction/account/:accountNumber).
 */

// Response shapes are the contracts in @kestrel/shared (transactionGroupList).
export type { Transaction, TransactionGroup, TransactionType } from '@kestrel/shared';

// ---- Query keys ----

export const transactionKeys = {
  all: ['transactions'] as const,
  account: (accountNumber: string) => [...transactionKeys.all, 'account', accountNumber] as const,
};

// ---- Queries ----

export function useAccountTransactions(accountNumber: string | undefined) {
  return useQuery({
    queryKey: transactionKeys.account(accountNumber ?? ''),
    queryFn: async ({ signal }) =>
      (await http.get(`/v1/transaction/account/${segment(accountNumber ?? '')}`, transactionGroupList, { signal })).data,
    enabled: Boolean(accountNumber),
  });
}
