import { formatDateTime, REFUND_CALLBACK_EVENT, REFUND_WINDOW_DAYS, refundCurlSnippet, SANDBOX_TEST_CARDS, formatCardNumber, type StoreView } from '@kestrel/shared';
import toast from 'react-hot-toast';
import { Button } from '../../../components/Button.tsx';
import { errorMessage } from '../../../lib/http.ts';
import { useResendDelivery, useStoreDeliveries } from '../api.ts';
import { SdkGuide } from './SdkGuide.tsx';

/**
 * A copy-paste example. On a phone the lines wrap (a curl command still pastes as one), so
 * nothing is cut off and nothing scrolls sideways; wider screens keep each line whole.
 */
function Code({ children, label }: { children: string; label: string }) {
  return (
    <pre
      aria-label={label}
      tabIndex={0}
      className="rounded-xl bg-slate-900 p-4 text-xs leading-relaxed break-all whitespace-pre-wrap text-slate-100 sm:overflow-x-auto sm:break-normal sm:whitespace-pre"
    >
      <code>{children}</code>
    </pre>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-3">
      <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
      {children}
    </section>
  );
}

const verifySnippet = `import { createHmac, timingSafeEqual } from 'node:crypto';

// header: the request's Kestrel-Signature header, "t=<unix seconds>,v1=<hex>".
// rawBody: the request body exactly as received (not re-serialised JSON).
export function verifyKestrelCallback(rawBody, header, storeKey, toleranceSeconds = 300) {
  const match = /^t=(\\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!match) return false;
  const [, timestamp, signature] = match;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const expected = createHmac('sha256', storeKey).update(\`\${timestamp}.\${rawBody}\`).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

// The browser's redirect to your callback URL carries the same fields as query
// parameters plus timestamp and signature, signed over the same JSON:
export function verifyKestrelRedirect(query, storeKey) {
  const body = JSON.stringify({
    paymentStatus: query.paymentStatus,
    tnxId: query.tnxId || null,
    currency: query.currency,
    amount: Number(query.amount),
    orderId: query.orderId,
    paymentId: query.paymentId,
  });
  return verifyKestrelCallback(body, \`t=\${query.timestamp},v1=\${query.signature}\`, storeKey);
}`;

/** What a test card does: succeeds (its refunds too, unless the card refuses them), is charged with its answer lost, or fails with its message. */
function cardResult(testCard: (typeof SANDBOX_TEST_CARDS)[number]): string {
  if (testCard.outcome === 'no_answer') return 'Charged, but the answer is lost: 502 card_processor_unavailable; reconciliation finds the charge';
  if (testCard.outcome !== 'succeeds') return `Fails: “${testCard.message}”`;
  return testCard.refund === 'refused' ? 'Succeeds; its refunds are refused (refund_declined)' : 'Succeeds';
}

