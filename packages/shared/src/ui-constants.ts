/**
 * How the screens behave, from the specification's UI sections: how long a toast, a hint or
 * the shown balance stays, polling and redirect delays, pixel sizes, the query cache's
 * timings, the login panel's partner names. Nothing here is a rule the API enforces; domain
 * limits are in constants.ts.
 */

export const BALANCE_VISIBLE_MS = 5000;
export const BALANCE_CLICK_DEBOUNCE_MS = 500;

export const TOAST_SUCCESS_MS = 2000;
export const TOAST_ERROR_MS = 4000;
export const TOAST_BLANK_MS = 4000;
export const TOAST_MAX_VISIBLE = 20;
export const CARD_ERROR_TOAST_MS = 8000;

/** How often the web reads the session cookies (see apps/web/src/lib/session.ts). */
export const ACCOUNT_COOKIE_POLL_MS = 1000;

export const PAYMENT_REDIRECT_DELAY_MS = 2000;
export const COPIED_HINT_MS = 3000;
export const COPY_TOAST_MS = 3000;
export const ACCOUNT_SWITCH_OVERLAY_MS = 2000;
export const RECIPIENT_RESULTS_MAX_HEIGHT_PX = 300;

export const QUERY_STALE_MS = 5 * 60 * 1000;
export const QUERY_RETRIES = 3;
export const QUERY_RETRY_MAX_DELAY_MS = 30_000;

/** The seven partner logos of the login marketing panel. */
export const PARTNER_NAMES = ['Shopora', 'Tixly', 'Voyagr', 'Playfield', 'Gridbox', 'Mealkit', 'Streamly'] as const;

/** How long a downloaded file's temporary object URL lives after its save began (lib/download.ts). */
export const DOWNLOAD_URL_LIFETIME_MS = 60_000;
