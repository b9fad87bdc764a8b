import { storeMessages } from '@kestrel/shared';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useParams } from 'react-router';
import { ExportCsv } from '../../../components/ExportCsv.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { Tabs } from '../../../components/Tabs.tsx';
import { errorMessage, segment } from '../../../lib/http.ts';
import { useStorePaymentChart, useStorePaymentCounters, useStorePayments, type PaymentFilters } from '../../payments/api.ts';
import { PaymentCharts } from '../../payments/components/PaymentCharts.tsx';
import { PaymentFiltersForm } from '../../payments/components/PaymentFiltersForm.tsx';
import { paymentEmptyText, PaymentsList } from '../../payments/components/PaymentsList.tsx';
import { useStore } from '../api.ts';
import { IntegrationGuide } from '../components/IntegrationGuide.tsx';
import { CopyField, StoreStatusBadge } from '../components/StoreBits.tsx';
import { StoreKeyRotation } from '../components/StoreKeyRotation.tsx';
import { StorePaymentMails } from '../components/StorePaymentMails.tsx';

type TabKey = 'payments' | 'integration';
const tabs = [
  { key: 'payments', label: 'Payments' },
  { key: 'integration', label: 'Integration' },
] as const;

function StorePayments({ storeId }: { storeId: string }) {
  const [filters, setFilters] = useState<PaymentFilters>({});
  const payments = useStorePayments(storeId, filters);
  const counters = useStorePaymentCounters(storeId);
  const chart = useStorePaymentChart(storeId);
  const filtered = Boolean(filters.q || filters.status || filters.from || filters.to);
  return (
    <div className="space-y-4">
      <PaymentCharts chart={chart.data} isPending={chart.isPending} error={chart.error} />
      <div className="flex justify-end">
        <ExportCsv path={`/v1/export/store-payments/${segment(storeId)}`} filename={`payments-store-${storeId}.csv`} what="this store's payments" />
      </div>
      <PaymentsList
      payments={payments.data?.pages.flat()}
      counters={counters.data}
      paging={payments}
      filters={<PaymentFiltersForm value={filters} onChange={setFilters} />}
      isLoading={payments.isPending}
      error={payments.error}
      emptyText={filtered ? 'No payments match this search.' : paymentEmptyText.store}
      caption="Payments of this store, newest first"
      />
    </div>
  );
}

/** /payment-gateway/{storeId}: the store's credentials (copyable), its payments and its integration guide. */
export function StorePage() {
  const { storeId = '' } = useParams();
  const store = useStore(storeId);
  const [tab, setTab] = useState<TabKey>('payments');
  if (store.isPending) return <div role="status" aria-label="Loading the store" className="h-64 animate-pulse rounded-2xl bg-slate-200/70" />;
  if (store.isError)
    return (
      <p role="alert" className="rounded-lg bg-danger-50 px-4 py-3 text-sm font-medium text-danger-700">
        {errorMessage(store.error, storeMessages.notFound)}
      </p>
    );
  const data = store.data;
  return (
    <>
      <PageTitle title={data.storeName} />
      <section aria-label="Store" className="mb-6 rounded-2xl border border-slate-200 bg-white p-5 shadow-xs sm:p-6">
        <div className="flex flex-wrap items-start gap-4">
          <img src={data.storeLogo} alt={`${data.storeName} logo`} className="size-16 rounded-xl border border-slate-200 object-cover" />
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-2">
              <h1 className="min-w-0 text-2xl font-bold tracking-tight wrap-anywhere text-slate-900">{data.storeName}</h1>
              <StoreStatusBadge status={data.status} />
              <button
                type="button"
                onClick={() => toast(storeMessages.editComingSoon)}
                className="rounded-lg p-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
                aria-label="Edit store"
                title="Edit store"
              >
                <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" className="size-5" aria-hidden="true">
                  <path d="M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
              </button>
            </div>
            <p className="text-sm break-all text-slate-600">{data.storeURL}</p>
            <p className="text-sm break-all text-slate-600">Callback: {data.callbackURL}</p>
            {(data.status === 'Suspended' || data.status === 'Rejected') && data.statusReason ? (
              <p className="mt-2 text-sm font-medium text-danger-700">
                {data.status}: {data.statusReason}
              </p>
            ) : null}
          </div>
        </div>
        <dl className="mt-5 grid gap-4 lg:grid-cols-2">
          <CopyField label="Store ID" value={data.storeId} />
          <CopyField label="Store key" value={data.storeKey} secret />
        </dl>
        <StoreKeyRotation store={data} />
        <StorePaymentMails store={data} />
      </section>
      <Tabs label="Store" tabs={tabs} selected={tab} onSelect={setTab}>
        {tab === 'payments' ? <StorePayments storeId={data.storeId} /> : <IntegrationGuide store={data} />}
      </Tabs>
    </>
  );
}
