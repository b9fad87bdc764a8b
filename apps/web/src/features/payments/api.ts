import { paymentView, type PaymentView } from '@kestrel/shared';
import { z } from 'zod';
import { useQuery } from '@tanstack/react-query';
import { http, segment } from '../../lib/http.ts';

/* Payments into the active account or one store, and one payment's details (contracts/payments.ts). */

export const paymentKeys = {
  all: ['payments'] as const,
  account: (accountEmail: string) => [...paymentKeys.all, 'account', accountEmail] as const,
  store: (storeId: string) => [...paymentKeys.all, 'store', storeId] as const,
  one: (paymentId: string) => [...paymentKeys.all, 'one', paymentId] as const,
};

export function useAccountPayments(accountEmail: string | undefined) {
  return useQuery({
    queryKey: paymentKeys.account(accountEmail ?? ''),
    queryFn: async ({ signal }) => (await http.post('/v1/payment/account', { accountEmail }, z.array(paymentView), { signal })).data,
    enabled: Boolean(accountEmail),
  });
}

export function useStorePayments(storeId: string) {
  return useQuery({
    queryKey: paymentKeys.store(storeId),
    queryFn: async ({ signal }) => (await http.get(`/v1/payment/store/${segment(storeId)}`, z.array(paymentView), { signal })).data,
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
