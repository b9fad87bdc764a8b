import type { PaymentRow } from './payments.repository.ts';

/** How a payment's source is shown: a card as its first 6 and last 4 with the middle masked, a wallet as its last 4. */
export function maskedNumber(row: Pick<PaymentRow, 'paymentSourceType' | 'sourceFirst6' | 'sourceLast4' | 'sourceLength'>): string {
  if (row.paymentSourceType === 'wallet') return `****${row.sourceLast4 ?? ''}`;
  return `${row.sourceFirst6 ?? ''}${'*'.repeat(Math.max(0, (row.sourceLength ?? 16) - 10))}${row.sourceLast4 ?? ''}`;
}
