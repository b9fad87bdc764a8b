import {
  asCurrency,
  centsToDecimalString,
  checkoutMessages,
  formatMoney,
  linkAmountProblem,
  parseAmount,
  payerEmailProblem,
  linkPayMessages as m,
  payerMessages,
  PRODUCT_NAME,
  type PaymentMethod,
  type PublicPaymentRequestView,
} from '@kestrel/shared';
import { useState } from 'react';
import { CardForm, type CardDetails } from '../../../components/CardForm.tsx';
import { StatusCard } from '../../../components/StatusCard.tsx';
import { FloatingField } from '../../../components/FloatingField.tsx';
import { FullPageSpinner } from '../../../components/Spinner.tsx';
import { Tabs } from '../../../components/Tabs.tsx';
import { ApiError } from '../../../lib/http.ts';
import { usePlainForm } from '../../../lib/plain-form.ts';
import { apiCents, formatApiMoney } from '../../../lib/money.ts';
import { LocalDate } from '../components/LocalDate.tsx';
import { PayLayout } from '../components/PayLayout.tsx';
import { paidWithText, Receipt, type PaidWith } from '../components/Receipt.tsx';
import { WalletPay, type WalletAuth, type WalletPayment } from '../components/WalletPay.tsx';
import { payLinkByCard, payLinkByKestrel, usePaymentRequestLink, type LinkPaid } from '../payment-request-api.ts';
import { usePay } from '../use-pay.ts';
import { useHydrated } from '../../../lib/hydrated.ts';

type Method = 'card' | 'kestrel';
const methodTabs: Record<PaymentMethod, { key: Method; label: string }> = {
  Card: { key: 'card', label: 'Cards' },
  Kestrel: { key: 'kestrel', label: 'Kestrel' },
};

/** A paid link: the server's answer, how the payer paid and when the answer came. */
interface Paid {
  answer: LinkPaid;
  source: PaidWith;
  at: Date;
}

/** The link's receipt: the checkout's, with the purpose and reference in place of product and order. */
function LinkReceipt({ link, paid }: { link: PublicPaymentRequestView; paid: Paid }) {
  return (
    <Receipt
      amount={formatApiMoney(paid.answer.amount, asCurrency(paid.answer.currency))}
      paidAt={paid.at}
      lines={[
        { label: 'Paid to', value: link.ownerName },
        { label: 'Purpose', value: link.paymentPurpose },
        { label: 'Reference', value: link.reference, code: true },
        { label: 'Payment ID', value: paid.answer.paymentId, code: true },
        { label: 'Transaction ID', value: paid.answer.transactionId, code: true },
        { label: 'Paid with', value: paidWithText(paid.source) },
      ]}
    />
  );
}

/** Refusals that mean the link itself changed (turned off, used up, expired) while the page was open. */
const linkChangedCodes = new Set(['payment_request_disabled', 'limit_exceeded', 'payment_request_expired']);

