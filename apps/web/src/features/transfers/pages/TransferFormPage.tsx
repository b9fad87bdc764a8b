import { useZodForm } from '../../../lib/zod-form.ts';
import {
  centsToDecimalString,
  CURRENCIES,
  CURRENCY_PREFIX,
  formatMoney,
  STEP_UP_INVALID,
  transferForm,
  transferMessages,
  type Cents,
  type Currency,
  type TransferFormInput,
  type TransferFormValues,
} from '@kestrel/shared';
import { useEffect, useId, useRef } from 'react';
import { useWatch } from 'react-hook-form';
import toast from 'react-hot-toast';
import { Link, useNavigate, useParams } from 'react-router';
import { Button, buttonClasses } from '../../../components/Button.tsx';
import { StatusCard } from '../../../components/StatusCard.tsx';
import { FloatingField } from '../../../components/FloatingField.tsx';
import { CurrencyField, showFieldRefusals, StepUpCodeField, TpinField, useStepUp } from '../../../components/MoneyFields.tsx';
import { AlertCircleIcon, CheckCircleIcon } from '../../../components/icons.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { apiCents, formatApiMoney } from '../../../lib/money.ts';
import { ApiError, errorMessage, isUnsureFailure } from '../../../lib/http.ts';
import { useSession } from '../../../lib/session.ts';
import { accountDisplayName } from '../../accounts/account-name.ts';
import { usePortalUser } from '../../../lib/portal-user.ts';
import type { Account } from '../../accounts/api.ts';
import { useRecipient, useSenderAccount, useTransferBalance, type Recipient, type TransferResult } from '../api.ts';
import { transferPaths, WALLET_AREA } from '../areas.ts';
import { WalletAreaOnly } from '../components/AreaStatus.tsx';
import { BackLink } from '../components/BackLink.tsx';

/** One id for the transfer's error toast, so a new attempt can clear the last one's. */
const TRANSFER_ERROR_TOAST = 'transfer-error';

const title = 'Complete Transfer';
const failedMessage = 'Fund transfer failed!';
/** An answer that never came (network, server fault) may hide a transfer that went through. */
const unsureHint = 'Sending it again is safe: it will not be paid twice.';
const unsureMessage = `Fund transfer failed! ${unsureHint}`;

/** Read-only fields look set, not waiting for input (FloatingField draws every input white). */
const readOnlyStyle = { backgroundColor: 'var(--color-slate-50, #f8fafc)' } as const;

/** The server's field names in POST /v1/account/transfer_balance, mapped to the form's. */
const formFieldOf: Record<string, keyof TransferFormInput> = { currency: 'currency', balance: 'amount', tpin: 'tpin', stepUpCode: 'stepUpCode' };

const displayName = (account: Pick<Recipient, 'accountType' | 'accountHolderName' | 'businessName'>) =>
  accountDisplayName({
    accountType: account.accountType === 'business' ? 'business' : 'personal',
    accountHolderName: account.accountHolderName,
    businessName: account.businessName,
  });

/** The sender's balance in this currency; undefined when the account holds none in it. */
function balanceCents(sender: Account, currency: Currency | undefined): Cents | undefined {
  const entry = sender.balance.find((item) => item.currency === currency);
  return entry ? apiCents(entry.amount) : undefined;
}

