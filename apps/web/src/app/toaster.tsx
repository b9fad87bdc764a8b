import { TOAST_BLANK_MS, TOAST_ERROR_MS, TOAST_MAX_VISIBLE, TOAST_SUCCESS_MS } from '@kestrel/shared';
import { useEffect } from 'react';
import { Toaster, toast, useToasterStore } from 'react-hot-toast';

/** react-hot-toast has no setting for "at most N on screen", so the oldest beyond 20 are dismissed. */
function ToastLimit() {
  const { toasts } = useToasterStore();
  useEffect(() => {
    // The store lists the newest toast first.
    toasts
      .filter((item) => item.visible)
      .slice(TOAST_MAX_VISIBLE)
      .forEach((item) => toast.dismiss(item.id));
  }, [toasts]);
  return null;
}

/** Toasts with the spec's durations: success 2 s, error 4 s, blank 4 s, loading until replaced. */
export function AppToaster() {
  return (
    <>
      <Toaster
        position="top-center"
        gutter={8}
        toastOptions={{
          duration: TOAST_BLANK_MS,
          blank: { duration: TOAST_BLANK_MS },
          success: { duration: TOAST_SUCCESS_MS },
          error: { duration: TOAST_ERROR_MS },
          loading: { duration: Infinity },
          style: { maxWidth: '28rem', color: '#0f172a', fontSize: '0.9375rem', lineHeight: 1.4 },
        }}
      />
      <ToastLimit />
    </>
  );
}
