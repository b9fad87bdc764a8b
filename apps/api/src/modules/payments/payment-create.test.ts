import { paymentMessages } from '@kestrel/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, testServer } from '../../../test/harness.ts';
import { card, createStore, webPayBodyFor, type TestStore } from '../../../test/gateway-fixtures.ts';
import { countedCall } from '../../../test/statements.ts';

/*
 * Creating a gateway payment is one database call (payment_create): the requirement of
 * issue 21, counted at the driver — every statement the request sends, BEGIN and COMMIT
 * included — with the answers a store sees unchanged.
 */

let store: TestStore;
beforeAll(async () => {
  store = await createStore();
});

const isCreateCall = (text: string) => text.includes('FROM payment_create(');
const writes = (text: string) => /^\s*(insert|update|delete|begin|commit)\b/i.test(text);
/** The sandbox card processor keeps its own record on our database (as a real processor keeps its
 * settlement file on its own); its insert is the processor's, not a step of the payment. */
const processorRecord = (text: string) => /sandbox_processor_records/i.test(text);
/** The card attempt's one statement before the charge: the payment read and its lease taken. */
const isLeaseHold = (text: string) => /^\s*with "leased" as \(update "payments" set "attempt_lease_until"/i.test(text);

describe('creating a payment is one database call', () => {
  it('web-pay with an Idempotency-Key: the store guard\'s read and one payment_create call; a replay is the same two', async () => {
    const body = webPayBodyFor();
    const first = await countedCall('POST', '/v1/payment/web-pay', { headers: { ...store.headers, 'idempotency-key': 'create-once' }, body });
    expect(first.response.status).toBe(200);
    expect(first.response.body).toMatchObject({ status: 'success', message: paymentMessages.created, data: { orderId: body.orderId, amount: 25.5, currency: 'USD', paymentStatus: 'initiate' } });
    expect(first.texts).toHaveLength(2);
    expect(first.texts.filter(isCreateCall)).toHaveLength(1);
    expect(first.texts.filter(writes)).toEqual([]);

    const replay = await countedCall('POST', '/v1/payment/web-pay', { headers: { ...store.headers, 'idempotency-key': 'create-once' }, body });
    expect(replay.response.status).toBe(200);
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.response.body.data).toEqual(first.response.body.data);
    expect(replay.response.body.redirectUrl).toBe(first.response.body.redirectUrl);
    expect(replay.texts).toHaveLength(2);

    const other = await countedCall('POST', '/v1/payment/web-pay', { headers: { ...store.headers, 'idempotency-key': 'create-once' }, body: { ...body, amount: 30 } });
    expect(other.response.status).toBe(422);
    expect(other.response.body).toMatchObject({ code: 'idempotency_key_reused', error: 'This Idempotency-Key was already used with a different request' });
    expect(other.texts).toHaveLength(2);
  });

  it('a taken orderId is 409 naming the payment, from the same one call', async () => {
    const body = webPayBodyFor();
    const first = await api('POST', '/v1/payment/web-pay', { headers: store.headers, body });
    expect(first.status).toBe(200);
    const again = await countedCall('POST', '/v1/payment/web-pay', { headers: store.headers, body });
    expect(again.response.status).toBe(409);
    expect(again.response.body).toMatchObject({ code: 'order_id_taken', error: paymentMessages.orderIdTaken(first.body.data.paymentId) });
    expect(again.texts).toHaveLength(2);
    expect(again.texts.filter(isCreateCall)).toHaveLength(1);
  });

  it('a fee that would take the whole amount is refused before any call', async () => {
    const { db } = await testServer();
    const pricey = await createStore();
    await db.updateTable('accounts').set({ gatewayFeeFixedCents: 100 }).where('id', '=', pricey.account.accountId).execute();
    const refused = await countedCall('POST', '/v1/payment/web-pay', { headers: pricey.headers, body: webPayBodyFor({ amount: 1 }) });
    expect(refused.response.status).toBe(400);
    expect(refused.response.body).toMatchObject({ code: 'fee_too_high', error: paymentMessages.feeTooHigh });
    expect(refused.texts).toHaveLength(1);
  });

  it('the direct card payment creates its payment with the same one call (no insert, no BEGIN of its own)', async () => {
    const body = { ...webPayBodyFor(), ...card() };
    const direct = await countedCall('POST', '/v1/payment/web-pay/complete/direct', { headers: { ...store.headers, 'idempotency-key': 'direct-once' }, body });
    expect(direct.response.status).toBe(200);
    expect(direct.response.body).toMatchObject({ status: 'success', message: paymentMessages.success });
    expect(direct.texts.filter(isCreateCall)).toHaveLength(1);
    // The other writes are the card attempt's: its lease (taken by the statement that reads the
    // payment, see payment-pay-calls.test.ts) and one collect_post call; nothing else writes.
    expect(direct.texts.filter(processorRecord)).toHaveLength(1);
    expect(direct.texts.filter((text) => writes(text) && !processorRecord(text))).toEqual([]);
    expect(direct.texts.filter(isLeaseHold)).toHaveLength(1);
    expect(direct.texts.filter((text) => text.includes('FROM collect_post('))).toHaveLength(1);

    const taken = await api('POST', '/v1/payment/web-pay/complete/direct', { headers: store.headers, body });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'order_id_taken', error: paymentMessages.orderIdTaken(direct.response.body.data.paymentId) });
  });
});

describe('creating payments at once', () => {
  it('one orderId sent 12 times at once: one payment, eleven 409s naming it', async () => {
    const body = webPayBodyFor();
    const answers = await Promise.all(Array.from({ length: 12 }, () => api('POST', '/v1/payment/web-pay', { headers: store.headers, body })));
    const created = answers.filter((answer) => answer.status === 200);
    expect(created).toHaveLength(1);
    const paymentId = created[0]!.body.data.paymentId as string;
    for (const answer of answers.filter((each) => each.status !== 200)) {
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({ code: 'order_id_taken', error: paymentMessages.orderIdTaken(paymentId) });
    }
  });

  it('one Idempotency-Key sent 12 times at once: one payment, every answer its answer', async () => {
    const body = webPayBodyFor();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => api('POST', '/v1/payment/web-pay', { headers: { ...store.headers, 'idempotency-key': `race-${body.orderId}` }, body })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 12 }, () => 200));
    expect(new Set(answers.map((answer) => answer.body.data.paymentId)).size).toBe(1);
    const { db } = await testServer();
    const rows = await db.selectFrom('payments').select('id').where('orderId', '=', body.orderId).execute();
    expect(rows).toHaveLength(1);
  });
});
