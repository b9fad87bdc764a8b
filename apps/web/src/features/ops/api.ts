import {
  accountSearchResult,
  auditLogPage,
  failingCallbacksPage,
  fundWalletResult,
  identityReviewList,
  ledgerHealth,
  moneyLockResult,
  operatorAccountDetail,
  operatorApprovalView,
  operatorChart,
  operatorDayTotals,
  operatorOverview,
  operatorPaymentView,
  operatorResentCallback,
  operatorWithdrawalView,
  reconciliationMismatchList,
  reconciliationMismatchView,
  reconciliationRunList,
  reconciliationRunView,
  refundView,
  requestDocumentsResult,
  storeReviewView,
  storeView,
  verifyIdentityResult,
  type AuditLogQueryInput,
  type MismatchAction,
  type RunReconciliationInput,
  type OperatorRefundInput,
  type StoreStatus,
  type WithdrawalStatus,
} from '@kestrel/shared';
import { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, segment } from '../../lib/http.ts';
import { useRequestKey } from '../../lib/idempotency-key.ts';

/*
 * The operator console's calls (every /v1/operator route answers 404 to anyone but an
 * operator). Response shapes come from the shared contracts.
 */

export const opsKeys = {
  all: ['ops'] as const,
  overview: () => [...opsKeys.all, 'overview'] as const,
  charts: () => [...opsKeys.all, 'charts'] as const,
  stores: (status: string) => [...opsKeys.all, 'stores', status] as const,
  withdrawals: (status: string) => [...opsKeys.all, 'withdrawals', status] as const,
  identity: () => [...opsKeys.all, 'identity'] as const,
  search: (q: string) => [...opsKeys.all, 'search', q] as const,
  account: (id: string) => [...opsKeys.all, 'account', id] as const,
  ledger: () => [...opsKeys.all, 'ledger'] as const,
  audit: (query: AuditLogQueryInput) => [...opsKeys.all, 'audit', query] as const,
  callbacks: (page: number) => [...opsKeys.all, 'callbacks', page] as const,
  approvals: (status: string) => [...opsKeys.all, 'approvals', status] as const,
  today: () => [...opsKeys.all, 'today'] as const,
  payment: (paymentId: string) => [...opsKeys.all, 'payment', paymentId] as const,
  reconciliationRuns: () => [...opsKeys.all, 'reconciliation', 'runs'] as const,
  reconciliationMismatches: (status: string, day: string) => [...opsKeys.all, 'reconciliation', 'mismatches', status, day] as const,
};

/** Queues change under other operators' hands: always read them fresh when a page opens. */
const fresh = { refetchOnMount: 'always' as const };

export function useOverview() {
  return useQuery({ queryKey: opsKeys.overview(), queryFn: async ({ signal }) => (await http.get('/v1/operator/overview', operatorOverview, { signal })).data, ...fresh });
}

/** GET /v1/operator/charts: payments per UTC day over the last 30 days, the callback queue now. */
export function useOperatorCharts() {
  return useQuery({ queryKey: opsKeys.charts(), queryFn: async ({ signal }) => (await http.get('/v1/operator/charts', operatorChart, { signal })).data, ...fresh });
}

export function useOpsStores(status: StoreStatus) {
  return useQuery({
    queryKey: opsKeys.stores(status),
    queryFn: async ({ signal }) => (await http.get(`/v1/operator/stores?status=${segment(status)}`, z.array(storeReviewView), { signal })).data,
    ...fresh,
  });
}

export function useOpsWithdrawals(status: WithdrawalStatus | '') {
  return useQuery({
    queryKey: opsKeys.withdrawals(status),
    queryFn: async ({ signal }) => (await http.get(`/v1/operator/withdrawals${status ? `?status=${segment(status)}` : ''}`, z.array(operatorWithdrawalView), { signal })).data,
    ...fresh,
  });
}

export function useIdentityReviews() {
  return useQuery({ queryKey: opsKeys.identity(), queryFn: async ({ signal }) => (await http.get('/v1/operator/identity-reviews', identityReviewList, { signal })).data, ...fresh });
}

