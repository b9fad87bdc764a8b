import { stepUpMessages, stepUpText } from '@kestrel/shared';
import { useEffect, useId, useRef } from 'react';
import { FloatingField } from '../../../components/FloatingField.tsx';

/**
 * The wallet form's step-up (issue 25): the server's step_up_required message, which says
 * whether the code comes from the authenticator app or was just e-mailed, and the
 * "Verification code" field under it. Its own chunk (WalletPay loads it lazily): only a payment
 * above the payer's threshold needs it, so the pay pages' budget does not carry it.
 */
export function WalletStepUp({
  message,
  code,
  onCode,
  error,
}: {
  message: string;
  code: string;
  onCode: (code: string) => void;
  /** The code's refusal: the server's step_up_invalid message, or none for an empty field. Each new one puts the caret back in the field. */
  error: { text?: string } | undefined;
}) {
  const messageId = useId();
  const fieldId = useId();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
  }, [error]);
  const shown = error && (error.text ?? stepUpMessages.codeRequired);
  return (
    <div className="space-y-2">
      <p id={messageId} role="status" className="text-sm text-slate-700">
        {message}
      </p>
      <FloatingField
        ref={input}
        id={fieldId}
        label={stepUpText.label}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={11}
        value={code}
        onChange={(event) => onCode(event.target.value)}
        // The field's own error (FloatingField's id) and the server's message above it.
        aria-describedby={shown ? `${fieldId}-error ${messageId}` : messageId}
        error={shown}
      />
    </div>
  );
}
