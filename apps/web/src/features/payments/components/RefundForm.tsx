import { zodResolver } from '@hookform/resolvers/zod';
import {
  asCurrency,
  centsToDecimalString,
  formatMoney,
  REFUND_REASON_MAX_CHARS,
  refundForm,
  refundMessages,
  type LinkPaymentView,
  type PaymentView,
  type RefundFormInput,
  type RefundFormValues,
} from '@kestrel/shared';
import { useEffect, useId, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { Button } from '../../../components/Button.tsx';
import { FloatingField } from '../../../components/FloatingField.tsx';
import { AmountField, TpinField } from '../../../components/MoneyFields.tsx';
import { ApiError, errorMessage, isTpinRefusal, isUnsureFailure } from '../../../lib/http.ts';
import { apiCents } from '../../../lib/money.ts';
import { useRefundPayment } from '../api.ts';

const failedMessage = 'Refund failed!';
/** An answer that never came may hide a refund that went through; the same refund again is safe (same Idempotency-Key). */
export const refundUnsureMessage = 'Refund failed! Sending it again is safe: the payer is refunded once.';

const formFields = new Set<string>(['amount', 'reason', 'tpin']);
const isFormField = (field: string): field is keyof RefundFormInput => formFields.has(field);

/** What the refund form needs of a payment: a gateway payment or a payment made through a link. */
export interface RefundTarget {
  paymentId: string;
  currency: string;
  /** What is left to refund, major units. */
  amountRefundable: number;
  sourceType: string | null;
  /** The receiving account, whose TPIN the refund takes. */
  accountNumber: string;
}

export const refundTargetOfPayment = (payment: PaymentView): RefundTarget => ({
  paymentId: payment.paymentId,
  currency: payment.currency,
  amountRefundable: payment.amountRefundable,
  sourceType: payment.paymentSourceType,
  accountNumber: payment.accountKey,
});

export const refundTargetOfLinkPayment = (payment: LinkPaymentView, accountNumber: string): RefundTarget => ({
  paymentId: payment.id,
  currency: payment.currency,
  amountRefundable: payment.amountRefundable,
  sourceType: payment.source.type,
  accountNumber,
});

/**
 * The refund form of the payment details page and of a link's payments (issue 23): the amount (what is left to refund until
 * the owner changes it), an optional reason and the receiving account's TPIN. The amount is
 * checked against what is left before the round trip; the server checks it again under its lock.
 */
export function RefundForm({ payment, onClose }: { payment: RefundTarget; onClose: () => void }) {
  const headingId = useId();
  const refund = useRefundPayment(payment.paymentId);
  const [problem, setProblem] = useState<string | null>(null);
  const currency = asCurrency(payment.currency);
  const leftCents = apiCents(payment.amountRefundable);
  const left = formatMoney(leftCents, currency);
  // The shared form schema, and no more than what is left (checked with the other fields, so every message shows at once).
  const schema = useMemo(
    () => refundForm.extend({ amount: refundForm.shape.amount.refine((cents) => cents <= leftCents, refundMessages.exceedsRemaining(left)) }),
    [leftCents, left],
  );
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    setFocus,
    formState: { errors },
  } = useForm<RefundFormInput, unknown, RefundFormValues>({
    resolver: zodResolver(schema),
    defaultValues: { amount: centsToDecimalString(leftCents), reason: '', tpin: '' },
  });

  // Opened by the page's "Refund" button, which the form replaces: the cursor goes to the amount.
  useEffect(() => setFocus('amount'), [setFocus]);

  const onSubmit = (values: RefundFormValues) => {
    if (refund.isPending) return;
    setProblem(null);
    toast.dismiss();
    refund.mutate(
      { amount: centsToDecimalString(values.amount), ...(values.reason ? { reason: values.reason } : {}), tpin: values.tpin },
      {
        onSuccess: (answer) => {
          toast.success(answer.data.status === 'processing' ? refundMessages.processing : (answer.message ?? refundMessages.created));
          onClose();
        },
        onError: (error) => {
          const unsure = isUnsureFailure(error);
          const message = unsure ? refundUnsureMessage : errorMessage(error, failedMessage);
          toast.error(message);
          setProblem(message);
          if (!(error instanceof ApiError)) return;
          for (const [field, fieldMessage] of Object.entries(error.fields ?? {})) if (isFormField(field)) setError(field, { message: fieldMessage });
          if (isTpinRefusal(error)) {
            setValue('tpin', '');
            setFocus('tpin');
          }
        },
      },
    );
  };

  return (
    <form
      onSubmit={(event) => void handleSubmit(onSubmit)(event)}
      noValidate
      aria-labelledby={headingId}
      className="space-y-4 rounded-2xl border border-brand-200 bg-white p-5 shadow-xs sm:p-6"
    >
      <div>
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          {refundMessages.formTitle}
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          The amount goes back to the payer&rsquo;s {payment.sourceType === 'card' ? 'card' : 'wallet'} and is taken from the balance of account{' '}
          <span className="tabular-nums">{payment.accountNumber}</span>; the fee on it comes back to you in proportion.
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="min-w-0">
          <AmountField label={refundMessages.amountLabel} error={errors.amount?.message} {...register('amount')} />
          <p className="mt-1.5 text-sm text-slate-600">Left to refund: {left}</p>
        </div>
        <TpinField label={refundMessages.tpinLabel} error={errors.tpin?.message} {...register('tpin')} />
        <FloatingField
          label={refundMessages.reasonLabel}
          autoComplete="off"
          maxLength={REFUND_REASON_MAX_CHARS}
          className="sm:col-span-2"
          error={errors.reason?.message}
          {...register('reason')}
        />
      </div>
      {problem && (
        <p role="alert" className="rounded-lg bg-danger-50 px-4 py-3 text-sm font-medium text-danger-700">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" loading={refund.isPending}>
          {refundMessages.submit}
        </Button>
        <Button variant="secondary" onClick={onClose} disabled={refund.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
