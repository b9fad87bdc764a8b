import { uiText } from '@kestrel/shared';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { useSession } from '../../../lib/session.ts';
import { useAccountPaymentCounters, useAccountPayments } from '../api.ts';
import { paymentEmptyText, PaymentsList } from '../components/PaymentsList.tsx';

const title = uiText.nav.payments;

/** /payments: Payment History of the active account (POST /v1/payment/account). */
export function PaymentsPage() {
  const { accountEmail } = useSession();
  const payments = useAccountPayments(accountEmail);
  const counters = useAccountPaymentCounters(accountEmail);
  return (
    <>
      <PageTitle title={title} />
      <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
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
