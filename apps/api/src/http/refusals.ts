import {
  checkoutMessages,
  errorEnvelope,
  invoiceMessages,
  messages,
  operatorMessages,
  paymentMessages,
  passkeyMessages,
  paymentRequestMessages,
  reconciliationMessages,
  refundMessages,
  sessionMessages,
  statementMessages,
  stepUpMessages,
  storeMessages,
  transferMessages,
  twoFactorMessages,
  withdrawMessages,
} from '@kestrel/shared';

/*
 * A refusal is a domain fact with a code (`insufficient_balance`, `payment_request_disabled`);
 * this table is the one place that says which HTTP status and which default message each code
 * answers. Services, guards and routes raise `refuse(code, …)` and never name a status; the
 * error handler (errors.ts) looks the code up here. A route declares the codes it can raise with
 * `refusals(...)` in its response schema: its documented error answers are derived from them,
 * and in tests an answer with an undeclared code fails loudly (refusal-check.ts).
 *
 * An entry's key is the refusal; the code sent is the key, or `code` where two refusals share a
 * code on the wire but not a status (the wire stays what clients already read).
 */

interface RefusalEntry {
  status: number;
  /** The message when the raise names none; without one, every raise must name its message. */
  message?: string;
  /** The code sent, when it is not the key. */
  code?: string;
}

