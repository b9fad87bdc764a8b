import { describe, expect, it } from 'vitest';
import { formatMailDate, html, maskedCard, maskedWallet, noticeHtml, noticeMail, noticeSms, noticeText, SafeHtml, type Notice } from './templates.ts';

const notice: Notice = {
  subject: 'You received US$ 1,234.50 from Ana <b>"Bold"</b> & Co',
  headline: 'You received US$ 1,234.50 from Ana <b>"Bold"</b> & Co',
  name: "O'Brien <script>alert(1)</script>",
  intro: ['It is in your account 1000000042.'],
  details: [
    { label: 'Amount', value: 'US$ 1,234.50' },
    { label: 'From', value: 'Ana <b>"Bold"</b> & Co (1000000007)' },
  ],
  action: { label: 'See your transactions', url: 'https://kestrel.test/transactions?a=1&b=2' },
  outro: ['If you did not do this, tell us.'],
  footer: 'You get this because of account 1000000042.',
  sms: 'You received US$ 1,234.50.',
};

describe('mail templates', () => {
  it('writes the plain-text part with every line of the notice, values as given', () => {
    const text = noticeText(notice);
    expect(text).toContain(`Hello O'Brien <script>alert(1)</script>,`);
    expect(text).toContain('Amount: US$ 1,234.50\nFrom: Ana <b>"Bold"</b> & Co (1000000007)');
    expect(text).toContain('See your transactions: https://kestrel.test/transactions?a=1&b=2');
    expect(text).toContain('If you did not do this, tell us.');
    expect(text.endsWith('--\nYou get this because of account 1000000042.')).toBe(true);
  });

  it('escapes every value in the HTML part (no markup from a name reaches the mail)', () => {
    const page = noticeHtml(notice);
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<b>');
    expect(page).toContain('Hello O&#39;Brien &lt;script&gt;alert(1)&lt;/script&gt;,');
    expect(page).toContain('Ana &lt;b&gt;&quot;Bold&quot;&lt;/b&gt; &amp; Co (1000000007)');
    expect(page).toContain('<title>You received US$ 1,234.50 from Ana &lt;b&gt;&quot;Bold&quot;&lt;/b&gt; &amp; Co</title>');
    expect(page).toContain('href="https://kestrel.test/transactions?a=1&amp;b=2"');
  });

  it('lays the HTML out as tables with inline styles and no external resource', () => {
    const page = noticeHtml(notice);
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).toContain('<table role="presentation"');
    expect(page).not.toMatch(/<img|<link|<script|<style|url\(/i);
    // The only address in it is the action's link.
    expect(page.match(/https?:\/\/[^"\s<]+/g)).toEqual(['https://kestrel.test/transactions?a=1&amp;b=2']);
  });

  it('makes a mail with both parts, tagged with its template and event', () => {
    const mail = noticeMail('ana@example.test', notice, { template: 'transfer_received', eventId: 7 });
    expect(mail).toMatchObject({ to: 'ana@example.test', subject: notice.subject, template: 'transfer_received', eventId: 7 });
    expect(mail.text).toBe(noticeText(notice));
    expect(mail.html).toBe(noticeHtml(notice));
  });

  it("makes an SMS of the notice's SMS line", () => {
    expect(noticeSms('+15550100', notice)).toEqual({ to: '+15550100', title: notice.subject, text: 'Kestrel: You received US$ 1,234.50.' });
    expect(noticeSms('+15550100', { ...notice, sms: undefined }).text).toBe(`Kestrel: ${notice.headline}`);
  });

  it('html`` escapes strings and numbers, keeps SafeHtml and joins lists', () => {
    const inner = html`<em>${'a&b'}</em>`;
    expect(inner).toBeInstanceOf(SafeHtml);
    expect(html`<p>${inner}${[html`<i>${1}</i>`, '<x>']}${null}${false}</p>`.value).toBe('<p><em>a&amp;b</em><i>1</i>&lt;x&gt;</p>');
  });

  it('shows dates in UTC, cards by brand and last four, wallets by their last four', () => {
    expect(formatMailDate(new Date('2026-03-04T17:05:00Z'))).toBe('March 4, 2026 at 5:05 PM UTC');
    expect(maskedCard('visa', '4242')).toBe('Visa •••• 4242');
    expect(maskedCard('masterCard', '4444')).toBe('Mastercard •••• 4444');
    expect(maskedWallet('0042')).toBe('Kestrel wallet •••• 0042');
  });
});
