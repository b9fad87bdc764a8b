// For trying the shop against a local Kestrel with demo data (`npm start`): makes a store for
// it on the demo merchant bob's account, with this shop's callback address, and has the demo
// operator approve it — what a merchant does once in the portal (Payment Gateway → New store).
// A real shop is given STORE_ID and STORE_KEY instead and never runs this.

const DEMO = { merchant: { email: 'bob@example.com', password: 'kestrel-demo', userName: 'bob', tpin: '4826' }, operator: { email: 'ops@example.com', password: 'kestrel-demo' } };
// A 1×1 PNG for the store's logo and business document (Kestrel re-encodes uploads).
const PIXEL = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));

async function call(kestrelUrl, path, { token, json, form } = {}) {
  const headers = token ? { authorization: token } : {};
  if (json) headers['content-type'] = 'application/json';
  const response = await fetch(`${kestrelUrl}${path}`, { method: 'POST', headers, body: json ? JSON.stringify(json) : form });
  const body = await response.json();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${body.error ?? ''}`);
  return body.data;
}

export async function createDemoStore({ kestrelUrl, callbackUrl, shopUrl }) {
  const merchant = await call(kestrelUrl, '/v1/auth/login', { json: { email: DEMO.merchant.email, password: DEMO.merchant.password } });
  const form = new FormData();
  form.append('accountKey', DEMO.merchant.userName);
  form.append('tpin', DEMO.merchant.tpin);
  form.append('storeName', `Example shop ${new Date().toISOString().slice(0, 19).replace('T', ' ')}`);
  form.append('storeURL', shopUrl);
  form.append('callbackURL', callbackUrl);
  form.append('storeLogo', new Blob([PIXEL], { type: 'image/png' }), 'logo.png');
  form.append('businessDocuments', new Blob([PIXEL], { type: 'image/png' }), 'licence.png');
  const store = await call(kestrelUrl, '/v1/payment_gateway_store/create', { token: merchant.token, form });
  const operator = await call(kestrelUrl, '/v1/auth/login', { json: DEMO.operator });
  await call(kestrelUrl, `/v1/operator/stores/${store.storeId}/approve`, { token: operator.token, json: { reason: 'Example shop for trying the SDK' } });
  return { storeId: store.storeId, storeKey: store.storeKey };
}
