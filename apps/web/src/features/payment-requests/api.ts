import {
  createPaymentRequestAnswer,
  linkPaymentView,
  paymentRequestView,
  type CreatePaymentRequestInput,
  type PaymentRequestStatus,
  type PaymentRequestView,
  type UpdatePaymentRequestLimitInput,
} from '@kestrel/shared';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { http, segment } from '../../lib/http.ts';
import { useRequestKey } from '../../lib/idempotency-key.ts';

/* Payment-request links of the active account: the list, one link, its payments, and the owner's changes. */

export const paymentRequestKeys = {
  all: ['payment-requests'] as const,
  account: (accountNumber: string) => [...paymentRequestKeys.all, 'account', accountNumber] as const,
  one: (id: string) => [...paymentRequestKeys.all, 'one', id] as const,
  payments: (id: string) => [...paymentRequestKeys.all, 'payments', id] as const,
  counters: (accountNumber: string) => [...paymentRequestKeys.all, 'counters', accountNumber] as const,
};

/** Links per page of the list. */
export const PAYMENT_REQUEST_PAGE_SIZE = 25;

/** GET /v1/payment-request/account/{accountNumber}?limit&cursor: the account's links, newest first, a page at a time. */
export function usePaymentRequests(accountNumber: string | undefined) {
  return useInfiniteQuery({
    queryKey: paymentRequestKeys.account(accountNumber ?? ''),
    queryFn: async ({ signal, pageParam }) => {
      const query = new URLSearchParams({ limit: String(PAYMENT_REQUEST_PAGE_SIZE) });
      if (pageParam !== undefined) query.set('cursor', pageParam);
      return (await http.get(`/v1/payment-request/account/${segment(accountNumber ?? '')}?${query.toString()}`, (c) => c.paymentRequestList, { signal })).data;
    },
    initialPageParam: undefined as string | undefined,
    // A full page may have older links after it; a short one is the last.
    getNextPageParam: (page) => (page.length < PAYMENT_REQUEST_PAGE_SIZE ? undefined : page[page.length - 1]?._id),
    enabled: Boolean(accountNumber),
    // Visitors pay links while the owner is away; the remaining limits should be today's.
    refetchOnMount: 'always',
  });
}

/** GET /v1/payment-request/account/{accountNumber}/summary: Total Request, Active Request and Total Payments over every link, counted by the server. */
export function usePaymentRequestCounters(accountNumber: string | undefined) {
  return useQuery({
    queryKey: paymentRequestKeys.counters(accountNumber ?? ''),
    queryFn: async ({ signal }) => (await http.get(`/v1/payment-request/account/${segment(accountNumber ?? '')}/summary`, (c) => c.paymentRequestCounters, { signal })).data,
    enabled: Boolean(accountNumber),
    refetchOnMount: 'always',
  });
}

/** GET /v1/payment-request/{id}: one link with its failed attempts. */
export function usePaymentRequest(id: string) {
  return useQuery({
    queryKey: paymentRequestKeys.one(id),
    queryFn: async ({ signal }) => (await http.get(`/v1/payment-request/${segment(id)}`, paymentRequestView, { signal })).data,
    refetchOnMount: 'always',
    // Another user's or a mistyped id answers 404: 'No details found!' at once, not after retries.
    retry: false,
  });
}

/** GET /v1/payment/payment-request/{id}: the link's successful payments. */
export function usePaymentRequestPayments(id: string) {
  return useQuery({
    queryKey: paymentRequestKeys.payments(id),
    queryFn: async ({ signal }) => (await http.get(`/v1/payment/payment-request/${segment(id)}`, z.array(linkPaymentView), { signal })).data,
    refetchOnMount: 'always',
    retry: false,
  });
}

/**
 * POST /v1/payment-request/create with an Idempotency-Key header. The key belongs to the link
 * being asked for (every field but the TPIN): sending the same form again after a lost answer
 * reuses it, so one link is made; a changed field is a new link with a new key.
 */
export function useCreatePaymentRequest() {
  const queryClient = useQueryClient();
  const requestKey = useRequestKey();
  return useMutation({
    mutationFn: async (body: CreatePaymentRequestInput) => {
      const key = requestKey.keyFor(JSON.stringify({ ...body, tpin: undefined }));
      return (await http.post('/v1/payment-request/create', body, createPaymentRequestAnswer, { headers: { 'Idempotency-Key': key } })).data;
    },
    onSuccess: (_answer, body) => {
      requestKey.settled();
      void queryClient.invalidateQueries({ queryKey: paymentRequestKeys.account(body.accountNumber) });
      void queryClient.invalidateQueries({ queryKey: paymentRequestKeys.counters(body.accountNumber) });
    },
  });
}

/**
 * After a change the server accepted: the cached link takes the new values at once (the shown
 * state changes only on success), then it and its list are read again.
 */
function useLinkChanged(id: string) {
  const queryClient = useQueryClient();
  return (change: Partial<PaymentRequestView>) => {
    const link = queryClient.getQueryData<PaymentRequestView>(paymentRequestKeys.one(id));
    if (link) queryClient.setQueryData(paymentRequestKeys.one(id), { ...link, ...change });
    void queryClient.invalidateQueries({ queryKey: paymentRequestKeys.all });
  };
}

/** PATCH /v1/payment-request/update/{id} {status}: the details page's active switch. */
export function useUpdatePaymentRequestStatus(id: string) {
  const changed = useLinkChanged(id);
  return useMutation({
    mutationFn: async (status: PaymentRequestStatus) => (await http.patch(`/v1/payment-request/update/${segment(id)}`, { status }, paymentRequestView)).data,
    onSuccess: (_link, status) => changed({ status }),
  });
}

/** PATCH /v1/payment-request/limit/update/{id}: {useLimit}, or {isUseLimit: true, useLimit} to turn a limit on. */
export function useUpdatePaymentRequestLimit(id: string) {
  const changed = useLinkChanged(id);
  return useMutation({
    mutationFn: async (body: UpdatePaymentRequestLimitInput) => (await http.patch(`/v1/payment-request/limit/update/${segment(id)}`, body, paymentRequestView)).data,
    onSuccess: (_link, body) => changed({ isUseLimit: body.isUseLimit ?? true, useLimit: body.useLimit === undefined ? null : Number(body.useLimit) }),
  });
}
