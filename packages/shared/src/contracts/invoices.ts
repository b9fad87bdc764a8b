import { z } from 'zod';
import { multiplyCents, parseAmount, type Cents } from '../money.ts';
import { withExample } from '../contract-examples.ts';

/*
 * Invoices on the data host: POST /data/v1/invoice/create and GET /data/v1/invoice/user/{userId}
 * (the spec's bodies), plus the printable view and the PDF. The server and the form use the
 * same rules and messages (document 2, section 5).
 */

export const invoiceMessages = {
  created: 'Invoice created successfully!',
  failed: 'Failed to create invoice.',
  empty: 'No invoice data found.',
  nameRequired: 'Name is required',
  phoneInvalid: 'Invalid Bangladeshi phone number',
  emailInvalid: 'Invalid email address',
  receiverRequired: 'Receiver name is required',
  unitPriceMin: 'Must be greater than 0',
  unitPriceDecimals: 'Use at most two decimals',
  quantityMin: 'Must be at least 1',
  quantityWhole: 'Quantity must be a whole number',
  quantityMax: 'Quantity is too large',
  totalTooLarge: 'The total price is too large',
  detailsRequired: 'Details are required',
  dueDateInvalid: 'Enter a valid due date',
  notFound: 'Invoice not found',
  markedPaid: 'Invoice marked as paid',
  markedUnpaid: 'Invoice marked as unpaid',
  statusFailed: 'The invoice status could not be changed.',
} as const;

