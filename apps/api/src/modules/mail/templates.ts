import { htmlEscape } from 'escape-goat';
import type { MailMessage } from './mailer.ts';
import type { SmsMessage } from './sms.ts';

/*
 * The mails (and SMS) Kestrel writes, from one description per notice: a plain-text part and
 * an HTML part that say the same thing, and the SMS line. The HTML is a simple table layout
 * with inline styles and no external images, which mail clients render alike. Every value is
 * escaped by escape-goat on its way into the HTML (README, "The e-mails Kestrel sends").
 */

/** HTML that is already safe (made by `html`): passed through, never escaped again. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = string | number | SafeHtml | null | undefined | false | readonly HtmlValue[];

function part(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(part).join('');
  return htmlEscape(String(value as string | number));
}

/** A tagged template whose interpolations are escaped (strings, numbers) or trusted (`SafeHtml`). */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += part(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}

export interface NoticeDetail {
  label: string;
  value: string;
}

/** What a notice says, whatever it is sent as. Every string is plain text (never HTML). */
export interface Notice {
  subject: string;
  /** The heading, and the line mail clients show beside the subject. */
  headline: string;
  /** Whom it greets ("Hello Ana Silva,"); a generic greeting when the name is unknown. */
  name?: string | null | undefined;
  /** Paragraphs before the details. */
  intro: string[];
  details?: NoticeDetail[];
  action?: { label: string; url: string } | undefined;
  /** Paragraphs after the details (what to do if this was not you). */
  outro?: string[];
  /** Why the reader gets this. */
  footer: string;
  /** The SMS text, for a reader who asked for SMS (one or two short sentences). */
  sms?: string;
}

/** Where a mail came from: the notice's name and the event that wrote it (one per event and name). */
export interface NoticeTag {
  template: string;
  eventId?: number | undefined;
}

const FONT = "font-family:Arial,'Helvetica Neue',Helvetica,sans-serif";
const BRAND = '#1d7870';
const INK = '#0f172a';
const MUTED = '#475569';

function greeting(name: string | null | undefined): string {
  return name ? `Hello ${name},` : 'Hello,';
}

/** The plain-text part: the same words, details as "Label: value" lines. */
export function noticeText(notice: Notice): string {
  const lines: string[] = [greeting(notice.name), '', notice.headline, ''];
  for (const paragraph of notice.intro) lines.push(paragraph, '');
  if (notice.details?.length) {
    for (const detail of notice.details) lines.push(`${detail.label}: ${detail.value}`);
    lines.push('');
  }
  if (notice.action) lines.push(`${notice.action.label}: ${notice.action.url}`, '');
  for (const paragraph of notice.outro ?? []) lines.push(paragraph, '');
  lines.push('Kestrel', '', '--', notice.footer);
  return lines.join('\n');
}

/** The HTML part: a centred 560 px card of nested tables with inline styles. */
export function noticeHtml(notice: Notice): string {
  const paragraph = (text: string) => html`<p style="margin:0 0 16px;${FONT};font-size:16px;line-height:24px;color:${INK}">${text}</p>`;
  const details = notice.details?.length
    ? html`<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 20px;border-collapse:collapse;border:1px solid #e2e8f0;border-radius:8px">
${notice.details.map(
  (detail, index) =>
    html`<tr><td style="padding:10px 14px;${index ? 'border-top:1px solid #e2e8f0;' : ''}${FONT};font-size:14px;line-height:20px;color:${MUTED};width:40%;vertical-align:top">${detail.label}</td><td style="padding:10px 14px;${index ? 'border-top:1px solid #e2e8f0;' : ''}${FONT};font-size:14px;line-height:20px;color:${INK};font-weight:bold;word-break:break-word">${detail.value}</td></tr>
`,
)}</table>`
    : null;
  const action = notice.action
    ? html`<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 20px"><tr><td style="border-radius:8px;background:${BRAND}"><a href="${notice.action.url}" style="display:inline-block;padding:12px 20px;${FONT};font-size:16px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:8px">${notice.action.label}</a></td></tr></table>`
    : null;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${notice.subject}</title>
</head>
<body style="margin:0;padding:0;background:#f1f5f9">
<div style="display:none;max-height:0;overflow:hidden;opacity:0">${notice.headline}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f1f5f9">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px">
<tr><td style="padding:18px 24px;background:${BRAND};border-radius:12px 12px 0 0;${FONT};font-size:20px;font-weight:bold;color:#ffffff">Kestrel</td></tr>
<tr><td style="padding:24px">
${paragraph(greeting(notice.name))}
<h1 style="margin:0 0 16px;${FONT};font-size:22px;line-height:28px;color:${INK}">${notice.headline}</h1>
${notice.intro.map(paragraph)}
${details}
${action}
${(notice.outro ?? []).map(paragraph)}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e2e8f0;${FONT};font-size:12px;line-height:18px;color:${MUTED}">${notice.footer}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`.value;
}

/** The mail of a notice: subject, plain text and HTML, to one address. */
export function noticeMail(to: string, notice: Notice, tag?: NoticeTag): MailMessage {
  return { to, subject: notice.subject, text: noticeText(notice), html: noticeHtml(notice), ...(tag ? { template: tag.template, eventId: tag.eventId } : {}) };
}

/** The SMS of a notice, to one phone number: its SMS line (or its headline) after "Kestrel:". */
export function noticeSms(to: string, notice: Notice, tag?: NoticeTag): SmsMessage {
  return { to, title: notice.subject, text: `Kestrel: ${notice.sms ?? notice.headline}`, ...(tag ? { template: tag.template, eventId: tag.eventId } : {}) };
}

/** Dates in mails: one time zone for every reader, named ("May 12, 2026 at 2:03 PM UTC"). */
const mailDate = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', dateStyle: 'long', timeStyle: 'short' });
export function formatMailDate(value: Date | string): string {
  return `${mailDate.format(new Date(value))} UTC`;
}

/** A card as a receipt shows it: brand and last four digits only ("Visa •••• 4242"). */
export function maskedCard(brand: string | null | undefined, last4: string | null | undefined): string {
  const names: Record<string, string> = { visa: 'Visa', masterCard: 'Mastercard' };
  const shown = brand ? (names[brand] ?? brand) : 'Card';
  return last4 ? `${shown} •••• ${last4}` : shown;
}

/** A wallet as a receipt shows it: the last four digits of its account number. */
export function maskedWallet(last4: string | null | undefined): string {
  return last4 ? `Kestrel wallet •••• ${last4}` : 'Kestrel wallet';
}