export function useAccountSearch(q: string) {
  return useQuery({
    queryKey: opsKeys.search(q),
    queryFn: async ({ signal }) => (await http.get(`/v1/operator/accounts?q=${segment(q)}`, accountSearchResult, { signal })).data,
    enabled: q.trim().length >= 2,
  });
}

export function useOpsAccount(accountId: string) {
  return useQuery({ queryKey: opsKeys.account(accountId), queryFn: async ({ signal }) => (await http.get(`/v1/operator/accounts/${segment(accountId)}`, operatorAccountDetail, { signal })).data, ...fresh });
}

export function useLedgerHealth() {
  return useQuery({ queryKey: opsKeys.ledger(), queryFn: async ({ signal }) => (await http.get('/v1/operator/ledger-health', ledgerHealth, { signal })).data, ...fresh });
}

export function useAuditLog(query: AuditLogQueryInput) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  return useQuery({
    queryKey: opsKeys.audit(query),
    queryFn: async ({ signal }) => (await http.get(`/v1/operator/audit-log?${params.toString()}`, auditLogPage, { signal })).data,
    ...fresh,
  });
}

export function useFailingCallbacks(page: number, pageSize: number) {
  return useQuery({
    queryKey: opsKeys.callbacks(page),
    queryFn: async ({ signal }) => (await http.get(`/v1/operator/callbacks?page=${page}&pageSize=${pageSize}`, failingCallbacksPage, { signal })).data,
    ...fresh,
  });
}

/** Every change refreshes the whole console's data: queues, counts and accounts move together. */
function useOpsMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: opsKeys.all }) });
}

/** Every store decision takes a reason (approve, reject, suspend, reinstate). */
export type StoreDecision = 'approve' | 'reject' | 'suspend' | 'reinstate';
export function useStoreDecision() {
  return useOpsMutation(async ({ storeId, decision, reason }: { storeId: string; decision: StoreDecision; reason: string }) =>
    http.post(`/v1/operator/stores/${segment(storeId)}/${decision}`, { reason }, storeView),
  );
}

/** Completing a large withdrawal answers 202 with a four-eyes request instead of the withdrawal. */
const completionAnswer = z.union([operatorWithdrawalView, operatorApprovalView]);
export function useWithdrawalMove() {
  return useOpsMutation(async ({ id, move, reason }: { id: string; move: 'processing' | 'complete' | 'fail'; reason?: string }) =>
    http.post(`/v1/operator/withdrawals/${segment(id)}/${move}`, move === 'fail' ? { reason } : undefined, completionAnswer),
  );
}

/** The four-eyes queue (Pending, oldest first) or the decided requests. */
export function useApprovals(status: 'Pending' | 'Approved' | 'Refused') {
  return useQuery({
    queryKey: opsKeys.approvals(status),
    queryFn: async ({ signal }) => (await http.get(`/v1/operator/approvals?status=${segment(status)}`, z.array(operatorApprovalView), { signal })).data,
    ...fresh,
  });
}

export function useDecideApproval() {
  return useOpsMutation(async ({ approvalId, decision, reason }: { approvalId: string; decision: 'approve' | 'refuse'; reason: string }) =>
    http.post(`/v1/operator/approvals/${segment(approvalId)}/${decision}`, { reason }, operatorApprovalView),
  );
}

export function useDayTotals() {
  return useQuery({ queryKey: opsKeys.today(), queryFn: async ({ signal }) => (await http.get('/v1/operator/today', operatorDayTotals, { signal })).data, ...fresh });
}

export function useVerifyIdentity() {
  return useOpsMutation(async (accountId: string) => http.post(`/v1/operator/accounts/${segment(accountId)}/identity/verify`, undefined, verifyIdentityResult));
}

export function useRequestDocuments() {
  return useOpsMutation(async ({ accountId, reason }: { accountId: string; reason: string }) =>
    http.post(`/v1/operator/accounts/${segment(accountId)}/identity/request-documents`, { reason }, requestDocumentsResult),
  );
}