export const REFUSALS = {
  // Answered by the edge itself, on any route (see UNIVERSAL_REFUSALS).
  validation_failed: { status: 400, message: 'Invalid request' },
  nul_character: { status: 400 },
  unauthorized: { status: 401, message: messages.auth.unauthorized },
  session_expired: { status: 401, message: 'Your session has expired. Please log in again.' },
  not_found: { status: 404, message: messages.generic.notFound },
  rate_limited: { status: 429, message: messages.generic.tooManyRequests },

  // Requests in general.
  invalid_request: { status: 400 },
  forbidden: { status: 403, message: messages.auth.forbidden },
  invalid_idempotency_key: { status: 400, message: 'Idempotency-Key must be 1 to 255 visible ASCII characters' },
  idempotency_key_reused: { status: 422, message: 'This Idempotency-Key was already used with a different request' },
  idempotency_key_required: { status: 400, message: refundMessages.idempotencyKeyRequired },
  multipart_required: { status: 400, message: 'Send the request as multipart/form-data' },
  unexpected_file: { status: 400 },
  file_too_large: { status: 413 },
  /** The multipart reader's own file limit (the services count files again: `too_many_files`). */
  too_many_parts: { status: 413, code: 'too_many_files' },
  too_many_files: { status: 400 },
  not_an_image: { status: 400 },
  image_too_large: { status: 400 },
  image_polyglot: { status: 400 },
  image_not_found: { status: 404, message: 'Image not found' },
  document_not_found: { status: 404, message: 'Document not found' },

  // Users, sign-in, sessions, two-factor.
  email_taken: { status: 409, message: messages.signup.emailTaken },
  phone_taken: { status: 409, message: messages.signup.phoneTaken },
  user_not_found: { status: 404, message: 'User not found' },
  already_verified: { status: 409, message: messages.verification.alreadyVerified },
  verification_link_invalid: { status: 400, message: messages.verification.linkInvalid },
  mail_failed: { status: 502, message: messages.verification.notSent },
  invalid_credentials: { status: 401, message: messages.login.invalid },
  login_rate_limited: { status: 429, message: messages.login.rateLimited },
  /** The re-authentication before a second factor is added: a wrong password is a field error (400), not a failed sign-in. */
  password_invalid: { status: 400, message: passkeyMessages.passwordWrong },
  login_challenge_invalid: { status: 401, message: twoFactorMessages.challengeInvalid },
  /** A wrong second factor at sign-in (the sign-in fails: 401); at setup or turning off it is a field error (400). */
  login_second_factor_invalid: { status: 401, code: 'second_factor_invalid', message: twoFactorMessages.codeInvalid },
  login_second_factor_reused: { status: 401, code: 'second_factor_reused', message: twoFactorMessages.codeReused },
  login_recovery_code_invalid: { status: 401, code: 'recovery_code_invalid', message: twoFactorMessages.recoveryCodeInvalid },
  second_factor_invalid: { status: 400, message: twoFactorMessages.codeInvalid },
  second_factor_reused: { status: 400, message: twoFactorMessages.codeReused },
  recovery_code_invalid: { status: 400, message: twoFactorMessages.recoveryCodeInvalid },
  second_factor_rate_limited: { status: 429, message: twoFactorMessages.rateLimited },
  two_factor_already_on: { status: 409, message: twoFactorMessages.alreadyOn },
  // Step-up for large movements (auth/step-up.ts): the message says which second factor to give.
  step_up_required: { status: 403 },
  step_up_invalid: { status: 403 },
  step_up_rate_limited: { status: 429, message: stepUpMessages.codesRateLimited },
  // Passkeys (WebAuthn): at sign-in a refused assertion fails the sign-in (401); signed in, a 400.
  login_passkey_invalid: { status: 401, code: 'passkey_invalid', message: passkeyMessages.signInFailed },
  login_passkey_counter_stale: { status: 401, code: 'passkey_counter_stale', message: passkeyMessages.counterStale },
  login_passkey_challenge_invalid: { status: 401, code: 'passkey_challenge_invalid', message: passkeyMessages.challengeInvalid },
  passkey_invalid: { status: 400, message: passkeyMessages.signInFailed },
  passkey_challenge_invalid: { status: 400, message: passkeyMessages.challengeInvalid },
  passkey_rate_limited: { status: 429, message: passkeyMessages.rateLimited },
  passkey_limit: { status: 409 },
  passkey_already_registered: { status: 409, message: passkeyMessages.alreadyRegistered },
  passkey_not_found: { status: 404, message: passkeyMessages.notFound },
  two_factor_not_on: { status: 409, message: twoFactorMessages.notOn },
  two_factor_not_started: { status: 409, message: twoFactorMessages.notStarted },
  password_reset_link_invalid: { status: 400, message: messages.passwordReset.linkInvalid },
  password_reset_rate_limited: { status: 429, message: messages.passwordReset.rateLimited },
  current_session: { status: 409, message: sessionMessages.current },
  session_not_found: { status: 404, code: 'not_found', message: sessionMessages.notFound },

  // Accounts, TPIN, identity.
  account_not_found: { status: 404, message: messages.portal.accountNotAvailable },
  not_account_owner: { status: 403, message: messages.account.notYourself },
  email_not_verified: { status: 403, message: messages.account.emailNotVerified },
  operator_cannot_hold_account: { status: 403, message: operatorMessages.operatorCannotHoldAccount },
  user_name_taken: { status: 409, message: messages.account.userNameTaken },
  account_email_taken: { status: 409, message: messages.account.accountEmailTaken },
  account_phone_taken: { status: 409, message: messages.account.accountPhoneTaken },
  identity_number_taken: { status: 409, message: messages.account.identityNumberTaken },
  identity_image_required: { status: 400, message: messages.account.identityImageRequired },
  no_identity_documents: { status: 400, message: 'This account has not uploaded identity documents yet' },
  identity_already_verified: { status: 400, message: 'This identity is already verified' },
  tpin_incorrect: { status: 400 },
  tpin_locked: { status: 423, message: messages.tpin.locked },
  money_movement_locked: { status: 423, message: messages.tpin.operatorLocked },

  // Ledger, transfers, recipients.
  insufficient_balance: { status: 400, message: 'Insufficient balance' },
  recipient_not_found: { status: 404, message: transferMessages.recipientNotFound },
  same_account: { status: 400, message: transferMessages.sameAccount },
  transfer_retry: { status: 503, message: 'The transfer could not be completed. Please try again.' },
  search_not_allowed: { status: 403, message: 'Verify your email and open an account before searching for recipients' },
  search_daily_cap: { status: 429, message: transferMessages.searchDailyCap },
  not_sealed_yet: { status: 409, message: 'This transaction is not sealed yet. Please try again in a minute.' },
  no_statement: { status: 404, message: statementMessages.noSuchMonth },

  // Stores and the store key.
  store_not_found: { status: 404, message: storeMessages.notFound },
  invalid_store_credentials: { status: 401, message: paymentMessages.storeCredentialsInvalid },
  store_pending: { status: 403, message: paymentMessages.storePending },
  store_suspended: { status: 403, message: paymentMessages.storeSuspended },
  store_rejected: { status: 403 },
  callback_url_private: { status: 400, message: storeMessages.callbackUrlPrivate },
  store_logo_required: { status: 400, message: storeMessages.logoRequired },
  store_logo_one: { status: 400, message: storeMessages.oneLogo },
  business_documents_required: { status: 400, message: storeMessages.documentsRequired },
  store_not_pending: { status: 409 },
  store_status_conflict: { status: 409 },
  delivery_not_found: { status: 404, message: 'Callback delivery not found' },

  // Payments, the card, the hosted checkout.
  payment_not_found: { status: 404, message: paymentMessages.notFound },
  order_id_taken: { status: 409 },
  own_store: { status: 400, message: checkoutMessages.ownStore },
  already_paid: { status: 409, message: paymentMessages.alreadyPaid },
  attempt_in_progress: { status: 409, message: paymentMessages.attemptInProgress },
  fee_too_high: { status: 400, message: paymentMessages.feeTooHigh },
  too_many_declines: { status: 429 },
  card_number_invalid: { status: 400, message: paymentMessages.cardNumberInvalid },
  card_brand_unsupported: { status: 400, message: paymentMessages.brandUnsupported },
  card_brand_mismatch: { status: 400, message: paymentMessages.brandMismatch },
  card_expiry_invalid: { status: 400, message: paymentMessages.expiryInvalid },
  card_expired: { status: 400, message: paymentMessages.expired },
  /** The card processor's declines (DECLINE_CODES), each with the processor's message. */
  card_declined: { status: 402 },
  insufficient_funds: { status: 402 },
  incorrect_cvc: { status: 402 },
  card_processor_unavailable: { status: 502 },

  // Payment-request links.
  payment_request_not_found: { status: 404, message: paymentRequestMessages.notFound },
  payment_request_disabled: { status: 403, message: paymentRequestMessages.disabled },
  payment_request_expired: { status: 410, message: paymentRequestMessages.expired },
  payment_request_owner_locked: { status: 423, message: paymentRequestMessages.ownerLocked },
  limit_exceeded: { status: 409, message: paymentRequestMessages.limitExceeded },
  amount_mismatch: { status: 400 },
  amount_out_of_range: { status: 400 },
  method_not_allowed: { status: 400 },
  own_link: { status: 400, message: paymentRequestMessages.ownLink },

  // Refunds.
  refund_currency_mismatch: { status: 400 },
  refund_exceeds_remaining: { status: 409 },
  payment_not_refundable: { status: 409, message: refundMessages.notRefundable },
  refund_window_closed: { status: 409, message: refundMessages.windowClosed },
  refund_insufficient_balance: { status: 409, message: refundMessages.insufficientBalance },
  refund_declined: { status: 402, message: refundMessages.declined },

  // Withdrawals and the operator's decisions.
  withdrawal_not_found: { status: 404, message: withdrawMessages.notFound },
  withdrawal_status_conflict: { status: 409 },
  four_eyes_required: { status: 409, message: withdrawMessages.fourEyesRequired },
  completion_awaiting_decision: { status: 409, message: withdrawMessages.completionAwaitingDecision },
  completion_already_requested: { status: 409, message: withdrawMessages.completionAlreadyRequested },
  own_record: { status: 403, message: operatorMessages.ownRecord },
  own_request: { status: 403, message: operatorMessages.cannotDecideOwn },
  approval_not_found: { status: 404, message: operatorMessages.approvalNotFound },
  approval_not_pending: { status: 409, message: operatorMessages.approvalNotPending },

  // Invoices.
  invoice_not_found: { status: 404, message: invoiceMessages.notFound },

  // Reconciliation.
  day_in_future: { status: 400, message: reconciliationMessages.dayInFuture },
  mismatch_not_found: { status: 404, message: reconciliationMessages.mismatchNotFound },
  mismatch_resolved: { status: 409, message: reconciliationMessages.notOpen },
  mismatch_in_progress: { status: 409, message: reconciliationMessages.inProgress },
  already_recorded: { status: 409, message: reconciliationMessages.alreadyRecorded },
  void_not_possible: { status: 409, message: reconciliationMessages.voidNotPossible },
  record_not_possible: { status: 409, message: reconciliationMessages.recordNotPossible },
  charge_not_standing: { status: 409, message: reconciliationMessages.chargeNotStanding },
  charge_not_payable: { status: 409 },
} as const satisfies Record<string, RefusalEntry>;

