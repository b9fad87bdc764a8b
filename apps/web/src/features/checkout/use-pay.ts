import { CARD_ERROR_TOAST_MS, isStepUpRefusal, payerMessages, PAYMENT_REDIRECT_DELAY_MS } from '@kestrel/shared';
import { useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { ApiError } from '../../lib/http.ts';

/*
 * The one pay() of both public pay pages (the store checkout and a payment link's page), for
 * card and wallet alike: one attempt at a time, the refusal's toast, the success toast and the
 * redirect. Written once so that the two pages cannot drift apart again (issue 21).
 */

/** One id for every pay-attempt error, so a new attempt replaces or clears the last one's toast. */
const PAY_ERROR_TOAST = 'pay-error';

/**
 * A refusal's text, as the spec words it (document 2, section 8): the fee error in its own words,
 * else the server's message, else the page's fallback ('Payment failed!' for a wallet,
 * 'An unexpected error occurred.' for a link's card).
 */
export function payErrorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.code === 'fee_too_high') return payerMessages.feeTooHighToast;
  if (error instanceof ApiError && error.fromServer && error.message) return error.message;
  return fallback;
}

export interface PayOptions<Paid> {
  /** What the paid answer means to the page (show the receipt). */
  onPaid: (paid: Paid) => void;
  /** Where to send the payer 2 s after success (the store's signed return address), if anywhere. */
  redirectOf?: (paid: Paid) => string | undefined;
  /** After the refusal's toast: e.g. read the link again when it changed under the page. */
  onRefused?: (error: unknown) => void;
}

/**
 * `pay(work, fallback)` runs one attempt: a second press while one is on its way does nothing (it
 * would be a second payment with its own Idempotency-Key); the previous attempt's error toast goes
 * at once, so a success never shows beside a stale refusal; `work` answering undefined means the
 * page's own checks stopped it before any call. It answers the refusal (undefined when paid,
 * stopped or ignored), so the wallet form can ask for a step-up code: a step-up refusal gets no
 * toast, the form shows its message beside the "Verification code" field instead (issue 25).
 */
export function usePay<Paid>({ onPaid, redirectOf, onRefused }: PayOptions<Paid>) {
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);

  const pay = async (work: () => Promise<Paid | undefined>, fallback: string = payerMessages.failed): Promise<unknown> => {
    if (inFlight.current) return undefined;
    inFlight.current = true;
    setBusy(true);
    toast.dismiss(PAY_ERROR_TOAST);
    try {
      const paid = await work();
      if (paid === undefined) return undefined;
      const redirectUrl = redirectOf?.(paid);
      toast.success(payerMessages.success, { duration: PAYMENT_REDIRECT_DELAY_MS + 1000 });
      onPaid(paid);
      if (redirectUrl) window.setTimeout(() => window.location.assign(redirectUrl), PAYMENT_REDIRECT_DELAY_MS);
      return undefined;
    } catch (error) {
      if (!(error instanceof ApiError && isStepUpRefusal(error.code))) toast.error(payErrorText(error, fallback), { id: PAY_ERROR_TOAST, duration: CARD_ERROR_TOAST_MS });
      onRefused?.(error);
      return error;
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return { busy, pay };
}
