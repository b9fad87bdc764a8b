import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createAccount, createHolder, createUser, unique } from '../../../test/factories.ts';
import { csvOf } from '../../../test/csv-fixtures.ts';
import { card, createPayment, createStore, type TestStore } from '../../../test/gateway-fixtures.ts';
import { api, testServer } from '../../../test/harness.ts';
import { walletCents } from '../../../test/ledger-fixtures.ts';

/*
 * The payment, payment-request and refund CSV exports (issue 26): what a merchant hands to an
 * accountant agrees with the ledger to the cent, refunds included, and nobody else can read it.
 */

async function payByCard(store: TestStore, amount: number): Promise<string> {
  const paymentId = await createPayment(store, { amount });
  const paid = await api('POST', `/v1/payment/complete/${paymentId}`, { body: card('4242424242424242') });
  expect(paid.status).toBe(200);
  return paymentId;
}

const cents = (rows: Record<string, string>[], column: string) => rows.reduce((sum, row) => sum + Number(row[column]), 0);

const PAYMENT_HEADER =
  'Date (UTC),Amount,Status,Refund state,Refunded,Fee,Order ID,Customer,Customer email,Method,Source,Transaction ID,Store,Store ID,Payment ID,created_at_iso,paid_at_iso,currency,amount_cents,fee_cents,refunded_cents';

