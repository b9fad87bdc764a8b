import { refundCurlSnippet } from '@kestrel/shared';
import type { OperationDoc } from './operations.ts';

/*
 * The gateway's operations: the store API a merchant's server calls, the hosted checkout,
 * payment links, and the portal's store and payment pages. Examples use the sandbox's test
 * card and made-up ids of the right shape.
 */

const paymentId = '6f0c2a52-7a8f-4d0e-9a55-3c1f4b1b2e10';
const urlId = 'q8Zr3mFh2kT9xWc1vB7nYa';

const webPayExample = {
  orderId: 'order-1001',
  currency: 'USD',
  amount: 25.5,
  customerName: 'Ada Lovelace',
  customerEmail: 'ada@example.org',
  customerPhone: '+1 555 0100',
  customerAddress: '12 Analytical Way, London',
  productName: 'Brass gear set',
  cancelUrl: 'https://shop.example.org/cart',
  valueA: 'cart-77',
};

const paymentResultExample = { paymentStatus: 'success', tnxId: 'b8d1f1e0-3c55-4d39-9a0e-0f0a6f7f2a11', orderId: 'order-1001', currency: 'USD', amount: 25.5, paymentId };

const card = { type: 'card', brand: 'visa', number: '4242424242424242', expiresIn: '12/30', cvc: '123' };

const signedReturn = `https://shop.example.org/kestrel/return?paymentStatus=success&tnxId=b8d1f1e0-3c55-4d39-9a0e-0f0a6f7f2a11&currency=USD&amount=25.5&orderId=order-1001&paymentId=${paymentId}&timestamp=1764072000&signature=3f1c…`;

const refundExample = {
  refundId: '0d9e6c1a-5b2f-4f6e-8a3c-7e1d2b4c6a80',
  paymentId,
  amount: 10,
  currency: 'USD',
  fee: { amount: 0.2, currency: 'USD' },
  status: 'succeeded',
  reason: 'Returned by the customer',
  initiatedBy: { kind: 'store', name: 'Brass & Gears' },
  destination: { type: 'card', number: '424242******4242' },
  transactionId: 'TNX6H2K9Q4W8R1T5Y3U7',
  failureReason: null,
  createdAt: '2026-11-25T10:00:00.000Z',
  completedAt: '2026-11-25T10:00:00.412Z',
};

