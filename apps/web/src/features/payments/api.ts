import { paymentView, refundView, type OwnerRefundInput, type PaymentListStatus, type PaymentView } from '@kestrel/shared';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, segment } from '../../lib/http.ts';
import { useRequestKey } from '../../lib/idempotency-key.ts';
import { accountKeys } from '../accounts/api.ts';
import { transactionKeys } from '../transactions/api.ts';

/* Payments into the active account or one store, and one payment's details (contracts/payments.ts). */

export const paymentKeys = {
  all: ['payments'] as const,
  account: (accountEmail: string) => [...paymentKeys.all, 'account', accountEmail] as const,
  store: (storeId: string) => [...paymentKeys.all, 'store', storeId] as const,
  one: (paymentId: string) => [...paymentKeys.all, 'one', paymentId] as const,
};

/** Payments per page of a list. */
export const PAYMENT_PAGE_SIZE = 25;

/** The store tab's search and filters (all optional). */
export interface PaymentFilters {
  q?: string;
  status?: PaymentListStatus | '';
  from?: string;
  to?: string;
}

/** The list's query string: the page and the filters that are set. */
function pageQuery(cursor: string | undefined, filters: PaymentFilters = {}): string {
  const query = new URLSearchParams({ limit: String(PAYMENT_PAGE_SIZE) });
  if (cursor) query.set('cursor', cursor);
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
  return query.toString();
}

/** A full page may have older payments after it; a short one is the last. */
const nextCursor = (page: readonly PaymentView[]) => (page.length < PAYMENT_PAGE_SIZE ? undefined : page[page.length - 1]?.paymentId);

export function useAccountPayments(accountEmail: string | undefined) {
  return useInfiniteQuery({
    queryKey: paymentKeys.account(accountEmail ?? ''),
    queryFn: async ({ signal, pageParam }) => (await http.post(`/v1/payment/account?${pageQuery(pageParam)}`, { accountEmail }, (c) => c.paymentList, { signal })).data,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
    enabled: Boolean(accountEmail),
  });
}

export function useStorePayments(storeId: string, filters: PaymentFilters) {
  return useInfiniteQuery({
    queryKey: [...paymentKeys.store(storeId), filters],
    queryFn: async ({ signal, pageParam }) => (await http.get(`/v1/payment/store/${segment(storeId)}?${pageQuery(pageParam, filters)}`, (c) => c.paymentList, { signal })).data,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
    placeholderData: keepPreviousData,
  });
}

/** The counters over every payment into the account (not only the pages shown). */
export function useAccountPaymentCounters(accountEmail: string | undefined) {
  return useQuery({
    queryKey: [...paymentKeys.account(accountEmail ?? ''), 'counters'],
    queryFn: async ({ signal }) => (await http.post('/v1/payment/account/summary', { accountEmail }, (c) => c.paymentCounters, { signal })).data,
    enabled: Boolean(accountEmail),
  });
}

export function useStorePaymentCounters(storeId: string) {
  return useQuery({
    queryKey: [...paymentKeys.store(storeId), 'counters'],
    queryFn: async ({ signal }) => (await http.get(`/v1/payment/store/${segment(storeId)}/summary`, (c) => c.paymentCounters, { signal })).data,
  });
}

/** GET /v1/payment/store/{storeId}/chart: the store's payments per UTC day over the last 30 days. */
export function useStorePaymentChart(storeId: string) {
  return useQuery({
    queryKey: [...paymentKeys.store(storeId), 'chart'],
    queryFn: async ({ signal }) => (await http.get(`/v1/payment/store/${segment(storeId)}/chart`, (c) => c.paymentChart, { signal })).data,
  });
}

export function usePayment(paymentId: string) {
  return useQuery({
    queryKey: paymentKeys.one(paymentId),
    queryFn: async ({ signal }) => (await http.get(`/v1/payment/paymentId/${segment(paymentId)}`, paymentView, { signal })).data,
  });
}

/** A payment whose every attempt failed (it has attempts and is still unpaid). */
export const isFailedPayment = (payment: PaymentView) => payment.paymentStatus !== 'success' && payment.paymentErrors.length > 0;

/**
 * POST /v1/payment/details/{paymentId}/refund: the owner refunds (part of) a payment with the
 * receiving account's TPIN. The Idempotency-Key belongs to the refund asked for (everything
 * but the TPIN), so sending it again after a lost answer refunds once. A refund moves money
 * on every screen: the payment, the lists and their counters, the stores' counters, the
 * payment links, the transactions and the balance are all read again.
 */
export function useRefundPayment(paymentId: string) {
  const queryClient = useQueryClient();
  const requestKey = useRequestKey();
  return useMutation({
    mutationFn: async (body: OwnerRefundInput) => {
      const key = requestKey.keyFor(JSON.stringify({ ...body, tpin: undefined }));
      const answer = await http.post(`/v1/payment/details/${segment(paymentId)}/refund`, body, refundView, { headers: { 'Idempotency-Key': key } });
      requestKey.settled();
      return answer;
    },
    onSettled: () => Promise.all(refundTouches.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

/**
 * The query families a refund changes. The gateway's stores (their counters) and the payment
 * links sit above payments in the feature layers (ARCHITECTURE.md), so their keys' roots
 * ('stores', 'payment-requests') are named here rather than imported.
 */
const refundTouches: readonly (readonly string[])[] = [paymentKeys.all, transactionKeys.all, accountKeys.all, ['stores'], ['payment-requests']];
