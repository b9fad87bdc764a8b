import { addCents, asCents, type Cents } from '@kestrel/shared';

/**
 * The gateway fee on an amount: the owner account's fixed part plus its percentage, the
 * percentage part rounded to the cent half-up. The percentage is the account's numeric(5,2)
 * text ("2.00"), read as hundredths of a percent so no float is involved; the product is
 * computed in bigint because amount x basis points can pass 2^53.
 */
export function gatewayFeeCents(amountCents: Cents, fixedCents: Cents, percentText: string): Cents {
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(percentText.trim());
  if (!match) throw new Error(`invalid fee percentage ${percentText}`);
  const basisPoints = BigInt(Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')));
  const percentPart = (BigInt(amountCents) * basisPoints + 5000n) / 10000n;
  return addCents(asCents(percentPart), fixedCents);
}
