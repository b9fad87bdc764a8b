import type { FastifyInstance } from 'fastify';
import type { ErrorBody } from '../../http/errors.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** Links in a mail's text become clickable in the local mailbox page. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}

/** 127.0.0.0/8 and ::1, also in their IPv4-mapped IPv6 form. */
export function isLoopback(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/**
 * The development mailbox: every stored mail, newest first, so a person trying Kestrel
 * locally can click a verification link. Registered only outside production while mail goes
 * to the outbox, and answered only to loopback callers (the address as TRUST_PROXY lets
 * Fastify resolve it): anyone else reaching a development server gets the plain 404.
 */
export async function mailboxRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', async (request, reply) => {
    if (isLoopback(request.ip)) return;
    const pathname = request.url.split('?')[0] ?? '/';
    await reply.status(404).send({ status: 'error', error: `No route for ${request.method} ${pathname}`, code: 'route_not_found' } satisfies ErrorBody);
  });
  /** The newest 200 rows, or only those to the addresses in `?to=` (repeatable). */
  const latest = (query: unknown) => {
    const asked = (query as { to?: unknown }).to;
    const to = (Array.isArray(asked) ? asked : [asked]).filter((value): value is string => typeof value === 'string' && value.length > 0);
    let rows = app.ctx.db
      .selectFrom('mailMessages')
      .select(['id', 'toAddress', 'subject', 'textBody', 'htmlBody', 'transport', 'channel', 'template', 'createdAt', 'sentAt', 'error'])
      .orderBy('createdAt', 'desc')
      .orderBy('id')
      .limit(200);
    if (to.length) rows = rows.where('toAddress', 'in', to);
    return rows.execute();
  };

  app.get('/dev/mailbox.json', { schema: { hide: true } }, async (request) => ({
    status: 'success',
    data: (await latest(request.query)).map((mail) => ({
      _id: mail.id,
      to: mail.toAddress,
      subject: mail.subject,
      text: mail.textBody,
      html: mail.htmlBody,
      channel: mail.channel,
      template: mail.template,
      transport: mail.transport,
      createdAt: mail.createdAt,
      sentAt: mail.sentAt,
      error: mail.error,
    })),
  }));

  // A mail's HTML part as a mail client would show it (inline styles only; the page's CSP allows no script).
  app.get<{ Params: { id: string } }>('/dev/mailbox/:id/html', { schema: { hide: true } }, async (request, reply) => {
    const mail = /^[0-9a-f-]{36}$/i.test(request.params.id)
      ? await app.ctx.db.selectFrom('mailMessages').select(['htmlBody']).where('id', '=', request.params.id).executeTakeFirst()
      : undefined;
    if (!mail?.htmlBody) return reply.status(404).send({ status: 'error', error: 'No HTML part', code: 'not_found' } satisfies ErrorBody);
    return reply.type('text/html; charset=utf-8').send(mail.htmlBody);
  });

  app.get('/dev/mailbox', { schema: { hide: true } }, async (request, reply) => {
    const mails = await latest(request.query);
    const items = mails
      .map(
        (mail) => `<article>
  <h2>${mail.channel === 'sms' ? '<span class="sms">SMS</span> ' : ''}${escapeHtml(mail.subject)}</h2>
  <p class="meta">To <strong>${escapeHtml(mail.toAddress)}</strong> · ${escapeHtml(new Date(mail.createdAt).toISOString())} · ${escapeHtml(mail.transport)}${
    mail.htmlBody ? ` · <a href="/dev/mailbox/${encodeURIComponent(mail.id)}/html">HTML part</a>` : ''
  }</p>
  <pre>${linkify(mail.textBody)}</pre>
</article>`,
      )
      .join('\n');
    const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Kestrel development mailbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1e293b}
article{border:1px solid #cbd5e1;border-radius:.5rem;padding:1rem;margin:1rem 0}h2{margin:0 0 .25rem;font-size:1.1rem;overflow-wrap:anywhere}
.meta{color:#475569;margin:0 0 .5rem;font-size:.9rem;overflow-wrap:anywhere}pre{white-space:pre-wrap;overflow-wrap:anywhere;font-family:inherit}a{color:#1d4ed8}
.sms{display:inline-block;border-radius:.25rem;background:#0f766e;color:#fff;font-size:.75rem;padding:.1rem .4rem;vertical-align:middle}</style></head>
<body><h1>Development mailbox</h1><p>Mail Kestrel has sent, newest first, with the text messages (marked SMS) for accounts that prefer SMS: no SMS provider is connected, so they are kept here. This page exists only outside production, while mail goes to the outbox, and only for this machine.</p>
${items || '<p>No mail yet.</p>'}
</body></html>`;
    return reply.type('text/html; charset=utf-8').send(page);
  });
}
