import { useZodForm } from '../../../lib/zod-form.ts';
import {
  asCurrency,
  centsToDecimalString,
  formatMoney,
  parseAmount,
  STEP_UP_INVALID,
  US_BANK_ACCOUNT_TYPES,
  WITHDRAW_COUNTRIES,
  withdrawForm,
  withdrawLabels,
  withdrawMessages,
  type WithdrawFormValues,
} from '@kestrel/shared';
import { useWatch } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { FloatingField } from '../../../components/FloatingField.tsx';
import { SelectField } from '../../../components/SelectField.tsx';
import { AmountField, CurrencyField, showFieldRefusals, StepUpCodeField, TpinField, useStepUp } from '../../../components/MoneyFields.tsx';
import { apiCents } from '../../../lib/money.ts';
import { ApiError, errorMessage, isUnsureFailure } from '../../../lib/http.ts';
import { useSession } from '../../../lib/session.ts';
import { useAccount } from '../../accounts/api.ts';
import { useCreateWithdrawal } from '../api.ts';

const failedMessage = 'Withdraw request failed!';
/** An answer that never came may hide a request that went through; the same request again is safe. */
const unsureMessage = 'Withdraw request failed! Sending it again is safe: the money will not be held twice.';

const formFields = new Set<string>(Object.keys(withdrawLabels));
const isFormField = (field: string): field is keyof WithdrawFormValues => formFields.has(field);

/** "checking" -> "Checking": how a US account type is shown; it is sent uppercased. */
const accountTypeLabel = (value: string) => value.charAt(0) + value.slice(1).toLowerCase();

/** The new bank withdraw form (/bank/withdraw/new, and /withdraw/bank while there are no withdrawals). */
export function NewWithdrawForm() {
  const { accountNumber, userId } = useSession();
  const account = useAccount(accountNumber);
  const create = useCreateWithdrawal();
  const navigate = useNavigate();
  const { register, handleSubmit, control, setError, setValue, setFocus, errors } = useZodForm(withdrawForm, {
    country: '',
    bankName: '',
    branchName: '',
    accountType: '',
    bankAccountNumber: '',
    routingNumber: '',
    accountHolderName: '',
    currency: 'USD',
    amount: '',
    tpin: '',
    stepUpCode: '',
  });
  /** Above the step-up threshold (403 step_up_required): the "Verification code" field and its hint. */
  const stepUp = useStepUp({ setError, setValue, setFocus });
  const country = useWatch({ control, name: 'country' });
  const balance = account.data?.balance.find((entry) => entry.currency === 'USD');
  const availableCents = balance ? apiCents(balance.amount) : undefined;

  const onSubmit = (values: WithdrawFormValues) => {
    if (create.isPending || !accountNumber) return;
    const amount = parseAmount(values.amount);
    if (!amount.ok) return;
    const stepUpCode = stepUp.code(values.stepUpCode);
    if (stepUpCode === undefined) return;
    create.mutate(
      {
        accountNumber,
        userId,
        tpin: values.tpin,
        country: values.country === 'Bangladesh' ? 'Bangladesh' : 'United States',
        bankName: values.bankName,
        // Only the field of the chosen country is sent.
        ...(values.country === 'Bangladesh' ? { branchName: values.branchName } : { accountType: values.accountType.toUpperCase() }),
        bankAccountNumber: values.bankAccountNumber,
        routingNumber: values.routingNumber,
        accountHolderName: values.accountHolderName,
        currency: 'USD',
        amount: centsToDecimalString(amount.cents),
        ...(stepUpCode ? { stepUpCode } : {}),
      },
      {
        onSuccess: () => {
          toast.success(withdrawMessages.pending);
          void navigate('/withdraw/bank');
        },
        onError: (error) => {
          if (stepUp.asked(error)) return;
          const unsure = isUnsureFailure(error);
          toast.error(unsure ? unsureMessage : errorMessage(error, failedMessage));
          if (!(error instanceof ApiError)) return;
          showFieldRefusals(error, (field) => (isFormField(field) ? field : undefined), { setError, setValue, setFocus });
          if (error.code === STEP_UP_INVALID) {
            setError('stepUpCode', { message: error.fields?.stepUpCode ?? error.message });
            setValue('stepUpCode', '');
            setFocus('stepUpCode');
          }
        },
      },
    );
  };

  return (
    <form
      onSubmit={handleSubmit(onSubmit)}
      noValidate
      aria-label="New bank withdraw"
      className="space-y-5 rounded-2xl border border-slate-200 bg-white p-4 shadow-xs sm:p-6"
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <SelectField label={withdrawLabels.country} placeholderOption="Select" error={errors.country?.message} {...register('country')}>
          {WITHDRAW_COUNTRIES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </SelectField>
        <FloatingField label={withdrawLabels.bankName} autoComplete="off" error={errors.bankName?.message} {...register('bankName')} />
        {country === 'Bangladesh' && (
          <FloatingField label={withdrawLabels.branchName} autoComplete="off" error={errors.branchName?.message} {...register('branchName')} />
        )}
        {country === 'United States' && (
          <SelectField label={withdrawLabels.accountType} placeholderOption="Select" error={errors.accountType?.message} {...register('accountType')}>
            {US_BANK_ACCOUNT_TYPES.map((type) => (
              <option key={type} value={type.toLowerCase()}>
                {accountTypeLabel(type)}
              </option>
            ))}
          </SelectField>
        )}
        <FloatingField
          label={withdrawLabels.bankAccountNumber}
          inputMode="numeric"
          autoComplete="off"
          error={errors.bankAccountNumber?.message}
          {...register('bankAccountNumber')}
        />
        <FloatingField label={withdrawLabels.routingNumber} inputMode="numeric" autoComplete="off" error={errors.routingNumber?.message} {...register('routingNumber')} />
        <FloatingField label={withdrawLabels.accountHolderName} autoComplete="off" error={errors.accountHolderName?.message} {...register('accountHolderName')} />
        <CurrencyField label={withdrawLabels.currency} error={errors.currency?.message} {...register('currency')} />
        <div className="min-w-0">
          <AmountField label={withdrawLabels.amount} error={errors.amount?.message} {...register('amount')} />
          {availableCents !== undefined && <p className="mt-1.5 text-sm text-slate-600">Available balance: {formatMoney(availableCents, asCurrency(balance?.currency ?? 'USD'))}</p>}
        </div>
        <TpinField label={withdrawLabels.tpin} error={errors.tpin?.message} {...register('tpin')} />
        {stepUp.hint && <StepUpCodeField hint={stepUp.hint} error={errors.stepUpCode?.message} {...register('stepUpCode')} />}
      </div>
      <p className="text-sm text-slate-600">
        The amount leaves your balance now and is held until the payout is made. If the bank refuses it, it comes back to your wallet.
      </p>
      <Button type="submit" size="lg" className="w-full sm:w-auto" loading={create.isPending}>
        Request withdraw
      </Button>
    </form>
  );
}
