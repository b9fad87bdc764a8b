import { asCurrency, formatInvoiceNumber, invoiceMessages, uiText } from '@kestrel/shared';
import { Link } from 'react-router';
import { InvoiceIcon } from '../../../components/icons.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { formatApiMoney } from '../../../lib/money.ts';
import { useSession } from '../../../lib/session.ts';
import { useInvoices, type Invoice } from '../api.ts';
import { InvoiceForm } from '../components/InvoiceForm.tsx';
import { DataTable } from '../../../components/DataTable.tsx';
import { ListLoadError } from '../../../components/ListStates.tsx';

const columns = ['SI', 'Name', 'Phone', 'Email', 'Details', 'Quantity', 'Unit Price', 'Total Price'] as const;
const numeric = new Set<string>(['Quantity', 'Unit Price', 'Total Price']);

function InvoiceLink({ invoice }: { invoice: Invoice }) {
  return (
    <Link to={`/invoice/${invoice._id}`} className="font-semibold text-brand-700 hover:underline" aria-label={`Invoice ${formatInvoiceNumber(invoice.invoiceNumber)}`}>
      {invoice.invoiceNumber}
    </Link>
  );
}

function InvoicesTable({ invoices }: { invoices: readonly Invoice[] }) {
  return (
    <DataTable caption="Your invoices, newest first" columns={columns} alignRight={numeric}>
      {invoices.map((invoice) => (
        <tr key={invoice._id} className="hover:bg-slate-50">
          <td className="px-4 py-3">
            <InvoiceLink invoice={invoice} />
          </td>
          <td className="px-4 py-3 font-medium text-slate-900">{invoice.name}</td>
          <td className="px-4 py-3 whitespace-nowrap text-slate-700 tabular-nums">{invoice.phone}</td>
          <td className="px-4 py-3 break-all text-slate-700">{invoice.email}</td>
          <td className="px-4 py-3 text-slate-700">{invoice.details}</td>
          <td className="px-4 py-3 text-right text-slate-700 tabular-nums">{invoice.quantity}</td>
          <td className="px-4 py-3 text-right whitespace-nowrap text-slate-700 tabular-nums">{formatApiMoney(invoice.unit_price, asCurrency(invoice.currency))}</td>
          <td className="px-4 py-3 text-right font-semibold whitespace-nowrap text-slate-900 tabular-nums">{formatApiMoney(invoice.totalPrice, asCurrency(invoice.currency))}</td>
        </tr>
      ))}
    </DataTable>
  );
}

function InvoiceCards({ invoices }: { invoices: readonly Invoice[] }) {
  return (
    <ul aria-label="Invoices" className="space-y-3 md:hidden">
      {invoices.map((invoice) => (
        <li key={invoice._id} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-xs">
          <div className="flex items-start justify-between gap-3">
            <p className="font-semibold text-slate-900">
              <span className="text-slate-500">SI </span>
              <InvoiceLink invoice={invoice} /> · {invoice.name}
            </p>
            <p className="font-bold whitespace-nowrap text-slate-900 tabular-nums">{formatApiMoney(invoice.totalPrice, asCurrency(invoice.currency))}</p>
          </div>
          <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">Phone</dt>
            <dd className="text-slate-900 tabular-nums">{invoice.phone}</dd>
            <dt className="text-slate-600">Email</dt>
            <dd className="break-all text-slate-900">{invoice.email}</dd>
            <dt className="text-slate-600">Details</dt>
            <dd className="text-slate-900">{invoice.details}</dd>
            <dt className="text-slate-600">Quantity</dt>
            <dd className="text-slate-900 tabular-nums">{invoice.quantity}</dd>
            <dt className="text-slate-600">Unit Price</dt>
            <dd className="text-slate-900 tabular-nums">{formatApiMoney(invoice.unit_price, asCurrency(invoice.currency))}</dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}

/** /invoice: the create form and the user's invoices. */
export function InvoicesPage() {
  const title = uiText.nav.invoice;
  const { userId } = useSession();
  const invoices = useInvoices(userId);
  const list = invoices.data ?? [];

  let body;
  if (!userId || (invoices.isPending && invoices.fetchStatus !== 'idle')) {
    body = <div role="status" aria-label="Loading invoices" className="h-24 animate-pulse rounded-2xl bg-slate-200/70" />;
  } else if (invoices.isError && !invoices.data) {
    body = <ListLoadError query={invoices} fallback="The invoices could not be loaded." />;
  } else if (list.length === 0) {
    body = (
      <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-500">
          <InvoiceIcon className="size-6" />
        </span>
        <p className="font-semibold text-slate-800">{invoiceMessages.empty}</p>
      </div>
    );
  } else {
    body = (
      <>
        <InvoicesTable invoices={list} />
        <InvoiceCards invoices={list} />
      </>
    );
  }

  return (
    <>
      <PageTitle title={title} />
      <div className="mb-6">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        <p className="mt-1 text-slate-600">Bill your customers: create an invoice, then print it or download it as a PDF.</p>
      </div>
      <InvoiceForm />
      <h2 className="mt-8 mb-3 text-lg font-semibold text-slate-900">Your invoices</h2>
      {body}
    </>
  );
}
