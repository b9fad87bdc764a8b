import { addCents, asCents, negateCents, transferBody, type Cents, type TransferBody, type CreateWithdrawalBody, type WebPayBody } from '@kestrel/shared';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { CardCharge } from '../payments/card-processor.ts';
import type { CollectPostInput } from '../payments/collect/collect-post.ts';
import type { RefundPostInput } from '../payments/collect/refund-post.ts';
import { gatewayFeeCents } from '../payments/fees.ts';
import type { PaymentCreateInput } from '../payments/payment-create.ts';
import type { NewWithdrawalColumns, WithdrawalMoveInput } from '../withdrawals/withdrawal-post.ts';
import type { LedgerTransactionInput, Posting } from './ledger.service.ts';
import type { LedgerTransferInput } from './transfer.ts';

/*
 * Money is `Cents` from the contract to the ledger (ARCHITECTURE "Money"). These checks are
 * made by the typechecker (`tsc -p apps/api`, which includes the test files): each
 * `@ts-expect-error` line must fail to compile, so a plain number reaching a posting, a fee or
 * a money function's wrapper breaks the typecheck.
 */

describe('Cents from the contract to the ledger', () => {
  it('the contracts parse an amount into Cents', () => {
    expectTypeOf<TransferBody['balance']>().toEqualTypeOf<Cents>();
    expectTypeOf<CreateWithdrawalBody['amount']>().toEqualTypeOf<Cents>();
    expectTypeOf<WebPayBody['amount']>().toEqualTypeOf<Cents>();
    const parsed = transferBody.shape.balance.parse('12.5');
    expectTypeOf(parsed).toEqualTypeOf<Cents>();
    expect(parsed).toBe(1250);
  });

  it('a fee takes Cents and answers Cents, rounded half-up as before', () => {
    expectTypeOf(gatewayFeeCents).parameter(0).toEqualTypeOf<Cents>();
    expectTypeOf(gatewayFeeCents).parameter(1).toEqualTypeOf<Cents>();
    expectTypeOf(gatewayFeeCents).returns.toEqualTypeOf<Cents>();
    // @ts-expect-error a plain number is not an amount in cents
    gatewayFeeCents(2550, asCents(0), '2.00');
    expect(gatewayFeeCents(asCents(2550), asCents(0), '2.00')).toBe(51);
  });

  it('a plain number cannot reach Posting.amountCents', () => {
    expectTypeOf<Posting['amountCents']>().toEqualTypeOf<Cents>();
    expectTypeOf<number>().not.toExtend<Posting['amountCents']>();
    // @ts-expect-error a plain number is not Cents
    const plain: Posting = { party: { system: 'funding' }, amountCents: 100 };
    // @ts-expect-error negating Cents with `-` gives a plain number: negateCents keeps the brand
    const negated: Posting = { party: { system: 'funding' }, amountCents: -asCents(100) };
    // @ts-expect-error adding Cents with `+` gives a plain number: addCents keeps the brand
    const summed: Posting = { party: { system: 'funding' }, amountCents: asCents(1) + asCents(2) };
    const typed: Posting[] = [
      { party: { system: 'funding' }, amountCents: negateCents(asCents(100)) },
      { party: { system: 'fee_revenue' }, amountCents: addCents(asCents(60), asCents(40)) },
    ];
    expect([plain, negated, summed, ...typed].map((posting) => posting.amountCents)).toEqual([100, -100, 3, -100, 100]);
  });

  it("the ledger's and the money functions' wrappers take Cents only", () => {
    expectTypeOf<LedgerTransactionInput['amountCents']>().toEqualTypeOf<Cents>();
    expectTypeOf<LedgerTransactionInput['feeCents']>().toEqualTypeOf<Cents | undefined>();
    expectTypeOf<LedgerTransferInput['amountCents']>().toEqualTypeOf<Cents>();
    expectTypeOf<CollectPostInput['amountCents']>().toEqualTypeOf<Cents>();
    expectTypeOf<CollectPostInput['feeCents']>().toEqualTypeOf<Cents>();
    expectTypeOf<RefundPostInput['amountCents']>().toEqualTypeOf<Cents>();
    expectTypeOf<PaymentCreateInput['amountCents']>().toEqualTypeOf<Cents>();
    expectTypeOf<NewWithdrawalColumns['amount_cents']>().toEqualTypeOf<Cents>();
    expectTypeOf<WithdrawalMoveInput['fourEyesFromCents']>().toEqualTypeOf<Cents | null>();
    expectTypeOf<CardCharge['amountCents']>().toEqualTypeOf<Cents>();
  });
});
