import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt } from './columns.ts';

// Bank withdrawals and invoices (with their per-account counters). Part of the Database
// type in ../schema.ts.

export interface BankWithdrawalsTable {
  id: Generated<string>;
  accountId: string;
  requestedBy: string;
  currency: string;
  amountCents: number;
  status: ColumnType<'Pending' | 'Processing' | 'Completed' | 'Failed' | 'Cancelled', 'Pending' | 'Processing' | 'Completed' | 'Failed' | 'Cancelled' | undefined>;
  country: string;
  bankName: string;
  branchName: string | null;
  accountType: string | null;
  bankAccountNumber: string;
  routingNumber: string;
  accountHolderName: string;
  failureReason: string | null;
  holdTransactionId: number;
  returnTransactionId: number | null;
  createdAt: CreatedAt;
  updatedAt: CreatedAt;
}

export interface InvoiceCountersTable {
  userId: string;
  lastNumber: number;
}

export interface InvoicesTable {
  id: Generated<string>;
  userId: string;
  invoiceNumber: number;
  name: string;
  phone: string;
  email: string;
  receiverName: string;
  unitPriceCents: number;
  quantity: number;
  totalCents: number;
  currency: ColumnType<string, string | undefined, string>;
  details: string;
  createdAt: CreatedAt;
  /** A calendar day; read it as text (to_char), never as a Date in the server's time zone. */
  dueDate: ColumnType<Date | null, string | null | undefined, string | null>;
  paidAt: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface WithdrawalInvoiceTables {
  bankWithdrawals: BankWithdrawalsTable;
  invoiceCounters: InvoiceCountersTable;
  invoices: InvoicesTable;
}
