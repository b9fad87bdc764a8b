import { useZodForm } from '../../../lib/zod-form.ts';
import {
  PAYMENT_METHODS,
  paymentRequestForm,
  paymentRequestFormDefaults,
  paymentRequestFormToBody,
  paymentRequestLabels as labels,
  paymentRequestMessages as m,
  type PaymentRequestFormInput,
} from '@kestrel/shared';
import type { ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { FloatingField } from '../../../components/FloatingField.tsx';
import { AmountField, showFieldRefusals, TpinField } from '../../../components/MoneyFields.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { ApiError, errorMessage, isUnsureFailure } from '../../../lib/http.ts';
import { useSession } from '../../../lib/session.ts';
import { BackLink } from '../../transfers/components/BackLink.tsx';
import { useCreatePaymentRequest } from '../api.ts';
import { ChoiceGroup } from '../components/ChoiceGroup.tsx';

const title = 'New Payment Request';
const failedMessage = 'Payment request failed!';
/** An answer that never came may hide a link that was made; the same form again makes it once. */
const unsureMessage = 'Payment request failed! Sending it again is safe: the link will not be made twice.';

const limitChoices = [
  { value: 'no', label: 'No limit' },
  { value: 'yes', label: 'Limit the uses' },
] as const;
const amountTypeChoices = [
  { value: 'fixed', label: 'Fixed amount' },
  { value: 'customer-choosen', label: 'Customer choosen' },
] as const;
const methodChoices = PAYMENT_METHODS.map((method) => ({ value: method, label: method }));

/** The server names a fixed amount 'amount.value'; the form calls it 'amount'. */
const serverFieldToForm: Record<string, keyof PaymentRequestFormInput> = { 'amount.value': 'amount', 'amount.type': 'amountType' };
const formFields = new Set<string>(Object.keys(paymentRequestFormDefaults));
const formFieldOf = (field: string): keyof PaymentRequestFormInput | undefined =>
  serverFieldToForm[field] ?? (formFields.has(field) ? (field as keyof PaymentRequestFormInput) : undefined);

function Section({ title: heading, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-4">
      <h2 className="text-base font-semibold text-slate-900">{heading}</h2>
      {children}
    </section>
  );
}

/** /payment-request/new: a new payment link for the active account. */
export function NewPaymentRequestPage() {
  const { accountNumber, userId } = useSession();
  const create = useCreatePaymentRequest();
  const navigate = useNavigate();
  const { register, handleSubmit, control, setError, setValue, setFocus, errors } = useZodForm(paymentRequestForm, paymentRequestFormDefaults);
  const [isUseLimit, amountType] = useWatch({ control, name: ['isUseLimit', 'amountType'] });

  const onSubmit = (values: PaymentRequestFormInput) => {
    if (create.isPending || !accountNumber || !userId) return;
    create.mutate(paymentRequestFormToBody(values, { userId, accountNumber }), {
      onSuccess: (answer) => {
        toast.success(m.created);
        void navigate(`/payment-request/details/${encodeURIComponent(answer._id)}`);
      },
      onError: (error) => {
        const unsure = isUnsureFailure(error);
        toast.error(unsure ? unsureMessage : errorMessage(error, failedMessage));
        if (error instanceof ApiError) showFieldRefusals(error, formFieldOf, { setError, setValue, setFocus });
      },
    });
  };

  /** An amount input that drops anything but digits and one decimal point as it is typed. */
  const amountInput = (field: 'amount' | 'minimumAmount' | 'maximumAmount') => (
    <AmountField label={`${labels[field]} (USD)`} error={errors[field]?.message} {...register(field)} />
  );

  return (
    <>
      <PageTitle title={title} />
      <BackLink to="/payment-request">Payment requests</BackLink>
      <div className="mt-2 max-w-3xl">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        <p className="mt-1 mb-6 text-slate-600">Create a link anyone can pay by card or from a Kestrel wallet. The money arrives in account {accountNumber}.</p>
        <form
          onSubmit={handleSubmit(onSubmit)}
          noValidate
          aria-label={title}
          className="space-y-7 rounded-2xl border border-slate-200 bg-white p-4 shadow-xs sm:p-6"
        >
          <Section title="Payment details">
            <div className="grid gap-5 sm:grid-cols-2">
              <FloatingField label={labels.paymentPurpose} autoComplete="off" error={errors.paymentPurpose?.message} {...register('paymentPurpose')} />
              <FloatingField label={labels.reference} autoComplete="off" error={errors.reference?.message} {...register('reference')} />
            </div>
            <ChoiceGroup legend={labels.amountType} type="radio" choices={amountTypeChoices} error={errors.amountType?.message} input={register('amountType')} />
            {amountType === 'customer-choosen' ? (
              <div className="grid gap-5 sm:grid-cols-2">
                {amountInput('minimumAmount')}
                {amountInput('maximumAmount')}
              </div>
            ) : (
              <div className="grid gap-5 sm:grid-cols-2">{amountInput('amount')}</div>
            )}
            <ChoiceGroup legend={labels.paymentMethods} type="checkbox" choices={methodChoices} error={errors.paymentMethods?.message} input={register('paymentMethods')} />
          </Section>

          <Section title="Use limit and expiry">
            <ChoiceGroup legend={labels.isUseLimit} type="radio" choices={limitChoices} error={errors.isUseLimit?.message} input={register('isUseLimit')} />
            <div className="grid gap-5 sm:grid-cols-2">
              {isUseLimit === 'yes' && (
                <FloatingField label={labels.useLimit} type="number" min={1} step={1} inputMode="numeric" autoComplete="off" error={errors.useLimit?.message} {...register('useLimit')} />
              )}
              <div>
                <FloatingField label={`${labels.expiresAt} (optional)`} type="datetime-local" error={errors.expiresAt?.message} {...register('expiresAt')} />
                <p className="mt-1.5 text-sm text-slate-600">After this time the link stops taking payments.</p>
              </div>
            </div>
          </Section>

          <Section title="Customer (optional)">
            <div className="grid gap-5 sm:grid-cols-3">
              <FloatingField label={labels.customerName} autoComplete="off" error={errors.customerName?.message} {...register('customerName')} />
              <FloatingField label={labels.customerEmail} type="email" autoComplete="off" error={errors.customerEmail?.message} {...register('customerEmail')} />
              <FloatingField label={labels.customerPhone} type="tel" autoComplete="off" error={errors.customerPhone?.message} {...register('customerPhone')} />
            </div>
          </Section>

          <div className="grid gap-5 sm:grid-cols-2">
            <TpinField label={labels.tpin} error={errors.tpin?.message} {...register('tpin')} />
          </div>
          <Button type="submit" size="lg" className="w-full sm:w-auto" loading={create.isPending}>
            Create payment request
          </Button>
        </form>
      </div>
    </>
  );
}