/** The amount field parsed by the form's own schema (the same `amountCents` the API uses). */
function typedAmount(value: TransferFormInput['amount'] | undefined): Cents | undefined {
  const parsed = transferForm.shape.amount.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function AccountHint({ id, account }: { id: string; account: Pick<Recipient, 'accountType' | 'businessName' | 'userName' | 'accountNumber'> }) {
  return (
    <p id={id} className="mt-1.5 truncate text-sm text-slate-600">
      {account.accountType === 'business' && account.businessName ? `${account.businessName} · ` : ''}@{account.userName} ·{' '}
      <span className="tabular-nums">{account.accountNumber}</span>
    </p>
  );
}

/** What the user sees once the money has moved. */
function TransferDone({ result, recipient }: { result: TransferResult; recipient: Recipient }) {
  return (
    <div role="status" className="flex gap-3 rounded-xl border border-success-700/20 bg-success-50 p-4 text-sm text-success-700">
      <CheckCircleIcon className="mt-0.5 size-5 shrink-0" />
      <div className="min-w-0 space-y-1">
        <p className="font-semibold">
          {transferMessages.success}: {formatApiMoney(result.amount, result.currency)} sent to {displayName(recipient)}.
        </p>
        <p className="break-all text-slate-700">
          Transaction ID <span className="font-mono">{result.transactionId}</span>
        </p>
        <p className="text-slate-700">Your balance now: {formatApiMoney(result.balance, result.currency)}</p>
      </div>
    </div>
  );
}

function CenteredStatus(props: Parameters<typeof StatusCard>[0]) {
  return (
    <div className="flex justify-center py-6 sm:py-10">
      <StatusCard {...props} />
    </div>
  );
}

function TransferFormScreen({ recipientUserName }: { recipientUserName: string }) {
  const user = usePortalUser();
  const { accountNumber } = useSession();
  const sender = useSenderAccount(accountNumber);
  const recipient = useRecipient(recipientUserName);
  const transfer = useTransferBalance();
  const navigate = useNavigate();
  const backButton = useRef<HTMLButtonElement>(null);
  const senderHintId = useId();
  const recipientHintId = useId();
  const previewId = useId();

  const { register, handleSubmit, control, setError, setValue, setFocus, errors } = useZodForm(transferForm, { currency: 'USD', amount: '', tpin: '', stepUpCode: '' });
  /** Above the step-up threshold (403 step_up_required): the "Verification code" field and its hint. */
  const stepUp = useStepUp({ setError, setValue, setFocus });
  const [amountText, currency] = useWatch({ control, name: ['amount', 'currency'] });

  const done = transfer.isSuccess;
  useEffect(() => {
    // The submit button the user pressed is gone; put focus on its replacement.
    if (done) backButton.current?.focus();
  }, [done]);

  const searchPath = transferPaths.recipientSearch(WALLET_AREA);
  const back = <BackLink to={searchPath}>Choose another recipient</BackLink>;

  if (sender.isPending || recipient.isPending) {
    return (
      <div role="status" className="flex items-center justify-center gap-2 py-16 text-slate-600">
        <Spinner className="size-6 text-brand-700" />
        Loading transfer details…
      </div>
    );
  }
  if (recipient.isError || sender.isError) {
    const failed = recipient.isError ? recipient : sender;
    return (
      <CenteredStatus
        icon={<AlertCircleIcon />}
        tone="danger"
        title="We could not load this transfer"
        actions={
          <Button size="lg" onClick={() => void failed.refetch()} loading={failed.isFetching}>
            Try again
          </Button>
        }
      >
        <p role="alert">{errorMessage(failed.error, 'The server could not be reached. Check your connection and try again.')}</p>
      </CenteredStatus>
    );
  }
  const from = sender.data;
  const to = recipient.data;
  // No such recipient, or the account sending: nothing to fill in, back to the search.
  const problem = !to
    ? { title: transferMessages.recipientNotFound, text: `No account has the user name “${recipientUserName}”.` }
    : to.accountNumber === from.accountNumber
      ? // Another of the user's own accounts is a fine recipient; the account sending is not.
        { title: transferMessages.sameAccount, text: `“${to.userName}” is the account you are sending from. Switch accounts or choose another recipient.` }
      : undefined;
  if (!to || problem) {
    return (
      <CenteredStatus
        icon={<AlertCircleIcon />}
        tone="neutral"
        title={problem?.title ?? transferMessages.recipientNotFound}
        actions={
          <Link to={searchPath} className={buttonClasses('primary', 'lg')}>
            Search recipients
          </Link>
        }
      >
        <p>{problem?.text}</p>
      </CenteredStatus>
    );
  }

  // The select offers only supported currencies; before one is chosen nothing is previewed.
  const shownCurrency: Currency | undefined = CURRENCIES.find((code) => code === currency);
  const available = balanceCents(from, shownCurrency);
  const amountCents = typedAmount(amountText);
  const overBalance = amountCents !== undefined && available !== undefined && amountCents > available;
  const remaining = amountCents !== undefined && available !== undefined && !overBalance ? ((available - amountCents) as Cents) : undefined;

  const onSubmit = (values: TransferFormValues) => {
    if (transfer.isPending || done) return;
    const stepUpCode = stepUp.code(values.stepUpCode);
    if (stepUpCode === undefined) return;
    // A new attempt clears the last one's refusal: a success never shows beside a stale 'Incorrect TPIN'.
    toast.dismiss(TRANSFER_ERROR_TOAST);
    transfer.mutate(
      {
        sender: from,
        recipient: to,
        body: {
          userId: user._id,
          debitAccountKey: from.userName,
          creditAccountKey: to.userName,
          currency: values.currency,
          balance: centsToDecimalString(values.amount),
          tpin: values.tpin,
          ...(stepUpCode ? { stepUpCode } : {}),
        },
      },
      {
        onSuccess: () => toast.success(transferMessages.success),
        onError: (error) => {
          if (stepUp.asked(error)) return;
          // No answer (network) or a server fault may hide a transfer that went through: say that
          // sending again is safe. When the server did explain itself, its words come first.
          const unsure = isUnsureFailure(error);
          const serverSaid = error instanceof ApiError && error.fromServer ? error.message : undefined;
          toast.error(unsure ? (serverSaid ? `${serverSaid} ${unsureHint}` : unsureMessage) : errorMessage(error, failedMessage), { id: TRANSFER_ERROR_TOAST });
          if (!(error instanceof ApiError)) return;
          showFieldRefusals(error, (field) => formFieldOf[field], { setError, setValue, setFocus });
          if (error.code === STEP_UP_INVALID) {
            setValue('stepUpCode', '');
            setFocus('stepUpCode');
          }
        },
      },
    );
  };

  return (
    <>
      {back}
      <div className="mt-2 max-w-2xl">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        <p className="mt-1 text-slate-600">Check who is paying and who is paid, then enter the amount and your 4-digit TPIN.</p>
        <form
          onSubmit={handleSubmit(onSubmit)}
          noValidate
          aria-label={title}
          className="mt-6 space-y-5 rounded-2xl border border-slate-200 bg-white p-4 shadow-xs sm:p-6"
        >
          <fieldset disabled={done} className="space-y-5">
            <legend className="sr-only">Transfer details</legend>
            <div className="grid gap-5 sm:grid-cols-2">
              <div className="min-w-0">
                <FloatingField label="Sender name" value={from.accountHolderName} readOnly aria-describedby={senderHintId} style={readOnlyStyle} />
                <AccountHint id={senderHintId} account={from} />
              </div>
              <div className="min-w-0">
                <FloatingField label="Recipient name" value={to.accountHolderName} readOnly aria-describedby={recipientHintId} style={readOnlyStyle} />
                <AccountHint id={recipientHintId} account={to} />
              </div>
            </div>

            <div className="grid gap-5 sm:grid-cols-[11rem_minmax(0,1fr)]">
              <CurrencyField label="Currency" placeholderOption="Select" error={errors.currency?.message} {...register('currency')} />
              <div className="min-w-0">
                <FloatingField
                  label={shownCurrency ? `Amount (${CURRENCY_PREFIX[shownCurrency]})` : 'Amount'}
                  inputMode="decimal"
                  autoComplete="off"
                  error={errors.amount?.message}
                  {...register('amount')}
                />
                <div id={previewId} aria-live="polite" className="mt-1.5 text-sm">
                  {!done && shownCurrency && remaining !== undefined && (
                    <p className="font-medium text-slate-700">Remaining balance: {formatMoney(remaining, shownCurrency)}</p>
                  )}
                  {!done && shownCurrency && overBalance && available !== undefined && (
                    <p className="font-medium text-warning-700">More than your available balance ({formatMoney(available, shownCurrency)}).</p>
                  )}
                  {!done && shownCurrency && amountCents === undefined && available !== undefined && (
                    <p className="text-slate-600">Available balance: {formatMoney(available, shownCurrency)}</p>
                  )}
                </div>
              </div>
            </div>

            <TpinField label="TPIN" className="sm:max-w-[11rem]" error={errors.tpin?.message} {...register('tpin')} />

            {stepUp.hint && <StepUpCodeField hint={stepUp.hint} className="sm:max-w-[16rem]" error={errors.stepUpCode?.message} {...register('stepUpCode')} />}
          </fieldset>

          {done && <TransferDone result={transfer.data} recipient={to} />}

          {done ? (
            <button
              key="back"
              ref={backButton}
              type="button"
              onClick={() => void navigate('/dashboard')}
              className="inline-flex h-12 w-full items-center justify-center gap-2 rounded-lg bg-success-700 px-5 text-base font-semibold text-white shadow-sm hover:bg-green-800 sm:w-auto"
            >
              Back to Dashboard
            </button>
          ) : (
            <Button key="send" type="submit" size="lg" className="w-full sm:w-auto" loading={transfer.isPending}>
              Send Money
            </Button>
          )}
        </form>
      </div>
    </>
  );
}

/** /fund-transfer/:area/recipient/:recipientUserName: the 'Complete Transfer' form. */
export function TransferFormPage() {
  const { area, recipientUserName = '' } = useParams();
  return (
    <WalletAreaOnly area={area}>
      <PageTitle title={title} />
      <TransferFormScreen key={recipientUserName} recipientUserName={recipientUserName} />
    </WalletAreaOnly>
  );
}
