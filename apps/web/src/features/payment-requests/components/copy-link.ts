import { COPY_TOAST_MS, paymentRequestMessages } from '@kestrel/shared';
import toast from 'react-hot-toast';

const copyFailedMessage = 'The link could not be copied; select it and copy it by hand.';

/** Copies a payment link and says so in a toast for 3 seconds (the spec's copy toast). */
export async function copyLink(url: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    toast.success(paymentRequestMessages.copied, { id: 'payment-link-copied', duration: COPY_TOAST_MS });
  } catch {
    // The clipboard is refused outside a secure context (a plain-http LAN address) or without a gesture.
    toast.error(copyFailedMessage);
  }
}
