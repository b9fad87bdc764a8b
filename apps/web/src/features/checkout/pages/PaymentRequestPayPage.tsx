import {
  asCurrency,
  CARD_ERROR_TOAST_MS,
  centsToDecimalString,
  checkoutMessages,
  formatMoney,
  linkAmountProblem,
  parseAmount,
  payerEmailProblem,
  linkPayMessages as m,
  PRODUCT_NAME,
  type PaymentMethod,
  type PublicPaymentRequestView,
} from '@kestrel/shared';
import { useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { CardForm, type CardDetails } from '../../../components/CardForm.tsx';
import { StatusCard } from '../../../components/StatusCard.tsx';
import { FloatingField } from '../../../components/FloatingField.tsx';
import { FullPageSpinner } from '../../../components/Spinner.tsx';
import { Tabs } from '../../../components/Tabs.tsx';
import { ApiError } from '../../../lib/http.ts';
import { usePlainForm } from '../../../lib/plain-form.ts';
import { apiCents, formatApiMoney } from '../../../lib/money.ts';
import { PayLayout } from '../components/PayLayout.tsx';
import { WalletPay, type WalletAuth } from '../components/WalletPay.tsx';
import { payLinkByCard, payLinkByKestrel, usePaymentRequestLink, type LinkPaid } from '../payment-request-api.ts';

type Method = 'card' | 'kestrel';
const methodTabs: Record<PaymentMethod, { key: Method; label: string }> = {
  Card: { key: 'card', label: 'Cards' },
  Kestrel: { key: 'kestrel', label: 'Kestrel' },
};

/** A failed pay, for 8 seconds: the server's message, else 'An unexpected error occurred.'. */
function showLinkPayError(error: unknown): void {
  toast.error(error instanceof ApiError && error.fromServer && error.message ? error.message : m.unexpected, { duration: CARD_ERROR_TOAST_MS });
}

/**
 * The link's expiry in the visitor's locale and time zone. The platform's formatter rather
 * than the portal's date-fns one: on this small page that library would be a twentieth of
 * the download.
 */
const expiryFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeStyle: 'short' });
const expiryText = (iso: string) => expiryFormat.format(new Date(iso));

/** Only digits and one decimal point reach the amount field. */
function digitsAndOnePoint(value: string): string {
  const cleaned = value.replace(/[^\d.]/g, '');
  const point = cleaned.indexOf('.');
  return point === -1 ? cleaned : cleaned.slice(0, point + 1) + cleaned.slice(point + 1).replace(/\./g, '');
}

function Paid({ paid }: { paid: LinkPaid }) {
  return (
    <StatusCard icon="✓" tone="success" title={m.paid}>
      <p>
        You paid <span className="font-semibold text-slate-900">{formatApiMoney(paid.amount, asCurrency(paid.currency))}</span>.
      </p>
      <p className="mt-2 text-sm">
        Transaction ID <span className="font-mono break-all text-slate-900">{paid.transactionId}</span>
      </p>
    </StatusCard>
  );
}

/** Refusals that mean the link itself changed (turned off, used up, expired) while the page was open. */
const linkChangedCodes = new Set(['payment_request_disabled', 'limit_exceeded', 'payment_request_expired']);

