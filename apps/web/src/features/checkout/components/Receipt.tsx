import { checkoutMessages } from '@kestrel/shared';
import type { ReactNode } from 'react';
import { Button, buttonClasses } from '../../../components/Button.tsx';
import { LocalDate } from './LocalDate.tsx';

/** How the payer paid, as the receipt shows it: the brand and the last 4 digits, never more. */
export interface PaidWith {
  type: string;
  brand: string;
  /** A masked (or the payer's own) number: only its last 4 digits are shown. */
  number: string;
}

const brandNames: Record<string, string> = { visa: 'Visa', masterCard: 'Mastercard' };

export function paidWithText(source: PaidWith): string {
  const last4 = source.number.replace(/\D/g, '').slice(-4);
  const name = source.type === 'wallet' ? `${source.brand} wallet` : (brandNames[source.brand] ?? 'Card');
  return last4 ? `${name} ending ${last4}` : name;
}

export interface ReceiptLine {
  label: string;
  value: ReactNode;
  /** Ids and numbers in a monospaced face that wraps anywhere. */
  code?: boolean;
}

/**
 * A paid payment's receipt (issue 20): the amount, then one line each for who was paid, what
 * for, the ids a support desk asks for, how and when; "Print" prints only the receipt card
 * (the pay page's buttons and footer are hidden in print), and "Return to the store" is shown
 * when there is a store to return to.
 */
export function Receipt({ amount, lines, paidAt, returnUrl }: { amount: string; lines: ReceiptLine[]; paidAt: string | Date | null; returnUrl?: string | null }) {
  // The payer's local date and time (the server renders UTC until the page hydrates).
  const all: ReceiptLine[] = paidAt === null ? lines : [...lines, { label: 'Date', value: <LocalDate value={paidAt} /> }];
  return (
    <section aria-labelledby="receipt-title" className="w-full rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 print:border-0 print:shadow-none">
      <div className="text-center">
        <div aria-hidden="true" className="mx-auto flex size-14 items-center justify-center rounded-full bg-success-50 text-3xl text-success-700">
          ✓
        </div>
        <h1 id="receipt-title" className="mt-5 text-2xl font-bold tracking-tight text-slate-900">
          {checkoutMessages.paid}
        </h1>
        <p className="mt-2 text-3xl font-bold tracking-tight text-slate-900" data-testid="receipt-amount">
          {amount}
        </p>
      </div>
      <dl className="mt-6 divide-y divide-slate-100 border-y border-slate-100 text-sm">
        {all.map((line) => (
          <div key={line.label} className="flex flex-col gap-0.5 py-2.5 sm:flex-row sm:justify-between sm:gap-4">
            <dt className="shrink-0 text-slate-600">{line.label}</dt>
            <dd className={`min-w-0 font-medium text-slate-900 sm:text-right ${line.code ? 'font-mono break-all' : 'break-words'}`}>{line.value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center print:hidden">
        <Button variant="secondary" size="lg" onClick={() => window.print()}>
          Print
        </Button>
        {returnUrl && (
          <a className={buttonClasses('primary', 'lg')} href={returnUrl}>
            Return to the store
          </a>
        )}
      </div>
    </section>
  );
}
