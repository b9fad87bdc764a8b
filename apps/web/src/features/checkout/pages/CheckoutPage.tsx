import { checkoutMessages, type CheckoutView, type Currency } from '@kestrel/shared';
import { useState } from 'react';
import { CardForm, type CardDetails } from '../../../components/CardForm.tsx';
import { StatusCard } from '../../../components/StatusCard.tsx';
import { CloseIcon } from '../../../components/icons.tsx';
import { FullPageSpinner } from '../../../components/Spinner.tsx';
import { Tabs } from '../../../components/Tabs.tsx';
import { apiCents, formatApiMoney } from '../../../lib/money.ts';
import { payCheckoutByCard, payCheckoutByWallet, useCheckout } from '../api.ts';
import { PayLayout } from '../components/PayLayout.tsx';
import { showPaidAndRedirect, showPayError } from '../components/pay-feedback.ts';
import { WalletPay, type WalletAuth } from '../components/WalletPay.tsx';

type Method = 'card' | 'kestrel';
const methods = [
  { key: 'card', label: 'Cards' },
  { key: 'kestrel', label: 'Kestrel' },
] as const;

/** Shown when the logo cannot be loaded: the store's initial on a tinted square. */
function StoreLogo({ payment }: { payment: CheckoutView }) {
  const [failed, setFailed] = useState(false);
  if (failed)
    return (
      <span aria-hidden="true" className="flex size-14 items-center justify-center rounded-xl bg-brand-100 text-xl font-bold text-brand-800">
        {payment.storeName.slice(0, 1).toUpperCase()}
      </span>
    );
  return <img src={payment.storeLogo} alt="" className="size-14 rounded-xl border border-slate-200 bg-white object-contain" onError={() => setFailed(true)} />;
}

function Paid({ redirectUrl }: { redirectUrl: string | null | undefined }) {
  return (
    <StatusCard
      icon="✓"
      tone="success"
      title={checkoutMessages.paid}
      actions={
        redirectUrl ? (
          <a className="font-semibold text-brand-700 underline" href={redirectUrl}>
            Return to the store
          </a>
        ) : undefined
      }
    >
      This payment has been completed.
    </StatusCard>
  );
}

function Checkout({ payment }: { payment: CheckoutView }) {
  const currency = payment.currency as Currency;
  const amountText = formatApiMoney(payment.amount, currency);
  const [method, setMethod] = useState<Method>('card');
  const [busy, setBusy] = useState(false);
  const [paid, setPaid] = useState<{ redirectUrl: string | undefined }>();

  const run = async (work: () => Promise<{ redirectUrl: string | undefined }>) => {
    setBusy(true);
    try {
      const answer = await work();
      setPaid(answer);
      showPaidAndRedirect(answer.redirectUrl);
    } catch (error) {
      showPayError(error);
    } finally {
      setBusy(false);
    }
  };
  const payByCard = (card: CardDetails) =>
    run(() => payCheckoutByCard(payment.paymentId, { type: 'card', brand: card.brand, number: card.number, expiresIn: card.expiresIn, cvc: card.cvc, cardHolderName: card.cardHolderName }));
  const payByWallet = (auth: WalletAuth, form: { accountNumber: string; tpin: string }) =>
    run(() => payCheckoutByWallet(payment.paymentId, { userId: auth.userId, accountNumber: form.accountNumber, tpin: form.tpin }, auth.token));

  if (paid) return <Paid redirectUrl={paid.redirectUrl} />;

  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-7">
      <header className="flex items-start gap-4">
        <StoreLogo payment={payment} />
        <div className="min-w-0 flex-1">
          <p className="truncate text-lg font-semibold text-slate-900">{payment.storeName}</p>
          <p className="text-sm text-slate-600">Payable amount</p>
          <p className="text-2xl font-bold tracking-tight text-slate-900" data-testid="checkout-amount">
            {amountText}
          </p>
        </div>
        <a href={payment.cancelUrl} aria-label="Cancel payment and return to the store" className="-m-2 rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-900">
          <CloseIcon className="size-6" />
        </a>
      </header>
      <div className="mt-6">
        <Tabs label="Payment method" tabs={methods} selected={method} onSelect={setMethod}>
          {method === 'card' ? (
            <CardForm payLabel={`Pay ${amountText}`} busy={busy} onPay={payByCard} />
          ) : (
            <WalletPay amountCents={apiCents(payment.amount)} currency={currency} payLabel={`Pay ${amountText}`} busy={busy} onPay={payByWallet} />
          )}
        </Tabs>
      </div>
    </section>
  );
}

/** /web-pay/:urlId — the hosted checkout: public, outside the portal shell (app/checkout-pages.ts). */
export function CheckoutPage({ urlId }: { urlId: string }) {
  const checkout = useCheckout(urlId);
  if (checkout.isPending) return <FullPageSpinner label="Loading payment" />;
  return (
    <PayLayout>
      {checkout.isError ? (
        <StatusCard icon="!" tone="danger" title={checkoutMessages.broken}>
          {checkoutMessages.brokenHint}
        </StatusCard>
      ) : checkout.data.paymentStatus === 'success' ? (
        <Paid redirectUrl={checkout.data.redirectUrl} />
      ) : (
        <Checkout payment={checkout.data} />
      )}
    </PayLayout>
  );
}
