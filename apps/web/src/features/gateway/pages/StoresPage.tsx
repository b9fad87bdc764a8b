import { formatDateTime, STORE_STATUSES, storeMessages, uiText, type StoreStatus, type StoreView } from '@kestrel/shared';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { buttonClasses } from '../../../components/Button.tsx';
import { CardIcon, CheckCircleIcon, ListIcon, WalletIcon } from '../../../components/icons.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { errorMessage } from '../../../lib/http.ts';
import { apiCents } from '../../../lib/money.ts';
import { useSession } from '../../../lib/session.ts';
import { CounterCard } from '../../../components/CounterCard.tsx';
import { refundedText } from '../../payments/components/PaymentsList.tsx';
import { useStores } from '../api.ts';
import { StoreStatusBadge } from '../components/StoreBits.tsx';

const title = uiText.nav.paymentGateway;

function StoreCard({ store }: { store: StoreView }) {
  const navigate = useNavigate();
  // Only Approved stores can be opened (the spec), by the logo or the name.
  const open = () => {
    if (store.status === 'Approved') void navigate(`/payment-gateway/${store.storeId}`);
    else toast.error(storeMessages.onlyApproved);
  };
  return (
    <li className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-xs sm:flex-row">
      <button type="button" onClick={open} className="size-20 shrink-0 overflow-hidden rounded-xl border border-slate-200 bg-slate-50" aria-label={`Open ${store.storeName}`}>
        <img src={store.storeLogo} alt="" className="size-full object-cover" />
      </button>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          {/* The name opens the store too (the logo alone was easy to miss); a store not yet Approved says why it cannot. */}
          <h2 className="text-lg font-semibold text-slate-900">
            {store.status === 'Approved' ? (
              <Link to={`/payment-gateway/${store.storeId}`} className="text-brand-800 underline-offset-2 hover:underline">
                {store.storeName}
              </Link>
            ) : (
              <button type="button" onClick={open} className="text-left hover:underline">
                {store.storeName}
              </button>
            )}
          </h2>
          <StoreStatusBadge status={store.status} />
        </div>
        <a href={store.storeURL} target="_blank" rel="noreferrer" className="text-sm break-all text-brand-700 hover:underline">
          {store.storeURL}
        </a>
        {(store.status === 'Rejected' || store.status === 'Suspended') && store.statusReason && (
          <p className="mt-1 text-sm text-danger-700">
            {store.status}: {store.statusReason}
          </p>
        )}
        <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_minmax(0,1fr)]">
          <dt className="text-slate-600">Store ID</dt>
          <dd className="font-mono break-all text-slate-900">{store.storeId}</dd>
          <dt className="text-slate-600">Account email</dt>
          <dd className="break-all text-slate-900">{store.accountEmail}</dd>
          <dt className="text-slate-600">Store key</dt>
          <dd className="font-mono break-all text-slate-900">{store.storeKey}</dd>
          <dt className="text-slate-600">Created</dt>
          <dd className="text-slate-900">{formatDateTime(store.createdAt)}</dd>
        </dl>
      </div>
    </li>
  );
}

/** /payment-gateway: the active account's stores by status (default Approved) and the account's payment counters. */
export function StoresPage() {
  const { accountEmail } = useSession();
  const stores = useStores(accountEmail);
  const [status, setStatus] = useState<StoreStatus>('Approved');
  const shown = stores.data?.stores.filter((store) => store.status === status) ?? [];
  const loading = !stores.data && !stores.isError;
  const counters = stores.data?.counters;
  return (
    <>
      <PageTitle title={title} />
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        <Link to="/payment-gateway/store/new" className={buttonClasses('primary')}>
          + New Store
        </Link>
      </div>
      <div className="mb-6 grid grid-cols-2 gap-3 xl:grid-cols-4">
        <CounterCard label="Total Payments" value={counters?.totalPayments ?? 0} icon={CardIcon} loading={loading} />
        <CounterCard label="Total Success" value={counters?.totalSuccess ?? 0} icon={CheckCircleIcon} tone="success" loading={loading} />
        <CounterCard label="Total Transactions" value={counters?.totalTransactions ?? 0} icon={ListIcon} tone="sky" loading={loading} />
        <CounterCard
          label="Total Refund"
          value={counters?.totalRefund ?? 0}
          detail={refundedText(apiCents(counters?.totalRefundAmount ?? 0))}
          icon={WalletIcon}
          tone="accent"
          loading={loading}
        />
      </div>
      <div className="mb-4 flex items-center gap-3">
        <label htmlFor="store-status" className="text-sm font-medium text-slate-700">
          Status
        </label>
        <select
          id="store-status"
          value={status}
          onChange={(event) => setStatus(event.target.value as StoreStatus)}
          className="h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900"
        >
          {STORE_STATUSES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </div>
      {stores.isError ? (
        <p role="alert" className="rounded-lg bg-danger-50 px-4 py-3 text-sm font-medium text-danger-700">
          {errorMessage(stores.error, 'The stores could not be loaded.')}
        </p>
      ) : loading ? (
        <div role="status" aria-label="Loading stores" className="h-40 animate-pulse rounded-2xl bg-slate-200/70" />
      ) : shown.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white px-4 py-12 text-center font-medium text-slate-600">
          {status === 'Approved' ? (
            <Link to="/payment-gateway/store/new" className="text-brand-800 hover:underline">
              {storeMessages.noActiveStore}
            </Link>
          ) : (
            `No ${status} stores`
          )}
        </p>
      ) : (
        <ul aria-label={`${status} stores`} className="space-y-4">
          {shown.map((store) => (
            <StoreCard key={store.storeId} store={store} />
          ))}
        </ul>
      )}
    </>
  );
}
