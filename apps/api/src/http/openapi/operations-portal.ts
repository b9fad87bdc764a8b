import type { OperationDoc, TagName } from './operations.ts';

/** A monthly statement of one of the caller's accounts (JSON or, with `binary`, its PDF): 404 for anyone else's account or a month it has no statement for. */
const statementOperation = (operationId: string, description: string, binary?: OperationDoc['binary']): OperationDoc => ({
  operationId,
  tag: 'Transactions',
  description,
  ...(binary ? { binary } : {}),
});

/** A CSV export of one of the caller's lists (streamed, a download): 404 for anyone else's account, store or link. */
const csvExport = (operationId: string, tag: TagName, description: string, rows: string): OperationDoc => ({
  operationId,
  tag,
  description,
  binary: { description: `The ${rows} as CSV`, mediaTypes: ['text/csv'] },
});

/* The portal's own calls (sign-in and its second factors: operations-auth.ts): sign-up, accounts, transfers, transactions, withdrawals, invoices, data. */

export const portalOperations: Record<string, OperationDoc> = {
  'GET /v1/config': {
    operationId: 'getConfig',
    tag: 'Platform',
    description: "The web app's public settings (the marketing site's address).",
    database: false,
  },
  'POST /v1/user/register': {
    operationId: 'register',
    tag: 'Users',
    description: 'Signs up and answers a session token, so the new user is signed in; a verification link is mailed. A taken e-mail, phone or user name is 409.',
  },
  'GET /v1/user/:userId': {
    operationId: 'getUser',
    tag: 'Users',
    description: 'The signed-in user with their accounts; any other userId is 404.',
  },
  'POST /v1/user/send-verification-code': {
    operationId: 'sendVerificationLink',
    tag: 'Users',
    description: "Mails a new e-mail verification link to the signed-in user's own, unverified address (anything else is 404; a verified one 409; a mail server that refuses it 502).",
  },
  'POST /v1/user/verify-email': {
    operationId: 'verifyEmail',
    tag: 'Users',
    description: 'Spends a verification link token and marks the e-mail verified; public, because the mailed link works without a session.',
  },
  'POST /v1/account/create': {
    operationId: 'createAccount',
    tag: 'Accounts',
    description: 'Opens a personal or business account for the signed-in user, whose e-mail must be verified (403 otherwise).',
  },
  'PATCH /v1/account/upload-image': {
    operationId: 'uploadIdentityImages',
    tag: 'Accounts',
    description: "Uploads identity document images for one of the caller's accounts; an operator reviews them.",
    multipart: {
      type: 'object',
      required: ['identityImage'],
      properties: {
        accountId: { type: 'string', description: 'The account id (or give accountNumber)' },
        accountNumber: { type: 'string', description: 'The account number (or give accountId)' },
        identityImage: { type: 'array', items: { type: 'string', contentMediaType: 'image/*' }, minItems: 1, maxItems: 10, description: '1 to 10 JPEG, PNG, WebP or GIF images, at most 5 MB each' },
      },
    },
  },
  'GET /v1/account/:accountId/identity-images/:imageId': {
    operationId: 'getIdentityImage',
    tag: 'Accounts',
    description: "An identity document image; only the account's owner and operators may see it.",
    binary: { description: 'The image', mediaTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] },
  },
  'GET /v1/account/:key': {
    operationId: 'getAccount',
    tag: 'Accounts',
    description: "One of the caller's accounts by id, account number or user name; anyone else's is 404.",
  },
  'GET /v1/account/:key/summary': {
    operationId: 'getAccountSummary',
    tag: 'Accounts',
    description: "The dashboard's counters for one of the caller's accounts.",
  },
  'GET /v1/account/:key/chart': {
    operationId: 'getAccountChart',
    tag: 'Accounts',
    description:
      "The dashboard's chart for one of the caller's accounts: for each of the last 30 days in UTC (today last), each wallet's closing balance (every posting up to the end of the day) and the money the day's postings added and took, summed by the database from the ledger.",
  },
  'GET /v1/activities': {
    operationId: 'listActivities',
    tag: 'Accounts',
    description: "An account's latest activities (at most 200), grouped by day, newest first; owner only.",
  },
  'GET /v1/account/search': {
    operationId: 'searchRecipients',
    tag: 'Transfers',
    description: 'Finds a recipient by account number, e-mail, phone, user name or name (for the transfer form); searching is refused (403) to a caller who may not send money yet.',
  },
  'GET /v1/recipients/:userName': {
    operationId: 'getRecipient',
    tag: 'Transfers',
    description: 'One recipient by exact user name (case-insensitive), for the transfer form; refused (403) like the search to a caller who may not send money yet.',
  },
  'GET /v1/account/transfer_balance/recent/:accountNumber': {
    operationId: 'listRecentRecipients',
    tag: 'Transfers',
    description: "The latest distinct recipients of one of the caller's accounts.",
  },
  'POST /v1/account/transfer_balance': {
    operationId: 'transfer',
    tag: 'Transfers',
    description:
      "Sends money from one of the caller's accounts to another Kestrel account, checked with the sender's TPIN. Insufficient funds, a wrong TPIN or a locked account change nothing. Send an Idempotency-Key so a retry cannot send twice. Above the account's step-up threshold (US$ 1,000.00 of movements on the TPIN alone over 24 hours, this one included) it also needs `stepUpCode`: without it the answer is 403 `step_up_required` (and, when two-factor sign-in is off, a 6-digit code is e-mailed, at most 5 an hour: 429 `step_up_rate_limited` past that); a wrong, reused, expired or spent code is 403 `step_up_invalid`. Neither refusal is stored as the Idempotency-Key's answer: send the same request with the same key and the code.",
    idempotent: 'optional',
    errorExample: { 403: { status: 'error', error: 'This movement needs a verification code. Enter the 6-digit code from your authenticator app.', code: 'step_up_required' } },
  },
  'GET /v1/transaction/account/:accountNumber': {
    operationId: 'listTransactions',
    tag: 'Transactions',
    description: "Transactions of one of the caller's accounts, newest first, grouped by day (the latest 1000).",
  },
  'POST /v1/bank-withdraw/create': {
    operationId: 'createWithdrawal',
    tag: 'Withdrawals',
    description:
      "Asks for a bank withdrawal from one of the caller's accounts; the amount is held until an operator pays it out or fails it. Above the account's step-up threshold (US$ 1,000.00 of movements on the TPIN alone over 24 hours, this one included) it also needs `stepUpCode`: without it the answer is 403 `step_up_required` (and, when two-factor sign-in is off, a 6-digit code is e-mailed, at most 5 an hour: 429 `step_up_rate_limited` past that); a wrong, reused, expired or spent code is 403 `step_up_invalid`. Neither refusal is stored as the Idempotency-Key's answer: send the same request with the same key and the code.",
    idempotent: 'optional',
    errorExample: { 403: { status: 'error', error: 'This movement needs a verification code. We e-mailed a 6-digit code to you; enter it to continue.', code: 'step_up_required' } },
    requestExample: {
      accountNumber: '1000000001',
      tpin: '4826',
      country: 'United States',
      bankName: 'First Example Bank',
      accountType: 'Checking',
      bankAccountNumber: '000123456789',
      routingNumber: '021000021',
      accountHolderName: 'Ada Lovelace',
      currency: 'USD',
      amount: '120.00',
    },
  },
  'GET /v1/bank-withdraw/account/:accountNumber': {
    operationId: 'listWithdrawals',
    tag: 'Withdrawals',
    description: "One of the caller's accounts' bank withdrawals, newest first (bank account numbers masked).",
  },
  'GET /data/v1/countries': {
    operationId: 'listCountries',
    tag: 'Data',
    description: 'The country list: ISO 3166-1 alpha-2 code to name.',
    database: false,
  },
  'POST /data/v1/invoice/create': {
    operationId: 'createInvoice',
    tag: 'Invoices',
    description: 'Creates an invoice of the signed-in user; numbers run 1, 2, 3… per user.',
    requestExample: { name: 'Rahim Uddin', phone: '01712345678', email: 'rahim@example.org', reciver: 'Ada Lovelace', details: 'Website design, March', unit_price: '150.00', quantity: 2 },
  },
  'GET /data/v1/invoice/user/:userId': {
    operationId: 'listInvoices',
    tag: 'Invoices',
    description: "The caller's invoices, newest first (userId must be the caller's own; any other is 404).",
  },
  'GET /data/v1/invoice/:id': {
    operationId: 'getInvoice',
    tag: 'Invoices',
    description: 'One of the caller\'s invoices, with who issued it (the printable view).',
  },
  'PATCH /data/v1/invoice/status/:id': {
    operationId: 'updateInvoiceStatus',
    tag: 'Invoices',
    description: "Marks one of the caller's invoices paid or unpaid. Invoices have no payment path in Kestrel (the customer pays the owner some other way), so the owner says when it was paid; any other caller's invoice is 404.",
    requestExample: { status: 'paid' },
  },
  'GET /data/v1/invoice/:id/pdf': {
    operationId: 'getInvoicePdf',
    tag: 'Invoices',
    description: "One of the caller's invoices as a PDF download.",
    binary: { description: 'The invoice as a PDF', mediaTypes: ['application/pdf'] },
  },
  'GET /v1/ledger/seals': {
    operationId: 'listLedgerSeals',
    tag: 'Ledger',
    description: "Kestrel's Ed25519 seal key and the published seals, oldest first: each a signed Merkle root over a run of ledger transactions, chained to the seal before it. Public, so anyone can check a proof (`npm run ledger:prove`, or `verifyLedgerProof` in @kestrel/shared).",
  },
  'GET /v1/ledger/proof/:transactionId': {
    operationId: 'getLedgerProof',
    tag: 'Ledger',
    description: "A transaction's sealed record, its inclusion path and its seal, for the accounts it moved money of (404 for anyone else); 409 `not_sealed_yet` in its first minute.",
  },
  'GET /v1/statement/account/:accountNumber': statementOperation(
    'listStatementMonths',
    "The UTC months one of the caller's accounts has a monthly statement for, newest first: the current month so far, then back to the month the account was opened in. Another person's account is 404.",
  ),
  'GET /v1/statement/account/:accountNumber/:month': statementOperation(
    'getStatement',
    "One UTC month's statement of one of the caller's accounts: opening balance, every ledger movement with its running balance, closing balance (integer cents as text), signed with the ledger's seal key, each movement with its inclusion proof against GET /v1/ledger/seals (null before it is sealed). Check it with `npm run ledger:prove -- --statement statement.json seals.json`. A month before the account was opened or after the current one is 404.",
  ),
  'GET /v1/statement/account/:accountNumber/:month/pdf': statementOperation(
    'getStatementPdf',
    'The same statement as a PDF download (names in any script the Noto fonts draw).',
    { description: 'The statement as a PDF', mediaTypes: ['application/pdf'] },
  ),
  'GET /v1/export/transactions/:accountNumber': csvExport(
    'exportTransactions',
    'Transactions',
    "Every transaction of one of the caller's accounts as CSV (UTF-8 with a byte-order mark, CRLF), newest first, optionally between two UTC days; streamed.",
    'transactions',
  ),
  'GET /v1/export/withdrawals/:accountNumber': csvExport(
    'exportWithdrawals',
    'Withdrawals',
    "Every bank withdrawal of one of the caller's accounts as CSV (bank account numbers masked), newest first, optionally between two UTC days; streamed.",
    'withdrawals',
  ),
  'GET /v1/export/payments/:accountNumber': csvExport(
    'exportAccountPayments',
    'Payments',
    "Every gateway payment into one of the caller's accounts (the Payment History list) as CSV, with the amount refunded, newest first, optionally between two UTC days; streamed.",
    'payments',
  ),
  'GET /v1/export/store-payments/:storeId': csvExport(
    'exportStorePayments',
    'Payments',
    "Every payment into one of the caller's stores (the store's Payments tab) as CSV, with the amount refunded, newest first, optionally between two UTC days; streamed. 404 for a store of someone else.",
    'payments',
  ),
  'GET /v1/export/payment-request-payments/:accountNumber': csvExport(
    'exportAccountPaymentRequestPayments',
    'Payment links',
    "Every payment made through a payment-request link of one of the caller's accounts as CSV, with the amount refunded, newest first, optionally between two UTC days; streamed.",
    'link payments',
  ),
  'GET /v1/export/payment-request/:paymentRequestId/payments': csvExport(
    'exportPaymentRequestPayments',
    'Payment links',
    "Every payment made through one of the caller's payment-request links as CSV, with the amount refunded, newest first, optionally between two UTC days; streamed. 404 for a link of someone else.",
    'link payments',
  ),
  'GET /v1/export/refunds/:accountNumber': csvExport(
    'exportRefunds',
    'Payments',
    "Every refund (any status) of a payment into one of the caller's accounts as CSV, newest first, optionally between two UTC days; streamed.",
    'refunds',
  ),
  'GET /v1/bank-withdraw/account/:accountNumber/summary': {
    operationId: 'getWithdrawalCounters',
    tag: 'Withdrawals',
    description: "The withdraw list's counters (Completed, Pending, Total Withdraw, Failed) over every withdrawal of one of the caller's accounts.",
  },
  'GET /v1/bank-withdraw/details/:id': {
    operationId: 'getWithdrawal',
    tag: 'Withdrawals',
    description: "One of the caller's withdrawals with its status history; the bank account number is masked.",
  },
  'POST /v1/bank-withdraw/cancel/:id': {
    operationId: 'cancelWithdrawal',
    tag: 'Withdrawals',
    description: "Cancels one of the caller's Pending withdrawals with the account's TPIN; the held money returns to the wallet in the same ledger transaction. 409 once an operator has moved it on.",
    idempotent: 'optional',
  },
  'POST /v1/payment/account/summary': {
    operationId: 'getAccountPaymentCounters',
    tag: 'Payments',
    description: "The payments list's counters over every payment into one of the caller's accounts.",
  },
  'GET /v1/payment/store/:storeId/summary': {
    operationId: 'getStorePaymentCounters',
    tag: 'Payments',
    description: "The payments list's counters over every payment of one of the caller's stores.",
  },
  'GET /v1/payment/store/:storeId/chart': {
    operationId: 'getStorePaymentChart',
    tag: 'Payments',
    description:
      "One of the caller's stores, for each of the last 30 days in UTC (today last), per currency: the payments paid that day (count and volume, by the time they were paid) and the pay attempts refused that day (each refusal kept on a payment: a declined card, a wrong TPIN, …), with the period's success rate, paid ÷ (paid + refused attempts). Summed by the database.",
  },
  'POST /v1/payment_gateway_store/:storeId/rotate-key': {
    operationId: 'rotateStoreKey',
    tag: 'Stores',
    description: "Replaces one of the caller's stores' storeKey (TPIN required): the new key works at once, the previous one for 24 more hours; callbacks are signed with the key current at sending.",
  },
  'PUT /v1/payment_gateway_store/:storeId/payment-mails': {
    operationId: 'setStorePaymentMails',
    tag: 'Stores',
    description:
      'Switches the "You got paid" notice of one of the caller\'s stores on or off (`notifyOnPayment`). When on (the default), the store\'s account is told of each ' +
      "payment by its notification preference (e-mail or SMS); the customer's receipt is sent either way. Another user's store answers 404.",
  },
};
