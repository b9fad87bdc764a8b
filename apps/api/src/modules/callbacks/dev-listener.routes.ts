import type { FastifyPluginAsync } from 'fastify';
import { isUuid } from '../../http/ownership.ts';
import { decryptStoreKey } from '../stores/store-key.ts';
import { storeKeyOfPayment } from './callbacks.repository.ts';
import { signCallback, SIGNATURE_HEADER } from './signing.ts';

interface Received {
  receivedAt: string;
  body: string;
  signature: string | null;
  verified: boolean;
  reason: string;
}

const MAX_KEPT = 50;
const received: Received[] = [];

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A store's callback listener, hosted by Kestrel itself outside production so the demo store
 * ("Bob's Bikes Shop") has somewhere to be told about payments. It checks each callback's
 * signature with the store's key, as a store would, and lists what arrived (newest first)
 * at GET /dev/store-callbacks (JSON at /dev/store-callbacks.json). Kept in memory only.
 */
/** The store key of the store a payment belongs to, as a store would know its own key. */
async function storeKeyForPayment(app: Parameters<FastifyPluginAsync>[0], paymentId: unknown): Promise<string | undefined> {
  if (typeof paymentId !== 'string' || !isUuid(paymentId)) return undefined;
  const store = await storeKeyOfPayment(app.ctx.db, paymentId);
  return store ? decryptStoreKey(app.ctx.config.secretKey, store.storeKeyEncrypted) : undefined;
}

export const devStoreCallbackRoutes: FastifyPluginAsync = async (app) => {
  // The signature covers the body exactly as sent, so this listener reads it as text (as a store should).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => done(null, text));

  app.post('/dev/store-callbacks', { schema: { hide: true } }, async (request, reply) => {
    const body = typeof request.body === 'string' ? request.body : '';
    const header = request.headers[SIGNATURE_HEADER.toLowerCase()];
    const signature = typeof header === 'string' ? header : null;
    let verified = false;
    let reason = 'no signature header';
    let parsed: { paymentId?: unknown } | null = null;
    try {
      parsed = JSON.parse(body) as { paymentId?: unknown } | null;
    } catch {
      reason = 'body is not JSON';
    }
    if (signature && parsed) {
      const storeKey = await storeKeyForPayment(app, parsed.paymentId);
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
      if (!storeKey) reason = 'unknown payment';
      else if (!match) reason = 'malformed signature header';
      else {
        verified = signCallback(storeKey, Number(match[1]), body) === match[2];
        reason = verified ? 'signature verified with the store key' : 'signature does not match';
      }
    }
    received.unshift({ receivedAt: new Date().toISOString(), body, signature, verified, reason });
    received.length = Math.min(received.length, MAX_KEPT);
    return reply.status(verified ? 200 : 400).send({ received: true, verified, reason });
  });

  app.get('/dev/store-callbacks.json', { schema: { hide: true } }, async () => received);

  app.get('/dev/store-callbacks', { schema: { hide: true } }, async (request, reply) => {
    // The browser lands here after a payment (the redirectUrl): check that signature too.
    const query = request.query as Record<string, string | undefined>;
    let redirectNote = '';
    if (query.signature && query.timestamp) {
      const storeKey = await storeKeyForPayment(app, query.paymentId);
      const signed = JSON.stringify({
        paymentStatus: query.paymentStatus,
        tnxId: query.tnxId || null,
        currency: query.currency,
        amount: Number(query.amount),
        orderId: query.orderId,
        paymentId: query.paymentId,
      });
      const ok = storeKey !== undefined && signCallback(storeKey, Number(query.timestamp), signed) === query.signature;
      redirectNote = `<p><strong>${ok ? '✔ Redirect signature verified' : '✘ Redirect signature does not match'}</strong> for payment ${escapeHtml(query.paymentId ?? '?')} (${escapeHtml(query.paymentStatus ?? '?')}).</p>`;
    }
    const rows = received
      .map((entry) => `<tr><td>${escapeHtml(entry.receivedAt)}</td><td>${entry.verified ? '✔ verified' : `✘ ${escapeHtml(entry.reason)}`}</td><td><code>${escapeHtml(entry.body)}</code></td></tr>`)
      .join('');
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Store callbacks (development)</title></head><body><h1>Store callbacks received</h1>` +
          redirectNote +
          `<p>What Kestrel's demo store listener received, newest first. Development only.</p>` +
          `<table border="1" cellpadding="4"><thead><tr><th>Received</th><th>Signature</th><th>Body</th></tr></thead><tbody>${rows || '<tr><td colspan="3">Nothing yet</td></tr>'}</tbody></table></body></html>`,
      );
  });
};
