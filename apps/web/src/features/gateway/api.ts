import { callbackDeliveryView, resentDelivery, storeListView, storeView } from '@kestrel/shared';
import { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, segment } from '../../lib/http.ts';
import { paymentKeys } from '../payments/api.ts';

/*
 * Payment gateway stores (GET/POST /v1/payment_gateway_store/...). Shapes come from the shared
 * contracts (packages/shared/src/contracts/stores.ts), the same ones the API validates with.
 */

export const storeKeys = {
  all: ['stores'] as const,
  account: (accountEmail: string) => [...storeKeys.all, 'account', accountEmail] as const,
  one: (storeId: string) => [...storeKeys.all, 'one', storeId] as const,
  deliveries: (storeId: string) => [...storeKeys.all, 'deliveries', storeId] as const,
};

export function useStores(accountEmail: string | undefined) {
  return useQuery({
    queryKey: storeKeys.account(accountEmail ?? ''),
    queryFn: async ({ signal }) => (await http.get(`/v1/payment_gateway_store/account/${segment(accountEmail ?? '')}`, storeListView, { signal })).data,
    enabled: Boolean(accountEmail),
  });
}

export function useStore(storeId: string) {
  return useQuery({
    queryKey: storeKeys.one(storeId),
    queryFn: async ({ signal }) => (await http.get(`/v1/payment_gateway_store/${segment(storeId)}`, storeView, { signal })).data,
  });
}

/** POST /v1/payment_gateway_store/create (multipart). */
export function useCreateStore() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (form: FormData) => http.post('/v1/payment_gateway_store/create', form, storeView),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storeKeys.all }),
  });
}

export function useStoreDeliveries(storeId: string) {
  return useQuery({
    queryKey: storeKeys.deliveries(storeId),
    queryFn: async ({ signal }) => (await http.get(`/v1/payment_gateway_store/${segment(storeId)}/callbacks`, z.array(callbackDeliveryView), { signal })).data,
  });
}

export function useResendDelivery(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (deliveryId: string) => http.post(`/v1/payment_gateway_store/${segment(storeId)}/callbacks/${segment(deliveryId)}/resend`, undefined, resentDelivery),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: storeKeys.deliveries(storeId) }), queryClient.invalidateQueries({ queryKey: paymentKeys.all })]),
  });
}

/** POST /v1/payment_gateway_store/{storeId}/rotate-key: a new key at once, the old one kept for 24 hours. */
export function useRotateStoreKey(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (tpin: string) => http.post(`/v1/payment_gateway_store/${segment(storeId)}/rotate-key`, { tpin }, storeView),
    onSuccess: (answer) => {
      queryClient.setQueryData(storeKeys.one(storeId), answer.data);
      return queryClient.invalidateQueries({ queryKey: storeKeys.all });
    },
  });
}

/** PUT /v1/payment_gateway_store/{storeId}/payment-mails: the owner's "You got paid" notices on or off. */
export function useStorePaymentMails(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (notifyOnPayment: boolean) => http.put(`/v1/payment_gateway_store/${segment(storeId)}/payment-mails`, { notifyOnPayment }, storeView),
    onSuccess: (answer) => {
      queryClient.setQueryData(storeKeys.one(storeId), answer.data);
      return queryClient.invalidateQueries({ queryKey: storeKeys.all });
    },
  });
}
