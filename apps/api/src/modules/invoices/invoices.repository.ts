import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import type { InvoicesTable } from '../../db/schema.ts';

/** An invoice row, its due date as YYYY-MM-DD text (a date column read as a Date would move with the server's time zone). */
export type InvoiceRow = Omit<Selectable<InvoicesTable>, 'dueDate'> & { dueDate: string | null };

const dueDateText = sql<string | null>`to_char(invoices.due_date, 'YYYY-MM-DD')`.as('dueDate');
/** Every column but due_date, which is read as text (dueDateText). */
const columns = [
  'id',
  'userId',
  'invoiceNumber',
  'name',
  'phone',
  'email',
  'receiverName',
  'unitPriceCents',
  'quantity',
  'totalCents',
  'currency',
  'details',
  'createdAt',
  'paidAt',
] as const;

/**
 * The user's next invoice number. The upsert locks the user's counter row until the
 * invoice's transaction ends, so two invoices created at once get consecutive numbers.
 */
export async function nextInvoiceNumber(trx: Trx, userId: string): Promise<number> {
  const row = await trx
    .insertInto('invoiceCounters')
    .values({ userId, lastNumber: 1 })
    .onConflict((oc) => oc.column('userId').doUpdateSet((eb) => ({ lastNumber: eb('invoiceCounters.lastNumber', '+', 1) })))
    .returning('lastNumber')
    .executeTakeFirstOrThrow();
  return row.lastNumber;
}

/** The user's invoices, newest first. */
export function listUserInvoices(db: Db, userId: string, limit = 1000): Promise<InvoiceRow[]> {
  return db.selectFrom('invoices').select(columns).select(dueDateText).where('userId', '=', userId).orderBy('invoiceNumber', 'desc').limit(limit).execute();
}

/** One invoice, only when it is this user's. */
export function findUserInvoice(db: Db, userId: string, id: string): Promise<InvoiceRow | undefined> {
  return db.selectFrom('invoices').select(columns).select(dueDateText).where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
}

/** Marks one of the user's invoices paid (now, unless it already is) or unpaid; undefined when it is not theirs. */
export function setInvoicePaid(db: Db | Trx, userId: string, id: string, paid: boolean): Promise<InvoiceRow | undefined> {
  return db
    .updateTable('invoices')
    .set({ paidAt: paid ? sql<Date>`coalesce(paid_at, now())` : null })
    .where('id', '=', id)
    .where('userId', '=', userId)
    .returningAll()
    .returning(dueDateText)
    .executeTakeFirst();
}

/** Inserts an invoice and answers it as read back. */
export function insertInvoice(trx: Trx, values: Insertable<InvoicesTable>): Promise<InvoiceRow> {
  return trx.insertInto('invoices').values(values).returning(columns).returning(dueDateText).executeTakeFirstOrThrow();
}
