import { asCurrency, formatDate, formatInvoiceNumber, invoiceMessages, PRODUCT_NAME, type InvoiceStatus } from '@kestrel/shared';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useParams } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { formatApiMoney } from '../../../lib/money.ts';
import { errorMessage } from '../../../lib/http.ts';
import { BackLink } from '../../transfers/components/BackLink.tsx';
import { downloadInvoicePdf, useInvoice, useUpdateInvoiceStatus } from '../api.ts';

/**
 * Printing shows the invoice sheet alone: everything else on the page (the portal's
 * navigation, header, these buttons) is hidden, and the sheet fills the paper.
 */
const printStyles = `
@media print {
  @page { margin: 16mm; }
  body { background: #fff !important; }
  body * { visibility: hidden !important; }
  #invoice-sheet, #invoice-sheet * { visibility: visible !important; }
  #invoice-sheet { position: absolute; inset: 0 auto auto 0; width: 100%; max-width: none !important; border: 0 !important; box-shadow: none !important; }
}`;

/** Paid green, Unpaid red, in words (the colour is not the only sign). */
function InvoiceStatusBadge({ status }: { status: InvoiceStatus }) {
  const paid = status === 'paid';
  return (
    <span
      data-testid="invoice-status"
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-sm font-bold tracking-wide uppercase ring-1 ring-inset ${
        paid ? 'bg-success-50 text-success-700 ring-success-700/20' : 'bg-danger-50 text-danger-700 ring-danger-600/20'
      }`}
    >
      {paid ? 'Paid' : 'Unpaid'}
    </span>
  );
}

/** A day as YYYY-MM-DD shown like the other dates ('December 31st, 2026'), read as that day wherever the browser is. */
const formatDay = (day: string) => formatDate(`${day}T12:00:00`);

/** /invoice/:id: the printable invoice with Print and Download PDF, and the owner's paid/unpaid switch. */
export function InvoiceDetailPage() {
  const { id = '' } = useParams();
  const invoice = useInvoice(id);
  const updateStatus = useUpdateInvoiceStatus(id);
  const [downloading, setDownloading] = useState(false);

  if (invoice.isPending) {
    return (
      <div role="status" className="flex items-center justify-center gap-2 py-16 text-slate-600">
        <Spinner className="size-6 text-brand-700" /> Loading invoice…
      </div>
    );
  }
  if (invoice.isError) {
    return (
      <>
        <BackLink to="/invoice">Invoices</BackLink>
        <p role="alert" className="mt-4 rounded-2xl border border-danger-600/30 bg-danger-50 p-5 text-danger-700">
          {errorMessage(invoice.error, 'The invoice could not be loaded.')}
        </p>
      </>
    );
  }
  const data = invoice.data;
  const number = formatInvoiceNumber(data.invoiceNumber);

  const paid = data.status === 'paid';
  const toggleStatus = () =>
    updateStatus.mutate(paid ? 'unpaid' : 'paid', {
      onSuccess: (changed) => toast.success(changed.status === 'paid' ? invoiceMessages.markedPaid : invoiceMessages.markedUnpaid),
      onError: (error) => toast.error(errorMessage(error, invoiceMessages.statusFailed)),
    });

  const download = async () => {
    setDownloading(true);
    try {
      await downloadInvoicePdf(data._id, `${number}.pdf`);
    } catch (error) {
      toast.error(errorMessage(error, 'The PDF could not be downloaded.'));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <>
      <PageTitle title={`Invoice ${number}`} />
      <style>{printStyles}</style>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <BackLink to="/invoice">Invoices</BackLink>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={toggleStatus} loading={updateStatus.isPending}>
            {paid ? 'Mark as unpaid' : 'Mark as paid'}
          </Button>
          <Button variant="secondary" onClick={() => window.print()}>
            Print
          </Button>
          <Button onClick={() => void download()} loading={downloading}>
            Download PDF
          </Button>
        </div>
      </div>

      <article id="invoice-sheet" aria-label={`Invoice ${number}`} className="mt-4 max-w-3xl rounded-2xl border border-slate-200 bg-white p-4 text-slate-800 shadow-xs sm:p-10">
        <header className="flex flex-wrap items-start justify-between gap-4">
          <div className="space-y-2">
            <h1 className="text-3xl font-bold tracking-tight text-slate-900">INVOICE</h1>
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <span className="sr-only">Status: </span>
              <InvoiceStatusBadge status={data.status} />
              {paid && data.paidAt && <span className="text-slate-600">on {formatDate(data.paidAt)}</span>}
            </p>
          </div>
          <div className="text-sm sm:text-right">
            <p className="font-semibold text-slate-900">{number}</p>
            <p>Date: {formatDate(data.createdAt)}</p>
            {data.dueDate && <p className="font-semibold text-slate-900">Due date: {formatDay(data.dueDate)}</p>}
          </div>
        </header>
        <div className="mt-8 grid gap-6 text-sm sm:grid-cols-2">
          <section>
            <h2 className="font-semibold text-slate-900">From</h2>
            <p>{data.issuedBy.name}</p>
            <p className="break-all">{data.issuedBy.email}</p>
            <p className="text-slate-500">via {PRODUCT_NAME}</p>
          </section>
          <section>
            <h2 className="font-semibold text-slate-900">Billed to (customer)</h2>
            <p>{data.name}</p>
            <p className="tabular-nums">{data.phone}</p>
            <p className="break-all">{data.email}</p>
          </section>
          <section>
            <h2 className="font-semibold text-slate-900">Receiver (receives the goods or service)</h2>
            <p>{data.reciver}</p>
          </section>
        </div>
        {/* On a narrow phone the table may scroll sideways: the region takes focus, so the keyboard can scroll it too. */}
        <div className="mt-8 overflow-x-auto" tabIndex={0} role="region" aria-label="Invoice items">
          <table className="w-full text-left text-xs sm:text-sm">
            <thead className="border-b border-slate-300 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
              <tr>
                <th scope="col" className="px-1.5 py-2 sm:px-3">
                  Details
                </th>
                <th scope="col" className="px-1.5 py-2 sm:px-3 text-right">
                  Quantity
                </th>
                <th scope="col" className="px-1.5 py-2 sm:px-3 text-right">
                  Unit Price
                </th>
                <th scope="col" className="px-1.5 py-2 sm:px-3 text-right">
                  Total Price
                </th>
              </tr>
            </thead>
            <tbody>
              <tr className="border-b border-slate-200">
                <td className="px-1.5 py-3 sm:px-3">{data.details}</td>
                <td className="px-1.5 py-3 sm:px-3 text-right tabular-nums">{data.quantity}</td>
                <td className="px-1.5 py-3 sm:px-3 text-right whitespace-nowrap tabular-nums">{formatApiMoney(data.unit_price, asCurrency(data.currency))}</td>
                <td className="px-1.5 py-3 sm:px-3 text-right whitespace-nowrap tabular-nums">{formatApiMoney(data.totalPrice, asCurrency(data.currency))}</td>
              </tr>
            </tbody>
          </table>
        </div>
        <p className="mt-6 text-right text-lg font-bold text-slate-900">{paid ? 'Total paid' : 'Total due'}: {formatApiMoney(data.totalPrice, asCurrency(data.currency))}</p>
      </article>
    </>
  );
}