export type RefusalCode = keyof typeof REFUSALS;

/** Answered by the edge on any route, so no route declares them (plus Fastify's own `fst_*` client errors). */
export const UNIVERSAL_REFUSALS: readonly RefusalCode[] = ['validation_failed', 'nul_character', 'unauthorized', 'session_expired', 'not_found', 'rate_limited'];

export const statusOf = (code: RefusalCode): number => REFUSALS[code].status;
export const wireCodeOf = (code: RefusalCode): string => ('code' in REFUSALS[code] ? (REFUSALS[code] as RefusalEntry).code! : code);

type CodesWithMessage = { [K in RefusalCode]: (typeof REFUSALS)[K] extends { message: string } ? K : never }[RefusalCode];

export interface RefuseOptions {
  message?: string;
  fields?: Record<string, string>;
  /** Sent as Retry-After (a 429 of a progressive delay says when to come back). */
  retryAfterSeconds?: number;
}

/** A refusal: the domain's answer "no", with its code; the status is the table's. */
export class Refusal extends Error {
  retryAfterSeconds?: number;
  readonly fields?: Record<string, string>;
  /** The code the answer carries (an own field, so logs show it). */
  readonly code: string;

  constructor(
    readonly refusal: RefusalCode,
    options: RefuseOptions = {},
  ) {
    super(options.message ?? (REFUSALS[refusal] as RefusalEntry).message ?? refusal);
    this.name = 'Refusal';
    this.code = wireCodeOf(refusal);
    if (options.fields) this.fields = options.fields;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** The table's status, for the edge (and tests that call a service directly); domain code asks by code. */
  get statusCode(): number {
    return statusOf(this.refusal);
  }
}

/** Builds the refusal `code` (throw it, or hand it on); a code without a default message needs one. */
export function refuse<C extends RefusalCode>(
  code: C,
  ...[options]: C extends CodesWithMessage ? [RefuseOptions?] : [RefuseOptions & { message: string }]
): Refusal {
  return new Refusal(code, options);
}

export const isRefusal = (error: unknown, ...codes: RefusalCode[]): error is Refusal =>
  error instanceof Refusal && (codes.length === 0 || codes.includes(error.refusal));

/** A service Kestrel depends on failed (the card processor, the mail server), not the request. */
export const isOutage = (refusal: Refusal): boolean => statusOf(refusal.refusal) >= 500;

/** Where a route's response schema keeps the codes it declared (a symbol: Fastify and the reference read only string keys). */
export const DECLARED_REFUSALS = Symbol('declared refusals');

export type RefusalAnswers = Record<number, typeof errorEnvelope> & { [DECLARED_REFUSALS]: readonly RefusalCode[] };

/**
 * A route's error answers, from the codes it can raise: one `errorEnvelope` per status, and the
 * codes kept for the reference (each status's description lists them) and the test-time check.
 * Spread it into the route's `response`: `response: { 200: …, ...refusals('tpin_incorrect', 'tpin_locked') }`.
 */
export function refusals(...codes: RefusalCode[]): RefusalAnswers {
  const answers = { [DECLARED_REFUSALS]: codes } as RefusalAnswers;
  for (const code of codes) answers[statusOf(code)] = errorEnvelope;
  return answers;
}

/** The codes a route's response schema declares (none when it declares none). */
export function declaredRefusals(response: unknown): readonly RefusalCode[] {
  if (!response || typeof response !== 'object') return [];
  return (response as Partial<RefusalAnswers>)[DECLARED_REFUSALS] ?? [];
}