function Deliveries({ storeId }: { storeId: string }) {
  const deliveries = useStoreDeliveries(storeId);
  const resend = useResendDelivery(storeId);
  if (deliveries.isPending) return <div role="status" aria-label="Loading deliveries" className="h-24 animate-pulse rounded-xl bg-slate-200/70" />;
  if (deliveries.isError)
    return (
      <p role="alert" className="text-sm text-danger-700">
        {errorMessage(deliveries.error, 'The deliveries could not be loaded.')}
      </p>
    );
  if (deliveries.data.length === 0) return <p className="text-slate-600">No callbacks yet. They appear here after a card payment.</p>;
  return (
    <ul aria-label="Callback deliveries" className="space-y-3">
      {deliveries.data.map((delivery) => {
        const last = delivery.attempts.at(-1);
        const tone = delivery.state === 'delivered' ? 'text-success-700' : delivery.state === 'failed' ? 'text-danger-700' : 'text-amber-800';
        return (
          <li key={delivery._id} className="rounded-xl border border-slate-200 bg-white p-4 text-sm">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p>
                <span className={`font-semibold ${tone}`}>{delivery.state}</span>
                <span className="text-slate-600">
                  {' '}
                  · {delivery.attempts.length} attempt{delivery.attempts.length === 1 ? '' : 's'} · queued {formatDateTime(delivery.createdAt)}
                </span>
              </p>
              <Button
                variant="secondary"
                loading={resend.isPending && resend.variables === delivery._id}
                onClick={() =>
                  resend.mutate(delivery._id, {
                    onSuccess: () => toast.success('Callback sent again'),
                    onError: (error) => toast.error(errorMessage(error, 'The callback could not be sent again')),
                  })
                }
              >
                Re-send
              </Button>
            </div>
            <p className="mt-1 font-mono text-xs break-all text-slate-700">{delivery.body}</p>
            {last && (
              <p className="mt-1 text-xs text-slate-600">
                Last attempt {formatDateTime(last.attemptedAt)}: {last.statusCode ? `HTTP ${last.statusCode}` : 'no answer'}
                {last.error ? ` — ${last.error}` : ''} ({last.durationMs} ms)
                {delivery.nextAttemptAt ? ` · next try ${formatDateTime(delivery.nextAttemptAt)}` : ''}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The Integration tab: the gateway API guide written for this store, with copy-paste examples that work as shown. */
export function IntegrationGuide({ store }: { store: StoreView }) {
  const base = window.location.origin;
  const auth = `  -H 'storeId: ${store.storeId}' \\\n  -H 'storeKey: ${store.storeKey}' \\\n  -H 'content-type: application/json' \\`;
  const order = `"orderId": "ORDER-1001", "currency": "USD", "amount": 25.5,
    "customerName": "Carol Customer", "customerEmail": "carol@example.com",
    "customerPhone": "+15550109999", "customerAddress": "1 Market Street, Springfield",
    "productName": "Bike bell", "cancelUrl": "${store.storeURL}", "valueA": "cart-42"`;
  return (
    <div className="space-y-8">
      <Section title="How it works">
        <p className="text-slate-700">
          Your server calls the gateway API at <code className="rounded bg-slate-100 px-1 break-all">{base}/v1</code> with your store's <code>storeId</code> and{' '}
          <code>storeKey</code> headers (keep the key on your server). Create a payment, send your customer to the checkout address it answers (or charge a card
          server-to-server), and Kestrel tells your callback URL <code className="break-all">{store.callbackURL}</code> about every payment, signed with your store key.
          Amounts are in US$ with at most two decimals; send an <code>Idempotency-Key</code> header to make retries safe. An <code>orderId</code> can be used once.
          The fee (2% by default) is taken from each payment; the rest lands in the account's wallet.
        </p>
      </Section>
      <SdkGuide store={store} base={base} />
      <Section title="1. Create a payment">
        <Code label="curl: create a payment">{`curl -X POST ${base}/v1/payment/web-pay \\
${auth}
  -H 'Idempotency-Key: order-1001-create' \\
  -d '{${order}}'`}</Code>
        <p className="text-sm text-slate-700">
          Answers <code>{'{ status, message, redirectUrl, data: { paymentId, urlId, ... } }'}</code>; <code>redirectUrl</code> is the hosted checkout for your customer.{' '}
          <code>POST /v1/payment/web-pay/redirect</code> takes the same body and answers a 303 redirect to it.
        </p>
      </Section>
      <Section title="2. Take a card payment">
        <p className="text-sm text-slate-700">The checkout page does this for your customer; you can also do it yourself with the paymentId from step 1:</p>
        <Code label="curl: pay a payment by card">{`curl -X POST ${base}/v1/payment/complete/PAYMENT_ID \\
  -H 'content-type: application/json' \\
  -d '{"type": "card", "number": "4242 4242 4242 4242", "expiresIn": "12/34", "cvc": "123"}'`}</Code>
        <p className="text-sm text-slate-700">Or create and charge in one server-to-server call:</p>
        <Code label="curl: direct card payment">{`curl -X POST ${base}/v1/payment/web-pay/complete/direct \\
${auth}
  -d '{"orderId": "ORDER-1002", "currency": "USD", "amount": 12.5,
    "customerName": "Carol Customer", "customerEmail": "carol@example.com",
    "customerPhone": "+15550109999", "customerAddress": "1 Market Street, Springfield",
    "productName": "Chain lube", "cancelUrl": "${store.storeURL}",
    "type": "card", "brand": "visa", "number": "4242424242424242", "expiresIn": "12/34", "cvc": "123",
    "billingInfo": {"name": "Carol Customer", "address": {"country": "US", "city": "Springfield", "zipCode": "12345"}, "phone": "+15550109999"}}'`}</Code>
        <p className="text-sm text-slate-700" data-testid="direct-decline">
          A declined card answers <code>402</code> with the reason your customer reads in <code>error</code> (and a <code>code</code>, e.g.{' '}
          <code>card_declined</code>). The payment is kept as <strong>failed</strong>: it shows as Failed in your Payments tab with the attempt in{' '}
          <code>paymentErrors</code>, and its <code>orderId</code> stays used (the same <code>orderId</code> again answers <code>409 order_id_taken</code>). To charge
          again, send a new <code>orderId</code>.
        </p>
      </Section>
      <Section title="3. Look a payment up">
        <Code label="curl: get a payment">{`curl ${base}/v1/payment/paymentId/PAYMENT_ID \\
  -H 'storeId: ${store.storeId}' \\
  -H 'storeKey: ${store.storeKey}'`}</Code>
        <p className="text-sm text-slate-700">
          Answers the payment with <code>paymentStatus</code> (<code>initiate</code> or <code>success</code>), <code>transactionId</code>, the card masked to its first 6
          and last 4 digits, and <code>paymentErrors</code> (each failed attempt).
        </p>
      </Section>
      <Section title="4. Refund a payment">
        <Code label="curl: refund a payment">{refundCurlSnippet({ baseUrl: base, storeId: store.storeId, paymentId: 'PAYMENT_ID' })}</Code>
        <p className="text-sm text-slate-700">
          Gives a successful payment&rsquo;s money back to the payer&rsquo;s card or wallet, from your account&rsquo;s balance: all of it (omit <code>amount</code>) or
          any part, several times, up to the amount paid, within {REFUND_WINDOW_DAYS} days. The fee on the refunded part comes back to you in proportion. The{' '}
          <code>Idempotency-Key</code> header is required: a retry with the same key answers the first refund. Answers the refund{' '}
          <code>{'{ refundId, amount, fee: { amount, currency }, status, createdAt, ... }'}</code>; refusals are <code>409</code> with a <code>code</code> (
          <code>refund_exceeds_remaining</code>, <code>refund_insufficient_balance</code>, <code>payment_not_refundable</code>, <code>refund_window_closed</code>) or{' '}
          <code>402 refund_declined</code> when the card network refuses it (nothing is taken). <code>GET /v1/payment/refunds/PAYMENT_ID</code> lists a payment&rsquo;s
          refunds; the payment itself gains <code>refunds</code>, <code>amountRefunded</code> and <code>refundState</code>.
        </p>
      </Section>
      <Section title="Sandbox test cards">
        <p className="text-sm text-slate-700">Any future expiry (e.g. 12/34) and any 3-digit CVC. Other card numbers are declined.</p>
        {/* Phones: one card per test card, nothing to scroll sideways; wider screens: the table. */}
        <ul aria-label="Sandbox test cards" className="space-y-2 sm:hidden">
          {SANDBOX_TEST_CARDS.map((testCard) => (
            <li key={testCard.number} className="rounded-xl border border-slate-200 bg-white p-3 text-sm">
              <p className="font-mono font-semibold text-slate-900">{formatCardNumber(testCard.number)}</p>
              <p className="text-slate-700">
                {testCard.brand} · {cardResult(testCard)}
              </p>
            </li>
          ))}
        </ul>
        <div className="hidden overflow-x-auto rounded-xl border border-slate-200 bg-white sm:block">
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs font-semibold text-slate-600 uppercase">
              <tr>
                <th scope="col" className="px-4 py-2">Card number</th>
                <th scope="col" className="px-4 py-2">Brand</th>
                <th scope="col" className="px-4 py-2">Result</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {SANDBOX_TEST_CARDS.map((testCard) => (
                <tr key={testCard.number}>
                  <td className="px-4 py-2 font-mono whitespace-nowrap">{formatCardNumber(testCard.number)}</td>
                  <td className="px-4 py-2">{testCard.brand}</td>
                  <td className="px-4 py-2">{cardResult(testCard)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>
      <Section title="Callbacks and their signature">
        <p className="text-sm text-slate-700">
          After each payment (and each failed attempt) Kestrel POSTs <code className="break-all">{'{"paymentStatus","tnxId","currency","amount","orderId","paymentId"}'}</code> as JSON to your
          callback URL with the header <code>Kestrel-Signature: t=&lt;unix seconds&gt;,v1=&lt;hex&gt;</code>, the HMAC-SHA256 of <code>timestamp.body</code> keyed with
          your store key. Answer 2xx within 10 seconds; otherwise it is retried with exponential back-off for about 3 days (redirects are not followed). Each
          refund that succeeds is POSTed the same way, signed alike, as{' '}
          <code className="break-all">{`{"event":"${REFUND_CALLBACK_EVENT}","refundId","paymentId","orderId","currency","amount","fee","amountRefunded","amountRemaining","refundStatus","tnxId","refundedAt"}`}</code>{' '}
          (<code>amount</code> is this refund; <code>amountRemaining</code> what is left to refund). Verify it in Node like this:
        </p>
        <Code label="Node: verify a callback signature">{verifySnippet}</Code>
      </Section>
      <Section title="Recent callback deliveries">
        <Deliveries storeId={store.storeId} />
      </Section>
    </div>
  );
}