export function useMoneyLock() {
  return useOpsMutation(async ({ accountId, lock, reason }: { accountId: string; lock: boolean; reason: string }) =>
    http.post(`/v1/operator/accounts/${segment(accountId)}/${lock ? 'lock' : 'unlock'}`, { reason }, moneyLockResult),
  );
}

/**
 * Funding with an Idempotency-Key that belongs to the request (account, amount, currency,
 * reason), not to the click: sending it again after a lost answer credits once.
 */
export function useFundWallet() {
  const requestKey = useRequestKey();
  return useOpsMutation(async (input: { accountId: string; amount: string; currency: string; reason: string }) => {
    const key = requestKey.keyFor(JSON.stringify(input));
    const result = await http.post(
      `/v1/operator/accounts/${segment(input.accountId)}/fund`,
      { amount: input.amount, currency: input.currency, reason: input.reason },
      // 200: funded; 202: above the four-eyes threshold or the daily cap, a request for a second operator.
      z.union([fundWalletResult, operatorApprovalView]),
      { headers: { 'Idempotency-Key': key } },
    );
    requestKey.settled();
    return result;
  });
}

export function useResendCallback() {
  return useOpsMutation(async ({ deliveryId, reason }: { deliveryId: string; reason: string }) =>
    http.post(`/v1/operator/callbacks/${segment(deliveryId)}/resend`, { reason }, operatorResentCallback),
  );
}

/** GET /v1/operator/payments/{paymentId}: a gateway or link payment with its refunds (issue 23). */
export function useOpsPayment(paymentId: string) {
  return useQuery({
    queryKey: opsKeys.payment(paymentId),
    queryFn: async ({ signal }) => (await http.get(`/v1/operator/payments/${segment(paymentId)}`, operatorPaymentView, { signal })).data,
    enabled: paymentId.trim().length > 0,
    retry: false,
    ...fresh,
  });
}

/**
 * POST /v1/operator/payments/{paymentId}/refund: a refund on the customer's behalf, with the
 * reason kept in the audit trail. The Idempotency-Key belongs to the request (payment, amount,
 * reason), not to the click: sending it again after a lost answer refunds once.
 */
export function useOperatorRefund() {
  const requestKey = useRequestKey();
  return useOpsMutation(async ({ paymentId, ...body }: OperatorRefundInput & { paymentId: string }) => {
    const key = requestKey.keyFor(JSON.stringify({ paymentId, ...body }));
    const result = await http.post(`/v1/operator/payments/${segment(paymentId)}/refund`, body, refundView, { headers: { 'Idempotency-Key': key } });
    requestKey.settled();
    return result;
  });
}

/** GET /v1/operator/reconciliation/runs: the days reconciled, newest first (issue 26). */
export function useReconciliationRuns() {
  return useQuery({
    queryKey: opsKeys.reconciliationRuns(),
    queryFn: async ({ signal }) => (await http.get('/v1/operator/reconciliation/runs', reconciliationRunList, { signal })).data,
    ...fresh,
  });
}

/** GET /v1/operator/reconciliation/mismatches: the differences (open by default), of one day or all. */
export function useReconciliationMismatches(status: 'open' | 'resolved' | 'all', day: string | undefined) {
  return useQuery({
    queryKey: opsKeys.reconciliationMismatches(status, day ?? ''),
    queryFn: async ({ signal }) =>
      (await http.get(`/v1/operator/reconciliation/mismatches?status=${segment(status)}${day ? `&day=${segment(day)}` : ''}`, reconciliationMismatchList, { signal })).data,
    ...fresh,
  });
}

/** POST /v1/operator/reconciliation/runs: reconcile one UTC day now. */
export function useRunReconciliation() {
  return useOpsMutation(async (input: RunReconciliationInput) => http.post('/v1/operator/reconciliation/runs', input, reconciliationRunView));
}

/** Void, record or resolve a difference, each with a reason (audited). */
export function useMismatchAction() {
  return useOpsMutation(async ({ mismatchId, action, reason }: { mismatchId: string; action: MismatchAction; reason: string }) =>
    http.post(`/v1/operator/reconciliation/mismatches/${segment(mismatchId)}/${action}`, { reason }, reconciliationMismatchView),
  );
}
