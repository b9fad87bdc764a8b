/**
 * Business constants and domain limits from both specification documents (section 9 of
 * each): currencies, TPIN and password rules, fees, session length, card field limits,
 * the enumerations the API accepts. Every part of Kestrel reads them from here so a limit is
 * written once. How the screens behave (toast and hint timings, polling, pixel sizes, query
 * caching) is in ui-constants.ts; the package index exports both.
 */
export const PRODUCT_NAME = 'Kestrel';
/** The product's name where it appears in a URL path (e.g. POST /payment/complete/kestrel/:id). */
export const PRODUCT_PATH = 'kestrel';

export const CURRENCIES = ['USD'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const CURRENCY_PREFIX: Record<Currency, string> = { USD: 'US$' };
export const MINOR_UNITS_PER_MAJOR = 100;

export const TPIN_LENGTH = 4;
/** The wallet-pay pattern allows 4 to 6 digits (document 2, section 5). */
export const WALLET_TPIN_PATTERN = /^\d{4,6}$/;
export const TPIN_MAX_FAILED_ATTEMPTS = 5;
export const TPIN_LOCK_MINUTES = 30;
export const MINIMUM_AGE_YEARS = 16;
export const PASSWORD_MIN_LENGTH = 8;
/** How long a mailed password reset link works (issue 25). */
export const PASSWORD_RESET_LINK_MINUTES = 30;
/** Two-factor sign-in (issue 25): how long the second step of a sign-in may wait for its code. */
export const LOGIN_CHALLENGE_MINUTES = 5;
/** Wrong codes one sign-in's second step takes before the password must be entered again. */
export const LOGIN_CHALLENGE_MAX_FAILURES = 5;
/** Passkeys (issue 25): how long a WebAuthn challenge (adding a passkey, signing in with one) may wait. */
export const PASSKEY_CHALLENGE_MINUTES = 5;
/** The most passkeys one person may register. */
export const PASSKEY_MAX_PER_USER = 20;
/** Recovery codes made when two-factor sign-in is turned on, each usable once. */
export const RECOVERY_CODE_COUNT = 10;
/** An authenticator app's code: RFC 6238 with SHA-1, 6 digits, a new code every 30 seconds. */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;

/** Fees set at account creation: fixed 0 (in cents), percentage 2 (a percent of the amount; document 1, section 9). */
/**
 * The smallest payment the gateway and payment links take (issue 19: below it the fee rounds
 * to nothing, and a public checkout would be a free card-testing oracle).
 */
export const MIN_PAYMENT_CENTS = 50;
/** Declined card attempts one payment takes; the next attempt answers 429 and the payment shows why. */
export const MAX_DECLINES_PER_PAYMENT = 5;
/** Declined card attempts one store (or one payment link) takes in an hour, across all its payments. */
export const MAX_DECLINES_PER_STORE_PER_HOUR = 100;
/** How long a card attempt holds a payment (its lease) or a link's use; a crashed attempt's hold ends then. */
export const CARD_ATTEMPT_HOLD_SECONDS = 60;
export const DEFAULT_ACCOUNT_FEE = { fixedCents: 0, percent: 2 } as const;
export const TRANSFER_FEE_PERCENT_LABEL = '0.00%';

export const SESSION_DAYS = 7;
export const SESSION_MS = SESSION_DAYS * 24 * 60 * 60 * 1000;

export const CARD_NUMBER_MAX_CHARS = 19;
export const CARD_EXPIRY_MAX_CHARS = 5;
export const CARD_CVC_LENGTH = 3;
export const CARD_HOLDER_MAX_CHARS = 200;

/** A recipient search (or name part) shorter than this matches nothing, so two letters cannot list the directory. */
export const RECIPIENT_SEARCH_MIN_LENGTH = 3;
/** Recipient searches and look-ups per user per day (on top of the per-minute and per-address limits). */
export const RECIPIENT_LOOKUPS_PER_DAY = 100;

export const NOTIFICATION_PREFERENCES = ['email', 'sms'] as const;
export const IDENTITY_TYPES = ['nid', 'passport', 'drivingLicense', 'tradeLicense'] as const;
export const ACCOUNT_TYPES = ['personal', 'business'] as const;
export const CARD_BRANDS = ['visa', 'masterCard'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

export const PAYMENT_METHODS = ['Card', PRODUCT_NAME] as const;
export const AMOUNT_TYPES = ['fixed', 'customer-choosen'] as const;
export const WITHDRAW_COUNTRIES = ['United States', 'Bangladesh'] as const;
/** Cancelled: the owner took back a Pending withdrawal before an operator started on it (issue 20, item 12). */
export const WITHDRAW_STATUSES = ['Pending', 'Processing', 'Completed', 'Failed', 'Cancelled'] as const;
export const STORE_STATUSES = ['Pending', 'Approved', 'Rejected', 'Suspended'] as const;
export const PAYMENT_REQUEST_STATUSES = ['active', 'inactive'] as const;

/** A payment can be refunded within this many days of being paid (issue 23). */
export const REFUND_WINDOW_DAYS = 180;

/*
 * Separation of duties (issue 19). Money entering Kestrel (operator funding) above the first
 * amount, and money leaving it (a withdrawal's completion) from the second, need a second,
 * different operator's approval; below them one operator acts, within a daily funding cap
 * per operator (UTC day) — funding past the cap goes to the approval queue too.
 */
export const FOUR_EYES_FUNDING_ABOVE_CENTS = 10_000;
export const FOUR_EYES_WITHDRAWAL_FROM_CENTS = 100_000;
export const OPERATOR_DAILY_FUNDING_CAP_CENTS = 100_000;
/** After a store key is rotated, the replaced key is still accepted this long. */
export const STORE_KEY_GRACE_HOURS = 24;

/**
 * Step-up for large movements (issue 25; README, Security): an account's outgoing wallet
 * movements (transfers, withdrawals, wallet pays) over a rolling 24 hours, this one included,
 * may add up to this many cents on the TPIN alone; past it each movement also needs a second
 * factor (the authenticator app, or a code mailed to the account's e-mail when 2FA is off).
 * The default of the account's own threshold (accounts.step_up_threshold_cents).
 */
export const STEP_UP_THRESHOLD_CENTS = 100_000;
/** The rolling window over which movements without a second factor are added up. */
export const STEP_UP_WINDOW_HOURS = 24;
/** A mailed step-up code: 6 digits, valid 10 minutes, 5 tries, at most 5 mailed an hour. */
export const STEP_UP_CODE_DIGITS = 6;
export const STEP_UP_CODE_MINUTES = 10;
export const STEP_UP_CODE_MAX_ATTEMPTS = 5;
export const STEP_UP_CODES_PER_HOUR = 5;
