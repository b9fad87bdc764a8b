import { z } from 'zod';
import { MIN_PAYMENT_CENTS } from './constants.ts';
import { parseAmount, type Cents } from './money.ts';
import { paymentMessages } from './pay-messages.ts';
import { withExample } from './contract-examples.ts';

/*
 * The request schema of an amount, apart from money.ts so that a page which formats money
 * (the checkout) does not download zod with it.
 */

/**
 * A money amount in major units, as text ("12.50") or a JSON number (12.5), parsed once into
 * integer `Cents` by exact decimal parsing. Empty is `requiredMessage`; more than two
 * decimals, zero, negative, malformed or over MAX_AMOUNT_CENTS is `invalidMessage`.
 * The API's request schemas and the web forms use this one schema, so everything after
 * validation works on cents and never parses the amount again.
 */
export const amountCents = (requiredMessage: string, invalidMessage: string) =>
  z
    .union([withExample(z.string(), '25.50'), z.number()], { error: requiredMessage })
    .transform((value, context): Cents => {
      if (typeof value === 'string' && value.trim() === '') {
        context.addIssue({ code: 'custom', message: requiredMessage });
        return z.NEVER;
      }
      const parsed = parseAmount(value);
      if (!parsed.ok) {
        context.addIssue({ code: 'custom', message: invalidMessage });
        return z.NEVER;
      }
      return parsed.cents;
    });

/** A payment's amount (gateway, payment links): `amountCents`, and at least MIN_PAYMENT_CENTS. */
export const paymentAmountCents = (requiredMessage: string, invalidMessage: string) =>
  amountCents(requiredMessage, invalidMessage).refine((cents) => cents >= MIN_PAYMENT_CENTS, paymentMessages.amountBelowMinimum);
