import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/transaction.ts';
import type { InvoicesTable } from '../../db/schema.ts';

export type InvoiceRow = Selectable<InvoicesTable>;

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
export function listUserInvoices(db: Db, userId: string, limit = 1000) {
  return db.selectFrom('invoices').selectAll().where('userId', '=', userId).orderBy('invoiceNumber', 'desc').limit(limit).execute();
}

/** One invoice, only when it is this user's. */
export function findUserInvoice(db: Db, userId: string, id: string) {
  return db.selectFrom('invoices').selectAll().where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
}