describe('payments and refunds exports', () => {
  it("exports a store's and an account's payments and refunds to the cent, a partly refunded payment included", async () => {
    const store = await createStore();
    const first = await payByCard(store, 25.5);
    const second = await payByCard(store, 10);
    const unpaid = await createPayment(store, { amount: 7 });
    const refund = await api('POST', `/v1/payment/refund/${first}`, { headers: { ...store.headers, 'idempotency-key': unique('rk') }, body: { amount: '10.00', reason: 'Returned, "one" of two' } });
    expect(refund.status).toBe(200);

    const storeCsv = await csvOf(`/v1/export/store-payments/${store.storeId}`, store.owner.token);
    expect(storeCsv.status).toBe(200);
    expect(storeCsv.headers.get('content-disposition')).toBe(`attachment; filename="payments-store-${store.storeId}.csv"`);
    expect(storeCsv.body.split('\r\n')[0]).toBe(PAYMENT_HEADER);
    expect(storeCsv.rows.map((row) => [row['Payment ID'], row.Status, row.amount_cents, row.fee_cents, row.refunded_cents, row['Refund state']])).toEqual([
      [unpaid, 'initiate', '700', '', '0', ''],
      [second, 'success', '1000', '20', '0', ''],
      // 2 % of 25.50 = 0.51 fee; 10.00 of it refunded.
      [first, 'success', '2550', '51', '1000', 'Partially refunded'],
    ]);
    expect(storeCsv.rows[2]).toMatchObject({ Amount: 'US$ 25.50', Refunded: 'US$ 10.00', Fee: 'US$ 0.51', Source: '424242******4242', Store: expect.any(String), Method: expect.any(String), currency: 'USD' });
    expect(storeCsv.rows[2]!['Date (UTC)']).toMatch(/^[A-Z][a-z]+ \d{1,2}(st|nd|rd|th), \d{4} \d{1,2}:\d{2} (AM|PM)$/);
    expect(storeCsv.rows[2]!.paid_at_iso).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(storeCsv.rows[0]!.paid_at_iso).toBe('');

    // The account's Payment History holds the same rows.
    const accountCsv = await csvOf(`/v1/export/payments/${store.account.accountNumber}`, store.owner.token);
    expect(accountCsv.rows).toEqual(storeCsv.rows);

    const refunds = await csvOf(`/v1/export/refunds/${store.account.accountNumber}`, store.owner.token);
    expect(refunds.body.split('\r\n')[0]).toBe(
      'Date (UTC),Amount,Fee returned,Reason,By,Status,Failure reason,Destination,Transaction ID,Payment kind,Payment ID,Store,Refund ID,created_at_iso,completed_at_iso,currency,amount_cents,fee_returned_cents',
    );
    // floor(51 × 1000 / 2550) = 20 cents of the fee came back with the refund.
    expect(refunds.rows).toEqual([
      expect.objectContaining({ 'Payment ID': first, 'Payment kind': 'gateway', Status: 'succeeded', Reason: 'Returned, "one" of two', amount_cents: '1000', fee_returned_cents: '20', Amount: 'US$ 10.00', 'Refund ID': refund.body.data.refundId }),
    ]);

    // The exports and the ledger agree: what was paid less its fee, less what the refunds took back net of the fee returned, is the wallet.
    const paid = storeCsv.rows.filter((row) => row.Status === 'success');
    const net = cents(paid, 'amount_cents') - cents(paid, 'fee_cents') - (cents(refunds.rows, 'amount_cents') - cents(refunds.rows, 'fee_returned_cents'));
    expect(net).toBe(await walletCents(store.account.accountId));
    expect(net).toBe(2499 + 980 - 980);
  });

  it("exports a payment request's payments, of the link and of the account, with a full refund to the cent", async () => {
    const owner = await createUser();
    const account = await createAccount(owner);
    const created = await api('POST', '/v1/payment-request/create', {
      token: owner.token,
      body: { paymentPurpose: 'Guitar lessons', tpin: account.tpin, accountNumber: account.accountNumber, amount: { type: 'fixed', currency: 'USD', value: 40 }, isUseLimit: false, reference: 'INV-1', paymentMethods: ['Card', 'Kestrel'] },
    });
    expect(created.status).toBe(201);
    const { _id: linkId, pRequestURLId } = created.body.data as { _id: string; pRequestURLId: string };
    for (const email of ['v@example.test', 'w@example.test']) {
      const paid = await api('POST', `/v1/payment-request/card/complete-payment/${pRequestURLId}`, { body: { ...card('4242 4242 4242 4242'), email, amount: 40, cardHolderName: 'Vera' } });
      expect(paid.status).toBe(200);
    }
    const listed = (await api('GET', `/v1/payment/payment-request/${linkId}`, { token: owner.token })).body.data as { id: string; payerEmail: string }[];
    const refunded = listed.find((payment) => payment.payerEmail === 'v@example.test')!;
    const refund = await api('POST', `/v1/payment/details/${refunded.id}/refund`, { token: owner.token, body: { tpin: account.tpin, reason: 'Lesson cancelled' }, headers: { 'idempotency-key': unique('ok') } });
    expect(refund.status).toBe(200);

    const ofLink = await csvOf(`/v1/export/payment-request/${linkId}/payments`, owner.token);
    expect(ofLink.status).toBe(200);
    expect(ofLink.body.split('\r\n')[0]).toBe(
      'Date (UTC),Amount,Fee,Refund state,Refunded,Method,Source,Transaction ID,Payer email,Payer reference,Payment purpose,Request URL ID,Payment ID,created_at_iso,currency,amount_cents,fee_cents,refunded_cents,payment_request_id',
    );
    const byEmail = Object.fromEntries(ofLink.rows.map((row) => [row['Payer email'], row]));
    // 40.00 each, fee 2 % = 0.80; one refunded in full.
    expect(byEmail['v@example.test']).toMatchObject({ 'Payment ID': refunded.id, Amount: 'US$ 40.00', Fee: 'US$ 0.80', 'Refund state': 'Refunded', refunded_cents: '4000', amount_cents: '4000', fee_cents: '80', 'Payment purpose': 'Guitar lessons', 'Request URL ID': pRequestURLId, payment_request_id: linkId });
    expect(byEmail['w@example.test']).toMatchObject({ 'Refund state': '', refunded_cents: '0', Source: '424242******4242' });

    const ofAccount = await csvOf(`/v1/export/payment-request-payments/${account.accountNumber}`, owner.token);
    expect(ofAccount.rows).toEqual(ofLink.rows);
    const refunds = (await csvOf(`/v1/export/refunds/${account.accountNumber}`, owner.token)).rows;
    expect(refunds).toEqual([expect.objectContaining({ 'Payment kind': 'link', 'Payment ID': refunded.id, amount_cents: '4000', fee_returned_cents: '80', Store: '' })]);

    const net = cents(ofAccount.rows, 'amount_cents') - cents(ofAccount.rows, 'fee_cents') - (cents(refunds, 'amount_cents') - cents(refunds, 'fee_returned_cents'));
    expect(net).toBe(await walletCents(account.accountId));
    expect(net).toBe(3920);

    // A day range that ends before today holds nothing; one that starts today holds both.
    const today = new Date().toISOString().slice(0, 10);
    expect((await csvOf(`/v1/export/payment-request/${linkId}/payments?to=2020-01-01`, owner.token)).rows).toEqual([]);
    expect((await csvOf(`/v1/export/payment-request/${linkId}/payments?from=${today}&to=${today}`, owner.token)).rows).toHaveLength(2);
    expect((await csvOf(`/v1/export/refunds/${account.accountNumber}?to=2020-01-01`, owner.token)).rows).toEqual([]);
  });

  it('pages through more rows than one database round trip holds, rows sharing one timestamp each exactly once', { timeout: 120_000 }, async () => {
    const store = await createStore();
    const { db } = await testServer();
    // Unpaid payments planted directly (the export reads rows; the gateway has its own tests), all at one instant,
    // so only the id orders them: 2,345 rows are three pages of EXPORT_PAGE_ROWS (1,000).
    await sql`
      INSERT INTO payments (store_id, account_id, url_id, order_id, currency, amount_cents, customer_name, customer_email, customer_phone,
                            customer_address, product_name, cancel_url, created_at)
      SELECT s.id, s.account_id, 'exp-' || s.store_id || '-' || n, 'ORD-' || n, 'USD', 100 + n, 'Paging Customer', 'p@example.test', '+15550100000',
             '1 Page Street', 'Widget', 'https://shop.example.test/cart', '2026-05-05T10:00:00Z'
      FROM stores s CROSS JOIN generate_series(1, 2345) AS n WHERE s.store_id = ${store.storeId}`.execute(db);
    const answer = await csvOf(`/v1/export/store-payments/${store.storeId}`, store.owner.token);
    expect(answer.rows).toHaveLength(2345);
    expect(new Set(answer.rows.map((row) => row['Order ID'])).size).toBe(2345);
    const ids = answer.rows.map((row) => row['Payment ID']!);
    expect(ids).toEqual([...ids].sort().reverse());
    expect(cents(answer.rows, 'amount_cents')).toBe(2345 * 100 + (2345 * 2346) / 2);
    // Only that day.
    expect((await csvOf(`/v1/export/store-payments/${store.storeId}?from=2026-05-05&to=2026-05-05`, store.owner.token)).rows).toHaveLength(2345);
    expect((await csvOf(`/v1/export/store-payments/${store.storeId}?from=2026-05-06`, store.owner.token)).rows).toHaveLength(0);
  });

  it("answers 404 for another user's account, store or link, and 401 without a session", async () => {
    const store = await createStore();
    const created = await api('POST', '/v1/payment-request/create', {
      token: store.owner.token,
      body: { paymentPurpose: 'Lessons', tpin: store.account.tpin, accountNumber: store.account.accountNumber, amount: { type: 'fixed', currency: 'USD', value: 5 }, isUseLimit: false, reference: 'R', paymentMethods: ['Card'] },
    });
    expect(created.status).toBe(201);
    const mallory = await createHolder();
    const paths = [
      `/v1/export/payments/${store.account.accountNumber}`,
      `/v1/export/store-payments/${store.storeId}`,
      `/v1/export/payment-request-payments/${store.account.accountNumber}`,
      `/v1/export/payment-request/${created.body.data._id}/payments`,
      `/v1/export/refunds/${store.account.accountNumber}`,
    ];
    for (const path of paths) {
      expect((await csvOf(path, store.owner.token)).status).toBe(200);
      expect((await api('GET', path, { token: mallory.user.token })).status).toBe(404);
      expect((await api('GET', path)).status).toBe(401);
    }
    expect((await api('GET', '/v1/export/payment-request/not-a-uuid/payments', { token: store.owner.token })).status).toBe(404);
    expect((await api('GET', `/v1/export/store-payments/${store.storeId}?from=2026-03-12&to=2026-03-10`, { token: store.owner.token })).status).toBe(400);
  });
});
