import { SDK_INSTALL, sdkCreateSnippet, sdkRefundSnippet, sdkVerifySnippet, type StoreView } from '@kestrel/shared';

function Snippet({ children, label }: { children: string; label: string }) {
  return (
    <pre aria-label={label} tabIndex={0} className="rounded-xl bg-slate-900 p-4 text-xs leading-relaxed break-all whitespace-pre-wrap text-slate-100 sm:overflow-x-auto sm:break-normal sm:whitespace-pre">
      <code>{children}</code>
    </pre>
  );
}

/** The Integration tab's SDK block: install, create a payment and verify the callback with this store's ids (beside the curl examples). */
export function SdkGuide({ store, base }: { store: StoreView; base: string }) {
  const values = { baseUrl: base, storeId: store.storeId, storeKey: 'process.env.KESTREL_STORE_KEY', cancelUrl: store.storeURL };
  return (
    <section className="space-y-3" aria-labelledby="sdk-guide-title">
      <h3 id="sdk-guide-title" className="text-lg font-semibold text-slate-900">
        With the SDK (@kestrel/sdk)
      </h3>
      <p className="text-sm text-slate-700">
        A typed client for Node 20+ and browsers with fetch: it sends the headers and an Idempotency-Key, retries safely and verifies callbacks. Keep the key on your
        server, e.g. <code className="break-all">KESTREL_STORE_KEY={store.storeKey}</code> in its environment.
      </p>
      <Snippet label="SDK: install">{SDK_INSTALL}</Snippet>
      <Snippet label="SDK: create a payment">{sdkCreateSnippet(values)}</Snippet>
      <Snippet label="SDK: verify a callback">{sdkVerifySnippet(values)}</Snippet>
      <Snippet label="SDK: refund a payment">{sdkRefundSnippet()}</Snippet>
    </section>
  );
}
