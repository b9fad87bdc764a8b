import { CARD_ERROR_TOAST_MS, paymentMessages, PAYMENT_REDIRECT_DELAY_MS } from '@kestrel/shared';
import toast from 'react-hot-toast';
import { ApiError } from '../../../lib/http.ts';

/**
 * What a failed pay shows, for 8 seconds: the fee error in the spec's words, else the
 * server's own text, else 'Payment failed!'.
 */
export function showPayError(error: unknown): void {
  const message =
    error instanceof ApiError && error.code === 'fee_too_high'
      ? paymentMessages.feeTooHighToast
      : error instanceof ApiError && error.fromServer && error.message
        ? error.message
        : paymentMessages.failed;
  toast.error(message, { duration: CARD_ERROR_TOAST_MS });
}

/** The success toast, then (after 2 s) the store's return address when there is one. */
export function showPaidAndRedirect(redirectUrl: string | undefined): void {
  toast.success(paymentMessages.success, { duration: PAYMENT_REDIRECT_DELAY_MS + 1000 });
  if (redirectUrl) window.setTimeout(() => window.location.assign(redirectUrl), PAYMENT_REDIRECT_DELAY_MS);
}
