import { asCents, asCurrency, formatMoney, formatMonth, PRODUCT_NAME, type AccountStatement } from '@kestrel/shared';
import PDFDocument from 'pdfkit';
import { fontFaces, fontRuns, type FontWeight } from './statement-fonts.ts';

/*
 * The monthly statement as an A4 PDF (pdfkit, as the invoices): the holder, the UTC month,
 * opening balance, money in and out, closing balance, then every movement with its fee, what it
 * did to the account and the running balance. Text is drawn in Noto (statement-fonts.ts), so
 * names in Bengali, Cyrillic or Greek print as written.
 */

/** '2026-10-05 09:30' of a sealed record's UTC time. */
const utcMinute = (createdAt: string) => `${createdAt.slice(0, 10)} ${createdAt.slice(11, 16)}`;

interface TextOptions {
  width: number;
  align?: 'left' | 'right';
  weight?: FontWeight;
  size?: number;
  color?: string;
}

export function renderStatementPdf(statement: AccountStatement): Promise<Buffer> {
  const title = `${PRODUCT_NAME} statement ${statement.accountNumber} ${statement.month}`;
  const doc = new PDFDocument({ size: 'A4', margin: 40, bufferPages: true, info: { Title: title, Author: PRODUCT_NAME, Creator: PRODUCT_NAME } });
  for (const weight of [400, 700] as const) for (const face of fontFaces(weight)) doc.registerFont(face.name, face.file);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const currency = asCurrency(statement.currency);
  const money = (cents: string) => formatMoney(asCents(cents), currency);
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const bottom = doc.page.height - doc.page.margins.bottom - 24;

  /** Draws `text` at (x, y) in runs of the faces that cover it; answers its height. */
  const write = (text: string, x: number, y: number, options: TextOptions): number => {
    const weight = options.weight ?? 400;
    doc.fontSize(options.size ?? 9).fillColor(options.color ?? '#334155');
    const runs = fontRuns(text || ' ', weight);
    doc.font(runs[0]!.face);
    const height = doc.heightOfString(text || ' ', { width: options.width });
    // Faces differ in ascent (Bengali's is taller), so runs share the alphabetic baseline, set
    // from the first (Latin) face's ascent; otherwise a name's Bengali part would sit higher.
    const baselineY = y + (doc.currentLineHeight() * 0.8);
    runs.forEach((run, index) => {
      const more = index < runs.length - 1;
      doc.font(run.face);
      if (index === 0) doc.text(run.text, x, baselineY, { width: options.width, align: options.align ?? 'left', continued: more, baseline: 'alphabetic' });
      else doc.text(run.text, { continued: more, baseline: 'alphabetic' });
    });
    return height;
  };

  write(`${PRODUCT_NAME} — Account statement`, left, 40, { width, weight: 700, size: 18, color: '#0f172a' });
  write(`${formatMonth(statement.month)} (UTC)${statement.complete ? '' : ' — so far'}`, left, 66, { width, weight: 700, size: 12, color: '#0f172a' });
  write(statement.accountHolderName, left, 92, { width: width / 2, weight: 700, size: 10, color: '#0f172a' });
  write(`Account ${statement.accountNumber} · ${statement.currency}`, left, 108, { width: width / 2 });
  const period = statement.complete
    ? `${statement.periodStart.slice(0, 10)} 00:00 to ${statement.periodEnd.slice(0, 10)} 00:00 UTC`
    : `${statement.periodStart.slice(0, 10)} 00:00 UTC to ${utcMinute(statement.generatedAt)} UTC (the month so far)`;
  write(period, left + width / 2, 92, { width: width / 2, align: 'right' });
  write(`Issued ${utcMinute(statement.generatedAt)} UTC`, left + width / 2, 108, { width: width / 2, align: 'right' });

  const moneyIn = statement.movements.reduce((sum, movement) => (BigInt(movement.netCents) > 0n ? sum + BigInt(movement.netCents) : sum), 0n);
  const moneyOut = statement.movements.reduce((sum, movement) => (BigInt(movement.netCents) < 0n ? sum - BigInt(movement.netCents) : sum), 0n);
  const summary: [string, string][] = [
    ['Opening balance', money(statement.openingBalanceCents)],
    ['Money in', money(moneyIn.toString())],
    ['Money out', money(moneyOut.toString())],
    ['Closing balance', money(statement.closingBalanceCents)],
  ];
  const cell = width / summary.length;
  doc.rect(left, 134, width, 42).fill('#f1f5f9');
  summary.forEach(([label, value], index) => {
    write(label, left + index * cell + 8, 141, { width: cell - 16, size: 8, color: '#475569' });
    write(value, left + index * cell + 8, 154, { width: cell - 16, weight: 700, size: 11, color: '#0f172a' });
  });

  const columns = [
    { label: 'Date (UTC)', w: 0.14, align: 'left' as const },
    { label: 'Description', w: 0.25, align: 'left' as const },
    { label: 'Transaction ID', w: 0.17, align: 'left' as const },
    { label: 'Amount', w: 0.11, align: 'right' as const },
    { label: 'Fee', w: 0.09, align: 'right' as const },
    { label: 'In / out', w: 0.12, align: 'right' as const },
    { label: 'Balance', w: 0.12, align: 'right' as const },
  ].reduce<{ label: string; x: number; w: number; align: 'left' | 'right' }[]>((placed, column) => {
    const x = placed.length ? placed.at(-1)!.x + placed.at(-1)!.w : left;
    return [...placed, { ...column, x, w: column.w * width }];
  }, []);
  const header = (top: number) => {
    doc.rect(left, top - 4, width, 18).fill('#e2e8f0');
    for (const column of columns) write(column.label, column.x + 3, top, { width: column.w - 6, align: column.align, weight: 700, size: 8, color: '#0f172a' });
    return top + 20;
  };
  let y = header(196);
  const row = (values: string[]) => {
    const heights = values.map((value, index) => doc.fontSize(8).font(fontRuns(value || ' ', 400)[0]!.face).heightOfString(value || ' ', { width: columns[index]!.w - 6 }));
    const height = Math.max(12, ...heights);
    if (y + height > bottom) {
      doc.addPage();
      y = header(doc.page.margins.top);
    }
    values.forEach((value, index) => write(value, columns[index]!.x + 3, y, { width: columns[index]!.w - 6, align: columns[index]!.align, size: 8 }));
    y += height + 4;
    doc.moveTo(left, y - 2).lineTo(left + width, y - 2).lineWidth(0.5).strokeColor('#e2e8f0').stroke();
  };
  row([statement.periodStart.slice(0, 10), 'Opening balance', '', '', '', '', money(statement.openingBalanceCents)]);
  for (const movement of statement.movements) {
    const net = BigInt(movement.netCents);
    row([
      utcMinute(movement.createdAt),
      movement.transactionFor,
      movement.transactionId,
      money(movement.amountCents),
      movement.feeCents === '0' ? '—' : money(movement.feeCents),
      `${net > 0n ? '+' : '−'}${money((net < 0n ? -net : net).toString())}`,
      money(movement.balanceAfterCents),
    ]);
  }
  if (statement.movements.length === 0) row(['', 'No movements this month', '', '', '', '', '']);
  row([statement.complete ? statement.periodEnd.slice(0, 10) : statement.generatedAt.slice(0, 10), 'Closing balance', '', '', '', '', money(statement.closingBalanceCents)]);

  const pages = doc.bufferedPageRange();
  for (let index = 0; index < pages.count; index += 1) {
    doc.switchToPage(pages.start + index);
    // Drawing below the bottom margin would start a new page; the footer sits inside it.
    const footerY = doc.page.height - doc.page.margins.bottom - 14;
    write(
      `In / out: what the transaction did to this account. Check the JSON statement: npm run ledger:prove -- --statement. Page ${index + 1} of ${pages.count}`,
      left,
      footerY,
      { width, size: 7, color: '#64748b' },
    );
  }
  doc.end();
  return done;
}