/** An invoice is unpaid until its owner marks it paid (invoices have no payment path in Kestrel). */
export const INVOICE_STATUSES = ['unpaid', 'paid'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** A calendar day as YYYY-MM-DD (a real date: no 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 2000 && year <= 2100 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Bangladeshi mobile numbers: 01, then an operator digit 3–9, then 8 digits (11 in all). */
export const BANGLADESHI_MOBILE = /^01[3-9]\d{8}$/;
export const INVOICE_QUANTITY_MAX = 1_000_000;
/** A total above this (one billion dollars) is refused; it keeps every sum exact. */
export const INVOICE_TOTAL_MAX_CENTS = 100_000_000_000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const unitPriceRules = <T extends z.ZodType<string | number>>(schema: T) =>
  schema
  .refine((value) => {
    const parsed = parseAmount(value);
    return parsed.ok || parsed.reason !== 'precision';
  }, invoiceMessages.unitPriceDecimals)
  .refine((value) => {
    const parsed = parseAmount(value);
    return !parsed.ok ? parsed.reason === 'precision' : parsed.cents >= 100;
  }, invoiceMessages.unitPriceMin);
/** A unit price in major units, at least 1, at most two decimals; text or a JSON number. */
const unitPrice = unitPriceRules(z.union([z.string(), z.number()], { error: invoiceMessages.unitPriceMin }));

const quantityNumber = z.number().int(invoiceMessages.quantityWhole).min(1, invoiceMessages.quantityMin).max(INVOICE_QUANTITY_MAX, invoiceMessages.quantityMax);
/** A whole number, or its digits as text (what a form field holds). */
const quantity = z
  .preprocess((value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value), z.number({ error: invoiceMessages.quantityMin }))
  .pipe(quantityNumber);

const invoiceFields = {
  name: z.string({ error: invoiceMessages.nameRequired }).trim().min(1, invoiceMessages.nameRequired).max(100),
  phone: withExample(z.string({ error: invoiceMessages.phoneInvalid }).trim().regex(BANGLADESHI_MOBILE, invoiceMessages.phoneInvalid), '01712345678'),
  email: withExample(z.string({ error: invoiceMessages.emailInvalid }).trim().max(254).regex(EMAIL, invoiceMessages.emailInvalid), 'rahim@example.org'),
  reciver: z.string({ error: invoiceMessages.receiverRequired }).trim().min(1, invoiceMessages.receiverRequired).max(100),
  details: z.string({ error: invoiceMessages.detailsRequired }).trim().min(1, invoiceMessages.detailsRequired).max(2000),
};

/** The optional due date, YYYY-MM-DD; null or absent is none. */
const dueDate = z.string({ error: invoiceMessages.dueDateInvalid }).trim().refine(isCalendarDate, invoiceMessages.dueDateInvalid);

/** unit price × quantity in cents, or undefined past the safe integer range. */
function totalOf(unitPriceCents: Cents, quantity: number): Cents | undefined {
  return Number.isSafeInteger(quantity) && Number.isSafeInteger(unitPriceCents * quantity) ? multiplyCents(unitPriceCents, quantity) : undefined;
}

/** The exact total in cents of a unit price as typed (major units), or undefined when the inputs are not valid. */
export function invoiceTotalCents(unitPriceValue: string | number, quantityValue: number): Cents | undefined {
  const parsed = parseAmount(unitPriceValue);
  return parsed.ok ? totalOf(parsed.cents, quantityValue) : undefined;
}

/**
 * A total over INVOICE_TOTAL_MAX_CENTS, or past the safe integer range, is refused on the
 * quantity; judged when the price parses and the quantity is a whole number.
 */
const totalWithinLimit = (value: { unit_price: string | number; quantity: unknown }, ctx: z.RefinementCtx) => {
  const price = parseAmount(value.unit_price);
  if (!price.ok || typeof value.quantity !== 'number' || !Number.isSafeInteger(value.quantity)) return;
  const total = totalOf(price.cents, value.quantity);
  if (total === undefined || total > INVOICE_TOTAL_MAX_CENTS) {
    ctx.addIssue({ code: 'custom', path: ['quantity'], message: invoiceMessages.totalTooLarge });
  }
};

/** POST /data/v1/invoice/create (the spec's body; the spelling `reciver` is the spec's). */
export const createInvoiceBody = z
  .object({
    ...invoiceFields,
    unit_price: unitPrice,
    quantity,
    /** Beyond the spec's body: when the customer should pay by (optional). */
    dueDate: dueDate.nullable().optional(),
    userId: z.string().optional(),
  })
  .strict()
  .superRefine(totalWithinLimit)
  // The unit price is parsed here, once, into `Cents` (a transform runs only on a body without issues).
  .transform((value, context) => {
    const price = parseAmount(value.unit_price);
    if (!price.ok) {
      context.addIssue({ code: 'custom', path: ['unit_price'], message: invoiceMessages.unitPriceMin });
      return z.NEVER;
    }
    return { ...value, unit_price: price.cents };
  });
export type CreateInvoiceInput = z.input<typeof createInvoiceBody>;
export type CreateInvoiceBody = z.output<typeof createInvoiceBody>;

/** The '/invoice' form: every field is text. */
export const invoiceForm = z
  .object({
    ...invoiceFields,
    unit_price: unitPriceRules(z.string().trim().min(1, invoiceMessages.unitPriceMin)),
    quantity: z
      .string()
      .trim()
      .min(1, invoiceMessages.quantityMin)
      .regex(/^\d+$/, invoiceMessages.quantityWhole)
      .transform(Number)
      .pipe(quantityNumber),
    /** The date input's value: '' when no due date is chosen. */
    dueDate: z.union([z.literal(''), dueDate]),
  })
  .superRefine(totalWithinLimit);
export type InvoiceFormInput = z.input<typeof invoiceForm>;
export type InvoiceFormValues = z.output<typeof invoiceForm>;

/** An invoice as the data host answers it: the spec's fields, plus its number and exact total. */
export const invoiceView = z.object({
  _id: z.string(),
  invoiceNumber: z.number().int(),
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  reciver: z.string(),
  /** Major units (the spec's shape). */
  unit_price: z.number(),
  quantity: z.number().int(),
  /** unit_price × quantity, computed in cents. */
  totalPrice: z.number(),
  currency: z.string(),
  details: z.string(),
  userId: z.string(),
  createdAt: z.string(),
  /** YYYY-MM-DD, or null when the invoice names no due date. */
  dueDate: z.string().nullable(),
  /** unpaid until its owner marks it paid. */
  status: z.enum(INVOICE_STATUSES),
  /** When it was marked paid (ISO 8601), or null. */
  paidAt: z.string().nullable(),
});
export type InvoiceView = z.infer<typeof invoiceView>;

export const invoiceUserParams = z.object({ userId: z.string().min(1).max(100) });
export const invoiceIdParams = z.object({ id: z.string().min(1).max(100) });

/** PATCH /data/v1/invoice/status/{id}: the owner marks an invoice paid or unpaid again. */
export const updateInvoiceStatusBody = z.object({ status: z.enum(INVOICE_STATUSES, { error: 'Status must be paid or unpaid' }) }).strict();
export type UpdateInvoiceStatusBody = z.infer<typeof updateInvoiceStatusBody>;

/** One invoice for its printable view and PDF: with who issued it. */
export const invoiceDetailView = invoiceView.extend({
  issuedBy: z.object({ name: z.string(), email: z.string() }),
});
export type InvoiceDetailView = z.infer<typeof invoiceDetailView>;

/** "INV-000042": how an invoice number is printed. */
export function formatInvoiceNumber(invoiceNumber: number): string {
  return `INV-${String(invoiceNumber).padStart(6, '0')}`;
}
