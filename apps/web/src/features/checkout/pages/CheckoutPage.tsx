import { checkoutMessages, type CheckoutView, type Currency } from '@kestrel/shared';
import { useState } from 'react';
import { CardForm, type CardDetails } from '../../../components/CardForm.tsx';
import { StatusCard } from '../../../components/StatusCard.tsx';
import { CloseIcon } from '../../../components/icon-base.tsx';
import { FullPageSpinner, Spinner } from '../../../components/Spinner.tsx';
import { Tabs } from '../../../components/Tabs.tsx';
import { apiCents, formatApiMoney } from '../../../lib/money.ts';
import { payCheckoutByCard, payCheckoutByWallet, useCheckout, type PaidAnswer } from '../api.ts';
import { PayLayout } from '../components/PayLayout.tsx';
import { paidWithText, Receipt } from '../components/Receipt.tsx';
import { WalletPay, type WalletAuth, type WalletPayment } from '../components/WalletPay.tsx';
import { usePay } from '../use-pay.ts';
import { useHydrated } from '../../../lib/hydrated.ts';

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

/** A paid checkout: the receipt, from the server's view of the payment (so a reload shows the same). */
function CheckoutReceipt({ payment }: { payment: CheckoutView }) {
  return (
    <Receipt
      amount={formatApiMoney(payment.amount, payment.currency as Currency)}
      paidAt={payment.paidAt}
      returnUrl={payment.redirectUrl}
      lines={[
        { label: 'Store', value: payment.storeName },
        { label: 'Product', value: payment.productName },
        { label: 'Order ID', value: payment.orderId, code: true },
        { label: 'Payment ID', value: payment.paymentId, code: true },
        { label: 'Transaction ID', value: payment.transactionId ?? '', code: true },
        ...(payment.paymentSource ? [{ label: 'Paid with', value: paidWithText(payment.paymentSource) }] : []),
      ]}
    />
  );
}

function Checkout({ payment, onPaid }: { payment: CheckoutView; onPaid: () => void }) {
  const currency = payment.currency as Currency;
  const amountText = formatApiMoney(payment.amount, currency);
  const [method, setMethod] = useState<Method>('card');
  const hydrated = useHydrated();
  const { busy, pay } = usePay<PaidAnswer>({ onPaid, redirectOf: (paid) => paid.redirectUrl });

  const payByCard = async (card: CardDetails) => {
    await pay(() => payCheckoutByCard(payment.paymentId, { type: 'card', brand: card.brand, number: card.number, expiresIn: card.expiresIn, cvc: card.cvc, cardHolderName: card.cardHolderName }));
  };
  const payByWallet = (auth: WalletAuth, form: WalletPayment) =>
    pay(() =>
      payCheckoutByWallet(
        payment.paymentId,
        { userId: auth.userId, accountNumber: form.accountNumber, tpin: form.tpin, stepUpCode: form.stepUpCode },
        auth.token,
        form.idempotencyKey,
      ),
    );

  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-7">
      <header className="flex items-start gap-4">
        <StoreLogo payment={payment} />
        <div className="min-w-0 flex-1">
          <p className="truncate text-lg font-semibold text-slate-900">{payment.storeName}</p>
          {/* What is being bought, so the payer can tell this is their order. */}
          <h1 className="mt-1 text-base font-medium break-words text-slate-900" data-testid="checkout-product">
            {payment.productName}
          </h1>
          <p className="text-xs break-all text-slate-600">
            Order ID <span data-testid="checkout-order">{payment.orderId}</span>
          </p>
          <p className="mt-2 text-sm text-slate-600">Payable amount</p>
          <p className="text-2xl font-bold tracking-tight text-slate-900" data-testid="checkout-amount">
            {amountText}
          </p>
        </div>
        <a href={payment.cancelUrl} aria-label="Cancel payment and return to the store" className="-m-2 rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-900">
          <CloseIcon className="size-6" />
        </a>
      </header>
      {/* Disabled until React runs the page (it paints from the server's HTML first): a card typed
          and Pay pressed before then would submit the bare form, the card in the address. */}
      <fieldset disabled={!hydrated} className="mt-6 min-w-0">
        <Tabs label="Payment method" tabs={methods} selected={method} onSelect={setMethod}>
          {method === 'card' ? (
            <CardForm payLabel={`Pay ${amountText}`} busy={busy} onPay={payByCard} />
          ) : (
            <WalletPay amountCents={apiCents(payment.amount)} currency={currency} payLabel={`Pay ${amountText}`} busy={busy} onPay={payByWallet} />
          )}
        </Tabs>
      </fieldset>
    </section>
  );
}

/** /web-pay/:urlId — the hosted checkout: public, outside the portal shell (app/checkout-pages.ts). */
export function CheckoutPage({ urlId }: { urlId: string }) {
  const checkout = useCheckout(urlId);
  // Paid on this page: the view is read again for the receipt's lines (transaction, card, time).
  const [paidHere, setPaidHere] = useState(false);
  if (checkout.isPending) return <FullPageSpinner label="Loading payment" />;
  let body;
  if (checkout.isError)
    body = (
      <StatusCard icon="!" tone="danger" title={checkoutMessages.broken}>
        {checkoutMessages.brokenHint}
      </StatusCard>
    );
  else if (checkout.data.paymentStatus === 'success') body = <CheckoutReceipt payment={checkout.data} />;
  else if (paidHere)
    body = (
      <div className="flex justify-center py-10 text-brand-700">
        <Spinner className="size-10" label="Loading your receipt" />
      </div>
    );
  else
    body = (
      <Checkout
        payment={checkout.data}
        onPaid={() => {
          setPaidHere(true);
          void checkout.refetch();
        }}
      />
    );
  return <PayLayout>{body}</PayLayout>;
}

/** The page's first read, for the server renderer and the hydrating checkout app (app/checkout-pages.ts). */
export { checkoutQuery } from '../api.ts';
