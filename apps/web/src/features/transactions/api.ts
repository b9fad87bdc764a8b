import { useQuery } from '@tanstack/react-query';
import { http, segment } from '../../lib/http.ts';

/*
 * Transaction history of the active account (GET /v1/transaction/account/:accountNumber).
 */

// ---- Response shapes (the API's route schema) ----

export type TransactionType = 'debit' | 'credit';

export interface Transaction {
  _id: string;
  transactionId: string;
  transactionFor: string;
  /** Major units, e.g. 12.5. */
  amount: number;
  currency: string;
  fee: { amount: number; currency: string };
  /** ISO date-time. */
  transactionAt: string;
  /** The wallet accounts involved and whether each was debited or credited. */
  accounts: { accountNumber: string; transactionType: TransactionType }[];
}

/** The spec's grouping: one group per day (`_id` is YYYY-MM-DD), newest first. */
export interface TransactionGroup {
  _id: string;
  transactions: Transaction[];
}

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
      (await http.get<TransactionGroup[]>(`/v1/transaction/account/${segment(accountNumber ?? '')}`, { signal })).data,
    enabled: Boolean(accountNumber),
  });
}
