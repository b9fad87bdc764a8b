import { withdrawalView, type CreateWithdrawalBody, type WithdrawalView } from '@kestrel/shared';
import { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, segment } from '../../lib/http.ts';
import { accountKeys } from '../accounts/api.ts';
import { transactionKeys } from '../transactions/api.ts';
import { useRequestKey } from '../../lib/idempotency-key.ts';

/* Bank withdrawals: the active account's list and a new request. Types come from the shared contract. */

export type Withdrawal = WithdrawalView;

export const withdrawalKeys = {
  all: ['withdrawals'] as const,
  account: (accountNumber: string) => [...withdrawalKeys.all, 'account', accountNumber] as const,
};

/** GET /v1/bank-withdraw/account/{accountNumber}: newest first, bank account numbers masked. */
export function useWithdrawals(accountNumber: string | undefined) {
  return useQuery({
    queryKey: withdrawalKeys.account(accountNumber ?? ''),
    queryFn: async ({ signal }) => (await http.get(`/v1/bank-withdraw/account/${segment(accountNumber ?? '')}`, z.array(withdrawalView), { signal })).data,
    enabled: Boolean(accountNumber),
    // An operator moves withdrawals on; the list should say what is true when it is opened.
    refetchOnMount: 'always',
  });
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
    mutationFn: async (body: CreateWithdrawalBody) => {
      const key = requestKey.keyFor(JSON.stringify({ ...body, tpin: undefined }));
      return http.post('/v1/bank-withdraw/create', body, withdrawalView, { headers: { 'Idempotency-Key': key } });
    },
    onSuccess: (_result, body) => {
      requestKey.settled();
      for (const queryKey of [
        withdrawalKeys.account(body.accountNumber),
        accountKeys.details(),
        accountKeys.summary(body.accountNumber),
        transactionKeys.account(body.accountNumber),
      ]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
