import type { OperationDoc } from './operations.ts';

/* The operator console's calls. Every one is operators-only: anyone else gets the 404 of an unknown route. */

// 403: an operator never acts on a record of their own user (separation of duties).
const operator = (operationId: string, description: string): OperationDoc => ({ operationId, tag: 'Operator', description });

export const operatorOperations: Record<string, OperationDoc> = {
  'GET /v1/operator/identity-reviews': operator('listIdentityReviews', 'Accounts whose identity documents wait for review, oldest first.'),
  'POST /v1/operator/accounts/:accountId/identity/verify': operator('verifyIdentity', "Marks an account's identity as verified after reviewing its documents."),
  'POST /v1/operator/accounts/:accountId/identity/request-documents': operator(
    'requestIdentityDocuments',
    'Sets the reviewed identity documents aside and asks the holder for new ones, with a reason the holder sees.',
  ),
  'GET /v1/operator/overview': operator('getOperatorOverview', 'Queue lengths: stores, withdrawals, identity reviews, failing callbacks and open reconciliation differences.'),
  'GET /v1/operator/charts': operator(
    'getOperatorCharts',
    "Every store's and payment link's payments for each of the last 30 days in UTC, per currency (paid count and volume, refused attempts, the period's success rate), and the callback queue now: deliveries waiting to be sent and failing ones.",
  ),
  'GET /v1/operator/accounts': operator('searchAccounts', 'Finds accounts by account number, user name, e-mail or phone.'),
  'GET /v1/operator/accounts/:accountId': operator('getOperatorAccount', "An account's balances, postings, activities, stores, payments and withdrawals."),
  'POST /v1/operator/accounts/:accountId/lock': operator('lockAccount', 'Locks money movement out of the account, with a reason (audited).'),
  'POST /v1/operator/accounts/:accountId/unlock': operator('unlockAccount', 'Unlocks money movement, with a reason (audited).'),
  'POST /v1/operator/accounts/:accountId/fund': {
    ...operator('fundAccount', "Credits the account's wallet from the funding system account (audited). Send an Idempotency-Key so a retry cannot fund twice."),
    idempotent: 'optional',
  },
  'GET /v1/operator/payments/:paymentId': operator('getOperatorPayment', 'A gateway or link payment, by its id, with its refunds and what is left to refund.'),
  'POST /v1/operator/payments/:paymentId/refund': {
    ...operator(
      'refundPaymentAsOperator',
      "Refunds a payment on a customer's behalf, in full or in part, with a reason; the audit log names the operator. Same rules as the store API refund (409 for too much, unpaid, 180 days, or an owner wallet that cannot cover it; 402 when the card processor refuses).",
    ),
    idempotent: 'optional',
    requestExample: { amount: 10, reason: 'Customer complaint #4411: parcel never arrived' },
  },
  'GET /v1/operator/ledger-health': operator('getLedgerHealth', 'The ledger checks of `npm run ledger:verify`, run live.'),
  'GET /v1/operator/audit-log': operator('listAuditLog', 'The audit log, newest first, filtered by actor, action, subject and time.'),
  'GET /v1/operator/callbacks': operator('listFailingCallbacks', 'Callback deliveries that are failing (given up, or waiting to retry after a failed attempt), newest first, paged.'),
  'POST /v1/operator/callbacks/:deliveryId/resend': operator(
    'resendCallback',
    "Queues a callback delivery again, due now, to the store's current callback URL, with a reason (audited).",
  ),
  'GET /v1/operator/withdrawals': operator('listOperatorWithdrawals', 'Bank withdrawals, oldest first, optionally of one status.'),
  'POST /v1/operator/withdrawals/:id/processing': operator('startWithdrawal', 'Pending → Processing.'),
  'POST /v1/operator/withdrawals/:id/complete': operator('completeWithdrawal', 'Processing → Completed: the money has been paid out.'),
  'POST /v1/operator/withdrawals/:id/fail': operator('failWithdrawal', 'Processing → Failed: the money goes back to the wallet; a reason is required. A payout request still waiting for a second operator is refused first (409).'),
  'GET /v1/operator/stores': operator('listOperatorStores', 'Stores of one status (Pending by default), oldest first.'),
  'GET /v1/operator/stores/:storeId/documents/:documentId': {
    ...operator('getStoreDocument', "A store's business document image."),
    binary: { description: 'The document image', mediaTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] },
  },
  'POST /v1/operator/stores/:storeId/approve': operator('approveStore', 'Approves a Pending store: its key starts taking payments.'),
  'POST /v1/operator/stores/:storeId/reject': operator('rejectStore', 'Rejects a Pending store with a reason the owner sees.'),
  'POST /v1/operator/stores/:storeId/suspend': operator('suspendStore', 'Suspends an Approved store with a reason the owner sees: its gateway calls and checkout answer 403 `store_suspended` until it is reinstated.'),
  'POST /v1/operator/stores/:storeId/reinstate': operator('reinstateStore', 'Reinstates a Suspended store, with a reason (audited).'),
  'GET /v1/operator/approvals': operator('listApprovals', 'Four-eyes requests (funding above the threshold or past the daily cap, large payouts): Pending ones oldest first (the queue), decided ones newest first.'),
  'POST /v1/operator/approvals/:approvalId/approve': operator(
    'approveRequest',
    "Approves another operator's request with a reason: the funding or payout is carried out at once, exactly once. The requester cannot approve their own (403).",
  ),
  'POST /v1/operator/approvals/:approvalId/refuse': operator('refuseRequest', "Refuses another operator's request with a reason; nothing moves (audited)."),
  'GET /v1/operator/reconciliation/runs': operator('listReconciliationRuns', "Reconciliation runs of the card processor's records against the ledger, newest UTC day first (the latest 60), each with its figures and the differences still open."),
  'POST /v1/operator/reconciliation/runs': {
    ...operator(
      'runReconciliation',
      "Reconciles one UTC day now (today: as far as it has gone): the processor's charges and refunds of the day against the ledger's card payments and card refunds. Running a day again replaces its figures, keeps each difference and its resolution, and clears the differences no longer found. A day not yet begun is 400 `day_in_future`; a processor whose records cannot be read is 502 (nothing stored).",
    ),
    requestExample: { day: '2026-05-01' },
  },
  'GET /v1/operator/reconciliation/mismatches': operator(
    'listReconciliationMismatches',
    'Differences between the processor and the ledger (open by default; `status=resolved|all`, `day=YYYY-MM-DD`), with the amounts on each side, the card, both statuses and times, and the actions an operator may take now.',
  ),
  'POST /v1/operator/reconciliation/mismatches/:mismatchId/void': {
    ...operator(
      'voidReconciliationCharge',
      'Voids at the processor a charge the books do not have ("charged but not recorded"), outside any transaction, after reading the books again; with a reason (audited). 409 when the books have it now or the processor no longer shows it approved; 502 when the processor does not answer.',
    ),
    requestExample: { reason: 'Customer paid again with another card; releasing the first charge' },
  },
  'POST /v1/operator/reconciliation/mismatches/:mismatchId/record': {
    ...operator(
      'recordReconciliationCharge',
      'Records in the books a charge the processor made that they do not have, on its payment or link, through the collect pipeline (fee, callback, activity, audit as any card payment); or settles a card refund the books still show as processing, through the refund pipeline. With a reason (audited). 409 `charge_not_payable` when the payment or link no longer takes it (paid meanwhile, disabled, expired, used up, another amount): void it instead.',
    ),
    requestExample: { reason: "Processor timeout on order 1042; the customer's bank shows the charge" },
  },
  'POST /v1/operator/reconciliation/mismatches/:mismatchId/resolve': {
    ...operator('resolveReconciliationMismatch', 'Marks a difference resolved with a reason (audited); nothing moves. Refused while another operator voids or records it (409).'),
    requestExample: { reason: 'Refunded by hand at the processor, ticket 5521' },
  },
  'GET /v1/operator/today': operator('getOperatorTotalsToday', "Today's (UTC) funding, payouts and decisions per operator, from the audit trail."),
};