function PayForm({ link, onPaid, onLinkChanged }: { link: PublicPaymentRequestView; onPaid: (paid: Paid) => void; onLinkChanged: () => void }) {
  const currency = asCurrency(link.amount.currency);
  const fixedCents = link.amount.type === 'fixed' && link.amount.value !== null ? apiCents(link.amount.value) : undefined;
  const tabs = link.paymentMethods.map((method) => methodTabs[method]);
  // The first method the link allows is the one shown first.
  const [method, setMethod] = useState<Method>(tabs[0]?.key ?? 'card');
  const hydrated = useHydrated();
  const { busy, pay } = usePay<Paid>({
    onPaid,
    // Read the link again, so the page shows its new state instead of a form that cannot succeed.
    onRefused: (error) => {
      if (error instanceof ApiError && linkChangedCodes.has(error.code)) onLinkChanged();
    },
  });
  // Plain rules (the ones the shared form schema is built from): the pay page stays without zod.
  // The e-mail is the card payer's: a wallet payer is known by the wallet they sign in to, so
  // the Kestrel tab asks for one e-mail only, the wallet login's (issue 20, item 8).
  const form = usePlainForm(
    { amount: fixedCents === undefined ? '' : centsToDecimalString(fixedCents), email: '' },
    { amount: (value) => linkAmountProblem(value, link, currency), email: (value) => (method === 'card' ? payerEmailProblem(value) : undefined) },
  );
  const typed = parseAmount(form.values.amount);
  const amountCents = fixedCents ?? (typed.ok ? typed.cents : undefined);
  const payLabel = amountCents === undefined ? 'Pay' : `Pay ${formatMoney(amountCents, currency)}`;

  /** The amount (and a card payer's e-mail) are checked with the method's own fields; all show their messages at once. */
  const payWith = (source: PaidWith, fallback: string, work: (amount: string, email: string) => Promise<LinkPaid>) =>
    pay(async () => {
      if (!form.validate()) return undefined;
      const parsed = parseAmount(form.values.amount);
      if (!parsed.ok) return undefined;
      const answer = await work(centsToDecimalString(parsed.cents), form.values.email.trim());
      return { answer, source, at: new Date() };
    }, fallback);
  const payByCard = async (card: CardDetails) => {
    await payWith({ type: 'card', brand: card.brand ?? '', number: card.number }, m.unexpected, (amount, email) =>
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
  };
  const payByKestrel = (auth: WalletAuth, wallet: WalletPayment) =>
    payWith({ type: 'wallet', brand: PRODUCT_NAME, number: wallet.accountNumber }, payerMessages.failed, (amount) =>
      payLinkByKestrel(
        link.pRequestURLId,
        {
          reference: link.reference,
          amount,
          userId: auth.userId,
          accountNumber: wallet.accountNumber,
          tpin: wallet.tpin,
          // Undefined until the server asked for one: then left out of the body.
          stepUpCode: wallet.stepUpCode,
        },
        auth.token,
        wallet.idempotencyKey,
      ),
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
        {link.expiresAt && (
          <p className="mt-1 text-xs text-slate-600">
            Link valid until <LocalDate value={link.expiresAt} dateStyle="long" />
          </p>
        )}
      </header>
      {fixedCents === undefined && (
        // Disabled until React runs the page, as the methods below: an amount typed into the
        // server's HTML would be reset when React takes the field over.
        <fieldset disabled={!hydrated} className="mt-6 min-w-0">
          {/* Typed as is: anything but digits and one point shows 'Use only digits!' (spec 001 §5) rather than vanishing. */}
          <FloatingField label={`Amount (${currency})`} inputMode="decimal" autoComplete="off" {...form.field('amount')} />
        </fieldset>
      )}
      {/* The method's form is submitted by its own button; the amount and e-mail are checked at the same moment. */}
      {/* Disabled until React runs the page, as on the checkout: no bare-form submission of a card. */}
      <fieldset disabled={!hydrated} className="mt-6 min-w-0" onSubmitCapture={() => form.validate()}>
        <Tabs label="Payment method" tabs={tabs} selected={method} onSelect={setMethod}>
          {method === 'card' ? (
            <CardForm payLabel={payLabel} busy={busy} onPay={payByCard}>
              <FloatingField label="Your email" type="email" autoComplete="email" {...form.field('email')} />
            </CardForm>
          ) : (
            <WalletPay amountCents={amountCents} currency={currency} payLabel={payLabel} busy={busy} onPay={payByKestrel} />
          )}
        </Tabs>
      </fieldset>
    </section>
  );
}

/**
 * /payment-request/{pRequestURLId}: a payment link's public pay page, outside the portal shell.
 * The id comes as a prop (the route table reads it), so this page does not need the router.
 */
export function PaymentRequestPayPage({ pRequestURLId }: { pRequestURLId: string }) {
  const link = usePaymentRequestLink(pRequestURLId);
  const [paid, setPaid] = useState<Paid>();
  if (link.isPending) return <FullPageSpinner label="Loading payment request" />;
  let body;
  if (paid && link.data) body = <LinkReceipt link={link.data} paid={paid} />;
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

/** The page's first read, for the server renderer and the hydrating checkout app (app/checkout-pages.ts). */
export { paymentRequestLinkQuery } from '../payment-request-api.ts';