function PayForm({ link, onPaid, onLinkChanged }: { link: PublicPaymentRequestView; onPaid: (paid: LinkPaid) => void; onLinkChanged: () => void }) {
  const currency = asCurrency(link.amount.currency);
  const fixedCents = link.amount.type === 'fixed' && link.amount.value !== null ? apiCents(link.amount.value) : undefined;
  const tabs = link.paymentMethods.map((method) => methodTabs[method]);
  // The first method the link allows is the one shown first.
  const [method, setMethod] = useState<Method>(tabs[0]?.key ?? 'card');
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);
  // Plain rules (the ones the shared form schema is built from): the pay page stays without zod.
  const form = usePlainForm(
    { amount: fixedCents === undefined ? '' : centsToDecimalString(fixedCents), email: '' },
    { amount: (value) => linkAmountProblem(value, link, currency), email: payerEmailProblem },
  );
  const typed = parseAmount(form.values.amount);
  const amountCents = fixedCents ?? (typed.ok ? typed.cents : undefined);
  const payLabel = amountCents === undefined ? 'Pay' : `Pay ${formatMoney(amountCents, currency)}`;

  /** The amount and e-mail are checked with the method's own fields; both show their messages at once. */
  const payWith = async (work: (amount: string, email: string) => Promise<LinkPaid>) => {
    // A second press while the first is on its way would be a second payment (it has its own key).
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      if (!form.validate()) return;
      const { amount, email } = form.values;
      const parsed = parseAmount(amount);
      if (!parsed.ok) return;
      onPaid(await work(centsToDecimalString(parsed.cents), email.trim()));
    } catch (error) {
      showLinkPayError(error);
      // Read the link again, so the page shows its new state instead of a form that cannot succeed.
      if (error instanceof ApiError && linkChangedCodes.has(error.code)) onLinkChanged();
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };
  const payByCard = (card: CardDetails) =>
    payWith((amount, email) =>
      payLinkByCard(link.pRequestURLId, {
        email,
        reference: link.reference,
        amount,
        type: 'card',
        brand: card.brand,
        number: card.number,
        expiresIn: card.expiresIn,
        cvc: card.cvc,
        cardHolderName: card.cardHolderName,
      }),
    );
  const payByKestrel = (auth: WalletAuth, form: { accountNumber: string; tpin: string }) =>
    payWith((amount, email) =>
      payLinkByKestrel(link.pRequestURLId, { email, reference: link.reference, amount, userId: auth.userId, accountNumber: form.accountNumber, tpin: form.tpin }, auth.token),
    );

  const minimum = link.minimumAmount === null ? undefined : formatApiMoney(link.minimumAmount, currency);
  const maximum = link.maximumAmount === null ? undefined : formatApiMoney(link.maximumAmount, currency);

  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-7">
      <header>
        <p className="text-sm text-slate-600">Payment request from</p>
        <p className="truncate text-lg font-semibold text-slate-900">{link.ownerName}</p>
        <h1 className="mt-3 text-base font-medium break-words text-slate-900">{link.paymentPurpose}</h1>
        <p className="text-sm text-slate-600">Reference {link.reference}</p>
        {fixedCents !== undefined ? (
          <p className="mt-3 text-2xl font-bold tracking-tight text-slate-900" data-testid="link-amount">
            {formatMoney(fixedCents, currency)}
          </p>
        ) : (
          minimum &&
          maximum && (
            <p className="mt-3 text-sm text-slate-700">
              Choose an amount between <span className="font-semibold">{minimum}</span> and <span className="font-semibold">{maximum}</span>.
            </p>
          )
        )}
        {link.expiresAt && <p className="mt-1 text-xs text-slate-600">Link valid until {expiryText(link.expiresAt)}</p>}
      </header>
      <div className="mt-6 space-y-4">
        {fixedCents === undefined && (
          <FloatingField label={`Amount (${currency})`} inputMode="decimal" autoComplete="off" {...form.field('amount', digitsAndOnePoint)} />
        )}
        <FloatingField label="Your email" type="email" autoComplete="email" {...form.field('email')} />
      </div>
      {/* The method's form is submitted by its own button; the amount and e-mail are checked at the same moment. */}
      <div className="mt-6" onSubmitCapture={() => form.validate()}>
        <Tabs label="Payment method" tabs={tabs} selected={method} onSelect={setMethod}>
          {method === 'card' ? (
            <CardForm payLabel={payLabel} busy={busy} onPay={payByCard} />
          ) : (
            <WalletPay amountCents={amountCents} currency={currency} payLabel={payLabel} busy={busy} onPay={payByKestrel} />
          )}
        </Tabs>
      </div>
    </section>
  );
}

/**
 * /payment-request/{pRequestURLId}: a payment link's public pay page, outside the portal shell.
 * The id comes as a prop (the route table reads it), so this page does not need the router.
 */
export function PaymentRequestPayPage({ pRequestURLId }: { pRequestURLId: string }) {
  const link = usePaymentRequestLink(pRequestURLId);
  const [paid, setPaid] = useState<LinkPaid>();
  if (link.isPending) return <FullPageSpinner label="Loading payment request" />;
  let body;
  if (paid) body = <Paid paid={paid} />;
  else if (link.isError)
    body = (
      <StatusCard icon="!" tone="danger" title={m.notFound}>
        {checkoutMessages.brokenHint}
      </StatusCard>
    );
  else if (link.data.status !== 'active')
    body = (
      <StatusCard icon="!" tone="danger" title={m.disabled}>
        {m.disabledHint}
      </StatusCard>
    );
  else if (link.data.expired)
    body = (
      <StatusCard icon="!" tone="neutral" title={m.expired}>
        {m.expiredHint}
      </StatusCard>
    );
  else if (link.data.limitReached)
    body = (
      <StatusCard icon="!" tone="danger" title={m.limitExceeded}>
        {m.limitExceededHint}
      </StatusCard>
    );
  else body = <PayForm link={link.data} onPaid={setPaid} onLinkChanged={() => void link.refetch()} />;
  return (
    <PayLayout>
      {/* React 19 hoists <title> into <head>; the portal's PageTitle would add a chunk to this small page. */}
      <title>{`${paid ? m.paid : 'Payment request'} · ${PRODUCT_NAME}`}</title>
      {body}
    </PayLayout>
  );
}
