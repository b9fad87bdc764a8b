import { checkoutMessages, STEP_UP_INVALID, STEP_UP_REQUIRED, type CheckoutLoginFormValues, type Currency, type LoginSecondStep, type WalletPayFormValues } from '@kestrel/shared';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Button } from '../../../components/Button.tsx';
import { FloatingField, PasswordField } from '../../../components/FloatingField.tsx';
import { SelectField } from '../../../components/SelectField.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { ApiError } from '../../../lib/http.ts';
import { useRequestKey } from '../../../lib/idempotency-key.ts';
import { apiCents, formatApiMoney } from '../../../lib/money.ts';
import { usePlainForm, type FormRules } from '../../../lib/plain-form.ts';
import { useSession } from '../../../lib/session.ts';
import { useWallets, walletLogin, walletLogout, type Wallet } from '../api.ts';

// Only a payer with two-factor sign-in on needs the code step: fetched then, outside the pay page's budget.
const WalletSecondStep = lazy(() => import('./WalletSecondStep.tsx').then((module) => ({ default: module.WalletSecondStep })));
// Only a payment above the payer's step-up threshold needs the code field: fetched then, likewise.
const WalletStepUp = lazy(() => import('./WalletStepUp.tsx').then((module) => ({ default: module.WalletStepUp })));

export interface WalletAuth {
  userId: string;
  token: string;
}

/**
 * What the wallet form hands its page to pay with: the account, the TPIN, the step-up code once
 * the server asked for one, and the attempt's Idempotency-Key (the same for the resend with the
 * code, so the server pays once).
 */
export interface WalletPayment {
  accountNumber: string;
  tpin: string;
  stepUpCode?: string;
  idempotencyKey: string;
}

/** Business accounts by business name, personal ones by holder name (the spec's picker). */
const walletName = (wallet: Wallet) => (wallet.accountType === 'business' && wallet.businessName ? wallet.businessName : wallet.accountHolderName);

/** The account's balance in the payment's currency, in API units (0 when it holds none). */
const balanceOf = (wallet: Wallet, currency: string) => wallet.balance.find((item) => item.currency === currency)?.amount ?? 0;

/** The checkout's own login messages (document 2, section 5); the password is not trimmed. */
const loginRules: FormRules<CheckoutLoginFormValues> = {
  email: (value) => (value.trim() ? undefined : checkoutMessages.emailRequired),
  password: (value) => (value ? undefined : checkoutMessages.passwordMissing),
};

/** An account and its TPIN: required, 4 to 6 digits (the input takes 4). */
const payRules: FormRules<WalletPayFormValues> = {
  accountNumber: (value) => (value ? undefined : 'Select an account'),
  tpin: (value) => (!value.trim() ? checkoutMessages.tpinRequired : /^\d{4,6}$/.test(value.trim()) ? undefined : checkoutMessages.tpinInvalid),
};

function WalletLogin({ onSignedIn }: { onSignedIn: (auth: WalletAuth) => void }) {
  const [error, setError] = useState<string>();
  /** Two-factor sign-in on: the second step's challenge, once the password was right. */
  const [challenge, setChallenge] = useState<LoginSecondStep>();
  const { field, handleSubmit, isSubmitting } = usePlainForm<CheckoutLoginFormValues>({ email: '', password: '' }, loginRules);
  if (challenge) {
    return (
      <Suspense fallback={<Spinner className="mx-auto size-6" label="Loading" />}>
        <WalletSecondStep
          challenge={challenge}
          onSignedIn={onSignedIn}
          onExpired={(message) => {
            setChallenge(undefined);
            setError(message);
          }}
        />
      </Suspense>
    );
  }
  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={handleSubmit(async (values) => {
        setError(undefined);
        try {
          const result = await walletLogin(values.email.trim(), values.password);
          if ('secondStep' in result) setChallenge(result);
          else onSignedIn({ userId: result._id, token: result.token });
        } catch (cause) {
          setError(cause instanceof ApiError && cause.status === 401 && cause.fromServer ? cause.message : checkoutMessages.loginError);
        }
      })}
    >
      <p className="text-sm text-slate-600">Sign in to your Kestrel wallet to pay from your balance.</p>
      <FloatingField label="Email" type="email" autoComplete="email" {...field('email')} />
      <PasswordField label="Password" autoComplete="current-password" {...field('password')} />
      {error && (
        <p role="alert" className="text-sm font-medium text-danger-700">
          {error}
        </p>
      )}
      <Button type="submit" size="lg" className="w-full" loading={isSubmitting}>
        Login
      </Button>
    </form>
  );
}

/**
 * The Kestrel (wallet) tab of a pay page: a login when there is no session, then an account
 * picker and the TPIN (input capped at 4). The pay button shows only when the amount is within
 * the chosen account's balance. `amountCents` undefined (a payer-chosen amount not typed yet)
 * shows the button and leaves the check to the server.
 */
