import { transactionGroupList } from '@kestrel/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { http, segment } from '../../lib/http.ts';

/*
 * Transaction history of the active account (GET /v1/transaction/account/:accountNumber),
 * a page at a time: `limit` transactions, then the next (older) page from the `_id` of the
 * last one shown as `cursor`.
 */

/** Transactions per page on the All Transactions page. */
export const TRANSACTION_PAGE_SIZE = 50;

// Response shapes are the contracts in @kestrel/shared (transactionGroupList).
export type { Transaction, TransactionGroup, TransactionType } from '@kestrel/shared';

// ---- Query keys ----

export const transactionKeys = {
  all: ['transactions'] as const,
  account: (accountNumber: string) => [...transactionKeys.all, 'account', accountNumber] as const,
};

// ---- Queries ----

export function useAccountTransactions(accountNumber: string | undefined) {
  return useInfiniteQuery({
    queryKey: transactionKeys.account(accountNumber ?? ''),
    queryFn: async ({ signal, pageParam }) => {
      const query = new URLSearchParams({ limit: String(TRANSACTION_PAGE_SIZE) });
      if (pageParam !== undefined) query.set('cursor', pageParam);
      return (await http.get(`/v1/transaction/account/${segment(accountNumber ?? '')}?${query.toString()}`, transactionGroupList, { signal })).data;
    },
    initialPageParam: undefined as string | undefined,
    // A full page may have older transactions after it; a short one is the last.
    getNextPageParam: (page) => {
      const transactions = page.flatMap((group) => group.transactions);
      return transactions.length < TRANSACTION_PAGE_SIZE ? undefined : transactions[transactions.length - 1]?._id;
    },
    enabled: Boolean(accountNumber),
  });
}
