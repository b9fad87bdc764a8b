import { randomBytes, randomUUID } from 'node:crypto';
import type { Cents } from '@kestrel/shared';
import { CompiledQuery, type Insertable } from 'kysely';
import { namedStatement, type Db } from '../../db/database.ts';
import type { PaymentsTable } from '../../db/schema.ts';

/**
 * Creating a gateway payment as one database call: the `payment_create` function
 * (db/functions/payment_create.sql), sent as a named prepared statement like `collect_post`.
 * It checks the idempotency record and the store's order id, inserts the payment and stores
 * the answer under the key, or answers why not.
 */
export interface PaymentCreateInput
  extends Pick<
    Insertable<PaymentsTable>,
    'storeId' | 'accountId' | 'orderId' | 'currency' | 'customerName' | 'customerEmail' | 'customerPhone' | 'customerAddress' | 'productName' | 'cancelUrl'
  > {
  amountCents: Cents;
  valueA: string | null;
  idempotencyCaller: string;
  idempotencyKey: string | undefined;
  requestHash: string;
  /** The answer for the new payment's id and checkout address (stored under the key). */
  answer: (created: { paymentId: string; urlId: string }) => unknown;
}

export type PaymentCreateOutcome =
  | { kind: 'ok'; paymentId: string; urlId: string; bodyText: string }
  | { kind: 'replay'; bodyText: string }
  | { kind: 'idempotency_mismatch' }
  | { kind: 'order_taken'; existingPaymentId: string };

// The name changes with the text: a connection that prepared the old text under the old name keeps it.
const PAYMENT_CREATE = namedStatement(
  'payment_create_v1',
  'SELECT kind, body::text AS body_text, existing_payment_id FROM payment_create($1::jsonb, $2, $3, $4, $5::jsonb)',
);

export async function paymentCreate(db: Db, input: PaymentCreateInput): Promise<PaymentCreateOutcome> {
  const paymentId = randomUUID();
  // 128 random bits: the checkout address must not be guessable.
  const urlId = randomBytes(16).toString('base64url');
  const payment = {
    id: paymentId,
    store_id: input.storeId,
    account_id: input.accountId,
    url_id: urlId,
    order_id: input.orderId,
    currency: input.currency,
    amount_cents: input.amountCents,
    customer_name: input.customerName,
    customer_email: input.customerEmail,
    customer_phone: input.customerPhone,
    customer_address: input.customerAddress,
    product_name: input.productName,
    cancel_url: input.cancelUrl,
    value_a: input.valueA,
  };
  const { rows } = await db.executeQuery<{ kind: string; bodyText: string | null; existingPaymentId: string | null }>(
    CompiledQuery.raw(PAYMENT_CREATE, [
      JSON.stringify(payment),
      input.idempotencyCaller,
      input.idempotencyKey ?? null,
      input.requestHash,
      JSON.stringify(input.answer({ paymentId, urlId })),
    ]),
  );
  const row = rows[0];
  if (!row) throw new Error('payment_create answered no row');
  switch (row.kind) {
    case 'ok':
    case 'replay':
      if (row.bodyText === null) throw new Error(`payment_create answered ${row.kind} without its answer`);
      return row.kind === 'ok' ? { kind: 'ok', paymentId, urlId, bodyText: row.bodyText } : { kind: 'replay', bodyText: row.bodyText };
    case 'idempotency_mismatch':
      return { kind: row.kind };
    case 'order_taken':
      if (row.existingPaymentId === null) throw new Error('payment_create answered order_taken without the payment');
      return { kind: row.kind, existingPaymentId: row.existingPaymentId };
    default:
      throw new Error(`payment_create answered an unknown kind ${row.kind}`);
  }
}