export function WalletPay({
  amountCents,
  currency,
  payLabel,
  busy,
  onPay,
}: {
  amountCents: number | undefined;
  currency: Currency;
  payLabel: string;
  busy: boolean;
  /** Pays; answers the refusal (undefined when paid or stopped), so a step-up refusal brings the code field. */
  onPay: (auth: WalletAuth, payment: WalletPayment) => unknown;
}) {
  const session = useSession();
  const [ownLogin, setOwnLogin] = useState<WalletAuth>();
  // "Use another account": the portal's session stays signed in, the checkout just stops using it.
  const [portalSetAside, setPortalSetAside] = useState(false);
  const portal = session.userId && session.accessToken && !portalSetAside ? { userId: session.userId, token: session.accessToken } : undefined;
  const auth = ownLogin ?? portal;
  const wallets = useWallets(auth);
  const { values, field, setValue, handleSubmit } = usePlainForm<WalletPayFormValues>({ accountNumber: '', tpin: '' }, payRules);
  // The key belongs to the payment asked for (payer, account, amount), not to the press: the resend
  // with the step-up code, or after a lost answer, goes under the same key (issue 25).
  const requestKey = useRequestKey();
  /** Above the step-up threshold (403 step_up_required): the server's message, which says where the code comes from. */
  const [stepUp, setStepUp] = useState<string>();
  const [stepUpCode, setStepUpCode] = useState('');
  /** The code's refusal: the server's step_up_invalid message, or none when Pay was pressed with the field empty (a new object each time: the field takes the caret again). */
  const [stepUpError, setStepUpError] = useState<{ text?: string }>();
  const chosen = values.accountNumber;
  const firstAccount = wallets.data?.accounts[0]?.accountNumber;
  // The first account is chosen until the payer picks another.
  useEffect(() => {
    if (firstAccount && !chosen) setValue('accountNumber', firstAccount);
  }, [firstAccount, chosen, setValue]);

  /** Back to the wallet login: the checkout's own login is ended on the server, the portal's is only set aside. */
  const switchUser = () => {
    if (ownLogin) void walletLogout(ownLogin.token).catch(() => undefined);
    else setPortalSetAside(true);
    setOwnLogin(undefined);
    setValue('accountNumber', '');
    setValue('tpin', '');
    setStepUp(undefined);
    setStepUpCode('');
    setStepUpError(undefined);
  };

  if (!auth) return <WalletLogin onSignedIn={setOwnLogin} />;
  if (wallets.isPending) return <Spinner label="Loading your accounts" />;
  if (wallets.isError) return <p className="text-sm font-medium text-danger-700">{checkoutMessages.loginError}</p>;

  const list = wallets.data.accounts;
  const selected = list.find((wallet) => wallet.accountNumber === chosen);
  const affordable = selected !== undefined && (amountCents === undefined || amountCents <= apiCents(balanceOf(selected, currency)));

  const submit = async (form: WalletPayFormValues) => {
    const code = stepUpCode.trim();
    setStepUpError(undefined);
    if (stepUp && !code) return setStepUpError({});
    const idempotencyKey = requestKey.keyFor(JSON.stringify([auth.userId, form.accountNumber, amountCents ?? null]));
    const refusal = await onPay(auth, { accountNumber: form.accountNumber, tpin: form.tpin.trim(), stepUpCode: stepUp && code, idempotencyKey });
    if (refusal instanceof ApiError && refusal.code === STEP_UP_REQUIRED) {
      // Not a failure: the code field appears under the server's message (the app's code, or the one just e-mailed).
      setStepUp(refusal.message);
      setStepUpCode('');
      return;
    }
    if (refusal instanceof ApiError && refusal.code === STEP_UP_INVALID) {
      setStepUpError({ text: refusal.fields?.stepUpCode ?? refusal.message });
      setStepUpCode('');
      return;
    }
    // Paid, or refused for another reason (the server keeps no answer under the key): the next press is a new payment.
    // No answer at all (network, a server fault) keeps the key, so pressing again cannot pay twice.
    if (refusal === undefined || (refusal instanceof ApiError && refusal.status >= 400 && refusal.status < 500)) requestKey.settled();
  };

  return (
    <form noValidate className="space-y-4" onSubmit={handleSubmit(submit)}>
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 rounded-lg bg-slate-50 px-3 py-2 text-sm">
        <p className="min-w-0 break-all text-slate-700">
          Paying as <span className="font-semibold text-slate-900" data-testid="wallet-user">{wallets.data.email}</span>
        </p>
        <button type="button" className="rounded font-semibold text-brand-700 underline hover:text-brand-800" onClick={switchUser}>
          {ownLogin ? 'Sign out' : 'Use another account'}
        </button>
      </div>
      <SelectField label="Account" {...field('accountNumber')}>
        {list.map((wallet) => (
          <option key={wallet._id} value={wallet.accountNumber}>
            {walletName(wallet)} · {formatApiMoney(balanceOf(wallet, currency), currency)}
          </option>
        ))}
      </SelectField>
      <FloatingField label="TPIN" type="password" inputMode="numeric" autoComplete="off" maxLength={4} {...field('tpin')} />
      {stepUp && (
        <Suspense fallback={<Spinner className="mx-auto size-6" label="Loading" />}>
          <WalletStepUp
            message={stepUp}
            code={stepUpCode}
            onCode={setStepUpCode}
            error={stepUpError}
          />
        </Suspense>
      )}
      {affordable ? (
        <Button type="submit" size="lg" className="w-full" loading={busy}>
          {payLabel}
        </Button>
      ) : (
        selected && <p className="text-sm font-medium text-danger-700">This account's balance is too low for this payment.</p>
      )}
    </form>
  );
}
