// The example shop: lists two products, creates a Kestrel payment on "Buy", sends the customer
// to the hosted checkout, and marks the order Paid when Kestrel's signed callback arrives. Its
// admin page (/admin) refunds a paid order in full or in part; the refund callback updates it.
//   KESTREL_URL  the Kestrel server (default http://localhost:3000)
//   SHOP_PORT    this shop's port (default 3001); SHOP_URL its address as Kestrel reaches it
//   STORE_ID, STORE_KEY  an Approved store whose callback URL is SHOP_URL/kestrel/callback;
//                when absent, a store is made on the demo data of a local Kestrel (demo-store.mjs)
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { Kestrel, KestrelError, KestrelSignatureError, webhooks } from '@kestrel/sdk';
import { createDemoStore } from './demo-store.mjs';
import { adminPage, errorPage, orderPage, shopPage } from './pages.mjs';

const kestrelUrl = (process.env.KESTREL_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const port = Number(process.env.SHOP_PORT ?? 3001);
const shopUrl = (process.env.SHOP_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
const callbackUrl = `${shopUrl}/kestrel/callback`;

const credentials =
  process.env.STORE_ID && process.env.STORE_KEY
    ? { storeId: process.env.STORE_ID, storeKey: process.env.STORE_KEY }
    : await createDemoStore({ kestrelUrl, callbackUrl, shopUrl });
const kestrel = new Kestrel({ ...credentials, baseUrl: kestrelUrl });

const products = [
  { id: 'bell', name: 'Brass bike bell', price: 12.5 },
  { id: 'lights', name: 'LED light set', price: 24 },
];
/** Orders by orderId, newest last; a real shop keeps them in its database. */
const orders = new Map();

async function readBody(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function send(response, status, body, headers = {}) {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
  response.end(body);
}

async function buy(request, response) {
  const chosen = new URLSearchParams(await readBody(request)).get('product');
  const product = products.find((candidate) => candidate.id === chosen);
  if (!product) return send(response, 400, errorPage(400, 'No such product'));
  const orderId = `shop-${randomUUID()}`;
  const order = { orderId, product, amount: product.price, status: 'Awaiting payment', paymentId: null, refunded: 0, refundsAsked: new Set(), refundsSeen: new Set() };
  orders.set(orderId, order);
  try {
    const payment = await kestrel.payments.create({
      orderId,
      currency: 'USD',
      amount: product.price,
      customerName: 'Dana Doe',
      customerEmail: 'dana@example.com',
      customerPhone: '+15550100009',
      customerAddress: '1 Main Street, Springfield',
      productName: product.name,
      cancelUrl: `${shopUrl}/orders/${orderId}`,
    });
    order.paymentId = payment.paymentId;
    send(response, 303, '', { location: payment.redirectUrl });
  } catch (error) {
    order.status = 'Failed';
    const message = error instanceof KestrelError ? `Kestrel said: ${error.message} (${error.status} ${error.code})` : 'Could not reach Kestrel';
    send(response, 502, errorPage(502, message));
  }
}

/** Kestrel's server-to-server callback: trusted only once its signature checks out. */
async function callback(request, response) {
  const rawBody = await readBody(request);
  try {
    const event = await webhooks.verify(rawBody, request.headers[webhooks.SIGNATURE_HEADER.toLowerCase()], credentials.storeKey);
    const order = orders.get(event.orderId);
    if (order && event.event === 'refund.succeeded') {
      // Callbacks can arrive out of order: the largest refunded total is the latest.
      order.refunded = Math.max(order.refunded, event.amountRefunded);
      order.status = event.amountRemaining === 0 ? 'Refunded' : 'Partially refunded';
      order.refundsSeen.add(event.refundId);
    } else if (order && order.status === 'Awaiting payment' && event.paymentStatus === 'success') {
      order.status = 'Paid';
      order.paymentId = event.paymentId;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  } catch (error) {
    const reason = error instanceof KestrelSignatureError ? error.message : 'bad callback';
    response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ received: false, reason }));
  }
}

/** The admin's refund of a paid order: the whole of what is left, or the amount typed. */
async function refund(request, response, orderId) {
  const order = orders.get(orderId);
  if (!order || !order.paymentId) return send(response, 404, errorPage(404, 'No such paid order'));
  const form = new URLSearchParams(await readBody(request));
  const amount = form.get('amount')?.trim();
  try {
    // The SDK sends an Idempotency-Key, which its own retries after a lost answer reuse: one refund.
    const made = await kestrel.refunds.create(order.paymentId, { ...(amount ? { amount } : {}), reason: form.get('reason')?.trim() || 'Refunded from the shop admin' });
    // The order changes when the signed refund callback arrives (the admin page refreshes until
    // then); the callback may come before this answer, so asked and seen refunds are both kept.
    if (made.status !== 'failed') order.refundsAsked.add(made.refundId);
    send(response, 303, '', { location: '/admin' });
  } catch (error) {
    const message = error instanceof KestrelError ? `Kestrel said: ${error.message} (${error.status} ${error.code})` : 'Could not reach Kestrel';
    send(response, error instanceof KestrelError && error.status < 500 ? 422 : 502, errorPage('Refund refused', message, '/admin'));
  }
}

/** The customer's return from the checkout: verified, then shown the order (whose status the callback sets). */
async function customerReturn(request, response) {
  try {
    const event = await webhooks.verifyRedirect(new URL(request.url, shopUrl), credentials.storeKey);
    send(response, 303, '', { location: `/orders/${encodeURIComponent(event.orderId)}` });
  } catch (error) {
    send(response, 400, errorPage(400, error instanceof KestrelSignatureError ? error.message : 'Bad return address'));
  }
}

const server = http.createServer(async (request, response) => {
  const { pathname } = new URL(request.url, shopUrl);
  try {
    if (request.method === 'GET' && pathname === '/') return send(response, 200, shopPage(products, [...orders.values()].reverse()));
    if (request.method === 'POST' && pathname === '/buy') return await buy(request, response);
    if (request.method === 'POST' && pathname === '/kestrel/callback') return await callback(request, response);
    if (request.method === 'GET' && pathname === '/kestrel/callback') return await customerReturn(request, response);
    // A real shop puts its admin behind its own sign-in; this example runs on a developer's machine.
    if (request.method === 'GET' && pathname === '/admin') return send(response, 200, adminPage([...orders.values()].reverse()));
    const refundOf = request.method === 'POST' ? /^\/admin\/orders\/([^/]+)\/refund$/.exec(pathname) : null;
    if (refundOf) return await refund(request, response, decodeURIComponent(refundOf[1]));
    const order = request.method === 'GET' && pathname.startsWith('/orders/') ? orders.get(decodeURIComponent(pathname.slice('/orders/'.length))) : undefined;
    if (order) return send(response, 200, orderPage(order));
    send(response, 404, errorPage(404, 'Not found'));
  } catch (error) {
    console.error(error);
    send(response, 500, errorPage(500, 'Something went wrong'));
  }
});

server.listen(port, process.env.SHOP_HOST ?? '127.0.0.1', () => {
  console.log(`Example shop on ${shopUrl} (store ${credentials.storeId}) taking payments through ${kestrelUrl}`);
});
