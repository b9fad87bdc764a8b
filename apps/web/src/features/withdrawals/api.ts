import type { CancelWithdrawalInput, CreateWithdrawalInput, WithdrawalView } from '@kestrel/shared';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, segment } from '../../lib/http.ts';
import { accountKeys } from '../accounts/api.ts';
import { transactionKeys } from '../transactions/api.ts';
import { useRequestKey } from '../../lib/idempotency-key.ts';

/*
 * Bank withdrawals: the active account's list (a page at a time) and its counters, one
 * withdrawal's details, a new request and cancelling a Pending one. Types come from the
 * shared contract; response schemas in the function form, so the pages do not download zod.
 */

export type Withdrawal = WithdrawalView;

/** Withdrawals per page of the list. */
export const WITHDRAWAL_PAGE_SIZE = 25;

export const withdrawalKeys = {
  all: ['withdrawals'] as const,
  account: (accountNumber: string) => [...withdrawalKeys.all, 'account', accountNumber] as const,
  counters: (accountNumber: string) => [...withdrawalKeys.all, 'counters', accountNumber] as const,
  details: (id: string) => [...withdrawalKeys.all, 'details', id] as const,
};

/** GET /v1/bank-withdraw/account/{accountNumber}?limit&cursor: newest first, bank account numbers masked. */
export function useWithdrawals(accountNumber: string | undefined) {
  return useInfiniteQuery({
    queryKey: withdrawalKeys.account(accountNumber ?? ''),
    queryFn: async ({ signal, pageParam }) => {
      const query = new URLSearchParams({ limit: String(WITHDRAWAL_PAGE_SIZE) });
      if (pageParam !== undefined) query.set('cursor', pageParam);
      return (await http.get(`/v1/bank-withdraw/account/${segment(accountNumber ?? '')}?${query.toString()}`, (c) => c.withdrawalList, { signal })).data;
    },
    initialPageParam: undefined as string | undefined,
    // A full page may have older withdrawals after it; a short one is the last.
    getNextPageParam: (page) => (page.length < WITHDRAWAL_PAGE_SIZE ? undefined : page[page.length - 1]?._id),
    enabled: Boolean(accountNumber),
    // An operator moves withdrawals on; the list should say what is true when it is opened.
    refetchOnMount: 'always',
  });
}

/** GET /v1/bank-withdraw/account/{accountNumber}/summary: the counters over every withdrawal. */
export function useWithdrawalCounters(accountNumber: string | undefined) {
  return useQuery({
    queryKey: withdrawalKeys.counters(accountNumber ?? ''),
    queryFn: async ({ signal }) => (await http.get(`/v1/bank-withdraw/account/${segment(accountNumber ?? '')}/summary`, (c) => c.withdrawalCounters, { signal })).data,
    enabled: Boolean(accountNumber),
    refetchOnMount: 'always',
  });
}

/** GET /v1/bank-withdraw/details/{id}: one of the caller's withdrawals with its status history. */
export function useWithdrawalDetails(id: string) {
  return useQuery({
    queryKey: withdrawalKeys.details(id),
    queryFn: async ({ signal }) => (await http.get(`/v1/bank-withdraw/details/${segment(id)}`, (c) => c.withdrawalDetails, { signal })).data,
    refetchOnMount: 'always',
  });
}

/** Everything a withdrawal's movement changes for its account. */
function invalidateAccount(queryClient: ReturnType<typeof useQueryClient>, accountNumber: string) {
  for (const queryKey of [withdrawalKeys.all, accountKeys.details(), accountKeys.summary(accountNumber), transactionKeys.account(accountNumber)]) {
    void queryClient.invalidateQueries({ queryKey });
  }
}

/**
 * POST /v1/bank-withdraw/create with an Idempotency-Key header. The key belongs to the
 * request being asked for (every field but the TPIN), not to the click: sending the same
 * request again after a lost answer reuses it, so the money is held once; a changed field is
 * a new request with a new key.
 */
export function useCreateWithdrawal() {
  const queryClient = useQueryClient();
  const requestKey = useRequestKey();
  return useMutation({
    mutationFn: async (body: CreateWithdrawalInput) => {
      // Nor the step-up code: the request refused for it is sent again with it under the same key.
      const key = requestKey.keyFor(JSON.stringify({ ...body, tpin: undefined, stepUpCode: undefined }));
      return http.post('/v1/bank-withdraw/create', body, (c) => c.withdrawalView, { headers: { 'Idempotency-Key': key } });
    },
    onSuccess: (_result, body) => {
      requestKey.settled();
      invalidateAccount(queryClient, body.accountNumber);
    },
  });
}

/** POST /v1/bank-withdraw/cancel/{id}: one key per withdrawal until answered, so a retry returns the money once. */
export function useCancelWithdrawal(id: string) {
  const queryClient = useQueryClient();
  const requestKey = useRequestKey();
  return useMutation({
    mutationFn: async (body: CancelWithdrawalInput) =>
      http.post(`/v1/bank-withdraw/cancel/${segment(id)}`, body, (c) => c.withdrawalView, { headers: { 'Idempotency-Key': requestKey.keyFor(id) } }),
    onSuccess: (result) => {
      requestKey.settled();
      invalidateAccount(queryClient, result.data.accountNumber);
    },
  });
}