export const storeOperations: Record<string, OperationDoc> = {
  'POST /v1/payment/web-pay': {
    operationId: 'createPayment',
    tag: 'Store API',
    description:
      'Creates a payment for an order of an Approved store and answers the hosted checkout address (`redirectUrl`) to send the customer to. ' +
      'The `orderId` is unique per store (a second payment for it is 409). Send an `Idempotency-Key` so that a retry after a network error answers the same payment.',
    idempotent: 'optional',
    requestExample: webPayExample,
    responseExample: {
      status: 'success',
      message: 'Payment created',
      redirectUrl: `https://pay.example.org/web-pay/${urlId}`,
      data: { paymentId, urlId, orderId: 'order-1001', amount: 25.5, currency: 'USD', paymentStatus: 'initiate' },
    },
    errorExample: { 401: { status: 'error', error: 'Invalid store credentials', code: 'invalid_store_credentials' } },
  },
  'POST /v1/payment/web-pay/redirect': {
    operationId: 'createPaymentRedirect',
    tag: 'Store API',
    description:
      'The same as createPayment, but answers `303 See Other` with the hosted checkout in `Location`, for a form posted straight from the customer’s browser by the store’s page.',
    idempotent: 'optional',
    requestExample: webPayExample,
    redirect: 'See Other: the hosted checkout address (PUBLIC_URL/web-pay/{urlId}) is in Location',
  },
  'POST /v1/payment/web-pay/complete/direct': {
    operationId: 'completeDirectPayment',
    tag: 'Store API',
    description:
      'Server-to-server card payment: creates the payment and charges the card in one call (for stores that collect cards themselves). ' +
      'A declined card answers 402 with the reason; the payment is kept with the failed attempt, so its orderId is then taken. Past 5 declines on a payment, or the store\'s hourly cap, 429 `too_many_declines`. ' +
      'When the card processor does not answer, 502 `card_processor_unavailable`: nothing is recorded, and a charge the processor made anyway is found by the day\'s reconciliation.',
    idempotent: 'optional',
    requestExample: { ...webPayExample, ...card, billingInfo: { name: 'Ada Lovelace', address: { country: 'GB', city: 'London', zipCode: 'N1 9GU' } } },
    responseExample: { status: 'success', message: 'Payment successful', data: paymentResultExample },
    errorExample: { 402: { status: 'error', error: 'Your card was declined.', code: 'card_declined' } },
  },
  'GET /v1/payment/paymentId/:paymentId': {
    operationId: 'getPayment',
    tag: 'Store API',
    description:
      "One payment with its status, fee, masked card and failed attempts. The store calls it with its headers (only its own payments); the store's owner may call it with a token. Anyone else's payment is 404.",
  },
  'POST /v1/payment/refund/:paymentId': {
    operationId: 'createRefund',
    tag: 'Store API',
    description:
      'Refunds a successful payment of this store, in full or in part; several partial refunds up to the amount paid. `amount` in major units (omitted: what is left), `currency` if sent must be the payment\'s, `reason` optional. ' +
      "The payer gets the amount back (a wallet payer's wallet at once; a card through the card processor), the store owner's wallet gives it, and the fee is returned in proportion " +
      '(rounded down, the last refund taking the rest, so the fees returned add up to the fee charged). `Idempotency-Key` is required; a replay answers the first refund as it is now. ' +
      'Refused: more than what is left, an unpaid payment or one older than 180 days (409), an owner wallet that cannot cover it (409 `refund_insufficient_balance`), another currency (400), ' +
      "a card refund the processor refuses (402 `refund_declined`, the money back in the owner's wallet; sandbox test card 4000 0000 0000 5126). " +
      'A successful refund sends the signed callback `refund.succeeded` (see webhooks).\n\n```sh\n' + refundCurlSnippet({ baseUrl: 'https://pay.example.org', storeId: 'YOUR_STORE_ID', paymentId }) + '\n```',
    idempotent: 'required',
    requestExample: { amount: 10, reason: 'Returned by the customer' },
    responseExample: { status: 'success', message: 'Refund successful', data: refundExample },
    errorExample: {
      409: { status: 'error', error: 'The refund is more than what is left to refund (US$15.50)', code: 'refund_exceeds_remaining', fields: { amount: 'The refund is more than what is left to refund (US$15.50)' } },
      402: { status: 'error', error: 'The card network refused the refund; nothing was taken from the account', code: 'refund_declined' },
    },
  },
  'GET /v1/payment/refunds/:paymentId': {
    operationId: 'listRefunds',
    tag: 'Store API',
    description: "A payment's refunds, newest first, each with its amount, fee returned, status, reason and who made it. The store calls it with its headers (its own payments only); the owner may call it with a token (a link payment's id too). Anyone else's payment is 404.",
    responseExample: { status: 'success', data: [refundExample] },
  },
  'POST /v1/payment/details/:paymentId/refund': {
    operationId: 'refundPaymentAsOwner',
    tag: 'Payments',
    description:
      "The payment details page's refund: the signed-in owner refunds a payment into one of their accounts (a gateway payment or a link payment, by its id) with that account's TPIN (counted, with lockout). " +
      'Same rules and answers as the store API refund; another user\'s payment is 404.',
    idempotent: 'optional',
    requestExample: { amount: 10, reason: 'Returned by the customer', tpin: '1234' },
    responseExample: { status: 'success', message: 'Refund successful', data: { ...refundExample, initiatedBy: { kind: 'owner', name: 'Ada Lovelace' } } },
  },
  'GET /v1/payment/:urlId': {
    operationId: 'getCheckout',
    tag: 'Hosted checkout',
    description: 'What the hosted checkout shows: store name and logo, amount, status, cancel address, and the signed return address once paid. The urlId is the capability; no customer data is answered. A suspended store\'s checkout answers 403 `store_suspended`.',
  },
  'POST /v1/payment/complete/:paymentId': {
    operationId: 'payCheckoutByCard',
    tag: 'Hosted checkout',
    description:
      "The hosted checkout's card payment, made by the anonymous customer. Answers the store's signed return address; a declined card is 402; a card processor that does not answer is 502 `card_processor_unavailable` (nothing recorded; the payment stays payable).",
    requestExample: { ...card, cardHolderName: 'Ada Lovelace' },
    responseExample: { status: 'success', message: 'Payment successful', redirectUrl: signedReturn, data: paymentResultExample },
  },
  'POST /v1/payment/complete/kestrel/:paymentId': {
    operationId: 'payCheckoutByWallet',
    tag: 'Hosted checkout',
    description:
      "The hosted checkout's Kestrel wallet payment: the signed-in payer pays from one of their own accounts with its TPIN. Above the account's step-up threshold (US$ 1,000.00 of movements on the TPIN alone over 24 hours, this one included) it also needs `stepUpCode`: without it the answer is 403 `step_up_required` (and, when two-factor sign-in is off, a 6-digit code is e-mailed, at most 5 an hour: 429 `step_up_rate_limited` past that); a wrong, reused, expired or spent code is 403 `step_up_invalid`. Neither refusal is stored as the Idempotency-Key's answer: send the same request with the same key and the code.",
    requestExample: { accountNumber: '100000000042', tpin: '1234', stepUpCode: '492039' },
    errorExample: { 403: { status: 'error', error: 'This movement needs a verification code. Enter the 6-digit code from your authenticator app.', code: 'step_up_required' } },
  },
  'POST /v1/payment/account': {
    operationId: 'listAccountPayments',
    tag: 'Payments',
    description: "Payments into one of the caller's accounts (by its e-mail), newest first.",
  },
  'GET /v1/payment/store/:storeId': {
    operationId: 'listStorePayments',
    tag: 'Payments',
    description: "One of the caller's stores' payments, newest first; another user's store is 404.",
  },
  'POST /v1/payment_gateway_store/create': {
    operationId: 'createStore',
    tag: 'Stores',
    description: 'Creates a payment gateway store from a multipart form. It starts Pending; an operator approves it, and then its storeId and storeKey take payments.',
    multipart: {
      type: 'object',
      required: ['accountKey', 'tpin', 'storeName', 'storeURL', 'callbackURL', 'storeLogo', 'businessDocuments'],
      properties: {
        accountKey: { type: 'string', description: 'Account number, user name or id of one of your accounts' },
        userId: { type: 'string', description: 'Optional; must be you' },
        tpin: { type: 'string', description: "The account's TPIN" },
        storeName: { type: 'string' },
        storeURL: { type: 'string', format: 'uri' },
        callbackURL: { type: 'string', format: 'uri', description: 'Where the signed callbacks go (http or https)' },
        storeLogo: { type: 'string', contentMediaType: 'image/*', description: 'One JPEG, PNG, WebP or GIF image, at most 5 MB' },
        businessDocuments: { type: 'array', items: { type: 'string', contentMediaType: 'image/*' }, minItems: 1, maxItems: 9, description: '1 to 9 images, at most 5 MB each' },
      },
    },
  },
  'GET /v1/payment_gateway_store/account/:accountEmail': {
    operationId: 'listAccountStores',
    tag: 'Stores',
    description: "The stores of one of the caller's accounts, newest first, with the account's payment counters.",
  },
  'GET /v1/payment_gateway_store/:storeId': {
    operationId: 'getStore',
    tag: 'Stores',
    description: "One of the caller's stores, with its key (the Integration tab); anyone else's store is 404.",
  },
  'GET /v1/store-logos/:name': {
    operationId: 'getStoreLogo',
    tag: 'Stores',
    description: 'A store logo; public, because the hosted checkout shows it to any visitor.',
    binary: { description: 'The logo image', mediaTypes: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] },
  },
  'GET /v1/payment_gateway_store/:storeId/callbacks': {
    operationId: 'listStoreCallbacks',
    tag: 'Stores',
    description: "The store's last 20 callback deliveries, newest first, with every attempt (owner only).",
  },
  'POST /v1/payment_gateway_store/:storeId/callbacks/:deliveryId/resend': {
    operationId: 'resendStoreCallback',
    tag: 'Stores',
    description: 'Sends a callback delivery again now, signed afresh with the current time (owner only).',
  },
  'POST /v1/payment-request/create': {
    operationId: 'createPaymentLink',
    tag: 'Payment links',
    description: "Creates a payment-request link on one of the caller's accounts: a fixed or customer-chosen amount, card and/or wallet, an optional use limit and expiry.",
    requestExample: {
      paymentPurpose: 'Bicycle repair',
      tpin: '4826',
      accountNumber: '1000000001',
      customerName: 'Dana Doe',
      amount: { type: 'fixed', currency: 'USD', value: '45.00' },
      isUseLimit: true,
      useLimit: 1,
      reference: 'Repair order 1042',
      customerEmail: 'dana@example.org',
      paymentMethods: ['Card', 'Kestrel'],
    },
  },
  'GET /v1/payment-request/account/:accountNumber': {
    operationId: 'listPaymentLinks',
    tag: 'Payment links',
    description: "One of the caller's accounts' payment-request links, newest first; paged by keyset with `limit` and `cursor` (the `_id` of the last link shown).",
  },
  'GET /v1/payment-request/account/:accountNumber/summary': {
    operationId: 'getPaymentLinkCounters',
    tag: 'Payment links',
    description: "The payment-request list's counters (Total Request, Active Request, Total Payments) over every link of one of the caller's accounts, counted by the database.",
  },
  'GET /v1/payment-request/link/:pRequestURLId': {
    operationId: 'getPaymentLinkPage',
    tag: 'Payment links',
    description: "A link as its public pay page shows it: purpose, amount or range, methods, and whether it is disabled, expired or used up. The pRequestURLId is the capability.",
  },
  'GET /v1/payment-request/:id': {
    operationId: 'getPaymentLink',
    tag: 'Payment links',
    description: "One of the caller's links with its remaining uses, payment count and failed attempts.",
  },
  'PATCH /v1/payment-request/update/:id': {
    operationId: 'setPaymentLinkStatus',
    tag: 'Payment links',
    description: "Turns one of the caller's links on (active) or off (inactive).",
  },
  'PATCH /v1/payment-request/limit/update/:id': {
    operationId: 'setPaymentLinkUseLimit',
    tag: 'Payment links',
    description: "Sets the uses remaining on one of the caller's links (`useLimit`, turning the limit on), or turns the limit off (`isUseLimit: false`).",
  },
  'POST /v1/payment-request/card/complete-payment/:pRequestURLId': {
    operationId: 'payPaymentLinkByCard',
    tag: 'Payment links',
    description:
      'Pays a link by card, made by an anonymous visitor of its pay page. A declined card is 402; an expired or used-up link is 410; a card processor that does not answer is 502 `card_processor_unavailable` (nothing recorded).',
    requestExample: {
      email: 'dana@example.org',
      amount: '45.00',
      type: 'card',
      brand: 'visa',
      number: '4242424242424242',
      expiresIn: '12/30',
      cvc: '123',
      cardHolderName: 'Dana Doe',
    },
  },
  'POST /v1/payment-request/kestrel/complete-payment/:pRequestURLId': {
    operationId: 'payPaymentLinkByWallet',
    tag: 'Payment links',
    description: "Pays a link from one of the caller's Kestrel wallets, with its TPIN. Above the account's step-up threshold (US$ 1,000.00 of movements on the TPIN alone over 24 hours, this one included) it also needs `stepUpCode`: without it the answer is 403 `step_up_required` (and, when two-factor sign-in is off, a 6-digit code is e-mailed, at most 5 an hour: 429 `step_up_rate_limited` past that); a wrong, reused, expired or spent code is 403 `step_up_invalid`. Neither refusal is stored as the Idempotency-Key's answer: send the same request with the same key and the code.",
    errorExample: { 403: { status: 'error', error: 'This movement needs a verification code. Enter the 6-digit code from your authenticator app.', code: 'step_up_required' } },
    requestExample: { email: 'dana@example.org', amount: '45.00', accountNumber: '1000000002', tpin: '4826' },
  },
  'GET /v1/payment/source': {
    operationId: 'listPaymentLinkPayments',
    tag: 'Payment links',
    description: "Payments made through the caller's links (type=Link-payment), newest first; accountNumber narrows to one of the caller's accounts.",
  },
  'GET /v1/payment/payment-request/:id': {
    operationId: 'listPaymentsOfLink',
    tag: 'Payment links',
    description: "The payments made through one of the caller's links, newest first.",
  },
};
