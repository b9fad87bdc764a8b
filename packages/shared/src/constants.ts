/**
 * Business constants and limits from both specification documents (section 9 of each).
 * Every part of Kestrel reads them from here so a limit is written once.
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

/** Fees set at account creation: fixed 0 (in cents), percentage 2 (a percent of the amount; document 1, section 9). */
export const DEFAULT_ACCOUNT_FEE = { fixedCents: 0, percent: 2 } as const;
export const TRANSFER_FEE_PERCENT_LABEL = '0.00%';

export const BALANCE_VISIBLE_MS = 5000;
export const BALANCE_CLICK_DEBOUNCE_MS = 500;

export const TOAST_SUCCESS_MS = 2000;
export const TOAST_ERROR_MS = 4000;
export const TOAST_BLANK_MS = 4000;
export const TOAST_MAX_VISIBLE = 20;
export const CARD_ERROR_TOAST_MS = 8000;

export const SESSION_DAYS = 7;
export const SESSION_MS = SESSION_DAYS * 24 * 60 * 60 * 1000;
export const ACCOUNT_COOKIE_POLL_MS = 1000;

export const CARD_NUMBER_MAX_CHARS = 19;
export const CARD_EXPIRY_MAX_CHARS = 5;
export const CARD_CVC_LENGTH = 3;
export const CARD_HOLDER_MAX_CHARS = 200;

export const PAYMENT_REDIRECT_DELAY_MS = 2000;
export const COPIED_HINT_MS = 3000;
export const COPY_TOAST_MS = 3000;
export const ACCOUNT_SWITCH_OVERLAY_MS = 2000;
export const RECIPIENT_RESULTS_MAX_HEIGHT_PX = 300;

export const QUERY_STALE_MS = 5 * 60 * 1000;
export const QUERY_RETRIES = 3;
export const QUERY_RETRY_MAX_DELAY_MS = 30_000;

export const NOTIFICATION_PREFERENCES = ['email', 'sms'] as const;
export const IDENTITY_TYPES = ['nid', 'passport', 'drivingLicense', 'tradeLicense'] as const;
export const ACCOUNT_TYPES = ['personal', 'business'] as const;
export const CARD_BRANDS = ['visa', 'masterCard'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

export const PAYMENT_METHODS = ['Card', PRODUCT_NAME] as const;
export const AMOUNT_TYPES = ['fixed', 'customer-choosen'] as const;
export const WITHDRAW_COUNTRIES = ['United States', 'Bangladesh'] as const;
export const WITHDRAW_STATUSES = ['Pending', 'Processing', 'Completed', 'Failed'] as const;
export const STORE_STATUSES = ['Pending', 'Approved', 'Rejected'] as const;
export const PAYMENT_REQUEST_STATUSES = ['active', 'inactive'] as const;

/** Refund counters are fixed at 0 in the specification. */
export const REFUND_COUNTER = 0;

/** The seven partner logos of the login marketing panel. */
export const PARTNER_NAMES = ['Shopora', 'Tixly', 'Voyagr', 'Playfield', 'Gridbox', 'Mealkit', 'Streamly'] as const;
