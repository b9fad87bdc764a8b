import { asCents, asCurrency, formatInvoiceNumber, formatMoney, PRODUCT_NAME, type InvoiceDetailView } from '@kestrel/shared';
import PDFDocument from 'pdfkit';

/**
 * The invoice as an A4 PDF, drawn with pdfkit's built-in Helvetica. Those fonts cover Latin
 * text only (WinAnsi); characters outside it are replaced, so an invoice with, say, Bengali
 * names prints them as '?' in the PDF (the printable page shows them correctly).
 */
export function renderInvoicePdf(invoice: InvoiceDetailView, amounts: { unitPriceCents: number; totalCents: number }): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `Invoice ${formatInvoiceNumber(invoice.invoiceNumber)}`, Author: invoice.issuedBy.name, Creator: PRODUCT_NAME },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;

  doc.font('Helvetica-Bold').fontSize(22).fillColor('#0f172a').text('INVOICE', left, 56);
  doc.font('Helvetica').fontSize(10).fillColor('#475569');
  doc.text(formatInvoiceNumber(invoice.invoiceNumber), left, 60, { width, align: 'right' });
  doc.text(`Date: ${invoice.createdAt.slice(0, 10)}`, left, 74, { width, align: 'right' });
  if (invoice.dueDate) doc.text(`Due date: ${invoice.dueDate}`, left, 88, { width, align: 'right' });
  // Paid or unpaid, as its owner last marked it: green or red, in words (colour is not the only sign).
  const paid = invoice.status === 'paid';
  doc.font('Helvetica-Bold').fontSize(11).fillColor(paid ? '#15803d' : '#b91c1c');
  doc.text(paid ? `PAID${invoice.paidAt ? ` on ${invoice.paidAt.slice(0, 10)}` : ''}` : 'UNPAID', left, 84, { width: width / 2, align: 'left' });

  const top = 120;
  doc.font('Helvetica-Bold').fontSize(10).fillColor('#0f172a').text('From', left, top);
  doc.font('Helvetica').fillColor('#334155').text(invoice.issuedBy.name).text(invoice.issuedBy.email).text(`via ${PRODUCT_NAME}`);
  const half = left + width / 2;
  doc.font('Helvetica-Bold').fillColor('#0f172a').text('Billed to (customer)', half, top);
  doc.font('Helvetica').fillColor('#334155').text(invoice.name, half).text(invoice.phone, half).text(invoice.email, half).text(`Receiver (receives the goods or service): ${invoice.reciver}`, half);

  const tableTop = 230;
  const columns = [
    { label: 'Details', x: left, w: width * 0.46, align: 'left' as const },
    { label: 'Quantity', x: left + width * 0.46, w: width * 0.14, align: 'right' as const },
    { label: 'Unit Price', x: left + width * 0.6, w: width * 0.2, align: 'right' as const },
    { label: 'Total Price', x: left + width * 0.8, w: width * 0.2, align: 'right' as const },
  ];
  doc.rect(left, tableTop - 6, width, 22).fill('#f1f5f9');
  doc.font('Helvetica-Bold').fontSize(10).fillColor('#0f172a');
  for (const column of columns) doc.text(column.label, column.x + 4, tableTop, { width: column.w - 8, align: column.align });
  const rowTop = tableTop + 26;
  doc.font('Helvetica').fillColor('#334155');
  const values = [invoice.details, String(invoice.quantity), formatMoney(asCents(amounts.unitPriceCents), asCurrency(invoice.currency)), formatMoney(asCents(amounts.totalCents), asCurrency(invoice.currency))];
  let rowHeight = 14;
  columns.forEach((column, i) => {
    const value = values[i] ?? '';
    doc.text(value, column.x + 4, rowTop, { width: column.w - 8, align: column.align });
    // Long details wrap onto several lines; the rule goes under the tallest cell.
    rowHeight = Math.max(rowHeight, doc.heightOfString(value, { width: column.w - 8 }));
  });
  const afterRow = rowTop + rowHeight + 10;
  doc.moveTo(left, afterRow).lineTo(left + width, afterRow).strokeColor('#cbd5e1').stroke();
  doc.font('Helvetica-Bold').fontSize(12).fillColor('#0f172a').text(`${paid ? 'Total paid' : 'Total due'}: ${formatMoney(asCents(amounts.totalCents), asCurrency(invoice.currency))}`, left, afterRow + 12, { width, align: 'right' });

  doc.end();
  return done;
}
