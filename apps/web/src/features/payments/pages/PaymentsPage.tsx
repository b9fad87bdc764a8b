import { uiText } from '@kestrel/shared';
import { ExportCsv } from '../../../components/ExportCsv.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { segment } from '../../../lib/http.ts';
import { useSession } from '../../../lib/session.ts';
import { useAccountPaymentCounters, useAccountPayments } from '../api.ts';
import { paymentEmptyText, PaymentsList } from '../components/PaymentsList.tsx';

const title = uiText.nav.payments;

/** /payments: Payment History of the active account (POST /v1/payment/account). */
export function PaymentsPage() {
  const { accountEmail, accountNumber } = useSession();
  const payments = useAccountPayments(accountEmail);
  const counters = useAccountPaymentCounters(accountEmail);
  return (
    <>
      <PageTitle title={title} />
      <div className="mb-6 flex flex-wrap items-start justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        {accountNumber && (
          <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row">
            <ExportCsv path={`/v1/export/payments/${segment(accountNumber)}`} filename={`payments-${accountNumber}.csv`} what="payments" />
            <ExportCsv path={`/v1/export/refunds/${segment(accountNumber)}`} filename={`refunds-${accountNumber}.csv`} what="refunds" label="Export refunds CSV" />
          </div>
        )}
      </div>
      <PaymentsList
        payments={payments.data?.pages.flat()}
        counters={counters.data}
        paging={payments}
        isLoading={payments.isPending}
        error={payments.error}
        emptyText={paymentEmptyText.account}
        caption="Payments into the active account, newest first"
      />
    </>
  );
}
