import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { SANDBOX_TEST_CARDS, SANDBOX_UNKNOWN_CARD_MESSAGE, asCents, type Cents, type CardBrand, type Currency } from '@kestrel/shared';
import type { Db } from '../../db/database.ts';
import { isRefusal, type Refusal } from '../../http/refusals.ts';

/** What a processor needs to charge a card; the caller forgets the number and CVC afterwards. */
export interface CardCharge {
  number: string;
  brand: CardBrand;
  expMonth: number;
  expYear: number;
  cvc: string;
  amountCents: Cents;
  currency: Currency;
  /**
   * What the money is for, kept by the processor with the charge (its settlement file lists
   * it): `payment:<paymentId>` or `link:<paymentRequestId>`. Reconciliation reads it back to
   * tell which payment a charge that never reached the books was for.
   */
  merchantReference: string;
  /** The payer's name and e-mail when the pay form asked for them (a payment link's card form). */
  billing?: { name: string | null; email: string | null };
}

/** The processor's decline codes (answered 402); the partial indexes of the attempt-limits migration name them too. */
export const DECLINE_CODES = ['card_declined', 'insufficient_funds', 'incorrect_cvc'] as const;
export type DeclineCode = (typeof DECLINE_CODES)[number];

/** A card the processor declined (a refusal with one of DECLINE_CODES). */
export const isDecline = (error: unknown): error is Refusal => isRefusal(error, ...DECLINE_CODES);

export type ChargeOutcome = { approved: true; reference: string } | { approved: false; code: DeclineCode; message: string };

/** A refund's answer: done (with the processor's refund reference) or refused (nothing left the processor). */
export type RefundOutcome = { refunded: true; reference: string } | { refunded: false; message: string };

/** What the sandbox answers for a refund of its refund-refusing test card (the README lists it). */
export const SANDBOX_REFUND_REFUSED_MESSAGE = 'The card network refused the refund (sandbox test card 4000 0000 0000 5126)';

/**
 * The processor did not answer (a timeout, a dropped connection): whether it charged the card
 * is not known. Kestrel answers the payer 502 and records nothing; the processor's own record
 * says what happened, and the day's reconciliation lists a charge it made ("charged but not
 * recorded") for an operator to void or record.
 */
export class CardProcessorUnavailableError extends Error {
  constructor(message = 'The card processor did not answer') {
    super(message);
    this.name = 'CardProcessorUnavailableError';
  }
}

/**
 * One line of a processor's settlement file: a charge it accepted (`approved`, or `voided`
 * since) or a refund it made (`refunded`). Declined charges and refused refunds are not
 * listed: nothing moved.
 */
export interface SettlementRecord {
  kind: 'charge' | 'refund';
  reference: string;
  /** A refund's charge. */
  chargeReference: string | null;
  /** A charge's `merchantReference`; a refund's refund id (the idempotency key Kestrel sent). */
  merchantReference: string | null;
  currency: string;
  amountCents: Cents;
  status: 'approved' | 'voided' | 'refunded';
  card: { brand: string | null; first6: string | null; last4: string | null; length: number | null; expiresIn: string | null };
  billing: { name: string | null; email: string | null };
  createdAt: Date;
}

/**
 * A card network connection. Kestrel calls it outside any database transaction; when the
 * charge cannot be recorded afterwards (the payment was paid meanwhile, the database failed)
 * the charge is voided — once the books show it was not recorded (`voidUnlessRecorded`).
 * `name` is the processor (a merchant account at it): Kestrel stamps it on each card payment's
 * ledger transaction, and reconciles each processor's records with its own payments.
 */
export interface CardProcessor {
  readonly name: string;
  /** Throws CardProcessorUnavailableError (or any error) when the processor did not answer. */
  charge(charge: CardCharge): Promise<ChargeOutcome>;
  void(reference: string): Promise<void>;
  /**
   * Gives `amountCents` of the charge `reference` back to the card. `refundId` is the
   * processor's idempotency key: asking again about one refund (the recovery sweep after a
   * crash) answers the first outcome and never refunds twice.
   */
  refund(reference: string, amountCents: Cents, refundId: string, currency: Currency): Promise<RefundOutcome>;
  /**
   * The processor's own records of one UTC day (`YYYY-MM-DD`), as its settlement file lists
   * them: what reconciliation matches with the ledger. A real processor's adapter reads its
   * settlement file or reporting API here.
   */
  settlementRecords(day: string): Promise<SettlementRecord[]>;
}

/** The published test cards live in the shared package (the web's Integration tab lists them too). */
export { SANDBOX_TEST_CARDS, SANDBOX_UNKNOWN_CARD_MESSAGE };

/** The sandbox's name, stamped on the ledger transactions of the payments it charged. */
export const SANDBOX_PROCESSOR_NAME = 'sandbox';

/** The UTC day `YYYY-MM-DD` as the half-open time range [start, end). */
export function dayRangeOf(day: string): { start: Date; end: Date } {
  const start = new Date(`${day}T00:00:00.000Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== day) throw new Error(`not a day: ${day}`);
  return { start, end: new Date(start.getTime() + 24 * 60 * 60 * 1000) };
}

/**
 * The built-in sandbox: no money leaves anyone's card. The published test cards behave as
 * listed; every other (valid) number is declined, so a real card number typed into a test
 * set-up never "succeeds".
 *
 * It keeps its own record of every charge, void and refund it accepts, as a real processor
 * does (its settlement file), in `sandbox_processor_records`: written on `db` by the sandbox
 * itself, each row on its own, never inside one of Kestrel's transactions — it stands for the
 * processor's side of the books. The record survives restarts, so a refund asked about again
 * (the recovery sweep) answers the first refund, never a second one.
 */
export function createSandboxProcessor(db: Db, options: { name?: string } = {}): CardProcessor {
  const name = options.name ?? SANDBOX_PROCESSOR_NAME;
  const records = () => db.selectFrom('sandboxProcessorRecords').where('processor', '=', name);
  return {
    name,
    async charge(charge) {
      const card = SANDBOX_TEST_CARDS.find((entry) => entry.number === charge.number);
      if (!card) return { approved: false, code: 'card_declined', message: SANDBOX_UNKNOWN_CARD_MESSAGE };
      if (card.outcome !== 'succeeds' && card.outcome !== 'no_answer') return { approved: false, code: card.outcome, message: card.message };
      // The reference remembers a card whose refunds are refused, so the refund needs no card number.
      const reference = `${card.refund === 'refused' ? REFUSING_PREFIX : 'sbx_'}${randomBytes(12).toString('hex')}`;
      await db
        .insertInto('sandboxProcessorRecords')
        .values({
          processor: name,
          kind: 'charge',
          reference,
          chargeReference: null,
          merchantReference: charge.merchantReference,
          currency: charge.currency,
          amountCents: charge.amountCents,
          cardBrand: charge.brand,
          cardFirst6: charge.number.slice(0, 6),
          cardLast4: charge.number.slice(-4),
          cardLength: charge.number.length,
          cardExpiresIn: `${String(charge.expMonth).padStart(2, '0')}/${String(charge.expYear % 100).padStart(2, '0')}`,
          billingName: charge.billing?.name ?? null,
          billingEmail: charge.billing?.email ?? null,
          status: 'approved',
        })
        .execute();
      // The card is charged; the answer is "lost on the way back" (the test card of a timeout).
      if (card.outcome === 'no_answer') throw new CardProcessorUnavailableError(`sandbox: the answer to charge ${reference} was lost (its no-answer test card)`);
      return { approved: true, reference };
    },
    async void(reference) {
      await db
        .updateTable('sandboxProcessorRecords')
        .set({ status: 'voided', voidedAt: sql<Date>`now()` })
        .where('processor', '=', name)
        .where('kind', '=', 'charge')
        .where('reference', '=', reference)
        .where('status', '=', 'approved')
        .execute();
    },
    async refund(reference, amountCents, refundId, currency) {
      const earlier = await records().select('reference').where('kind', '=', 'refund').where('merchantReference', '=', refundId).executeTakeFirst();
      if (earlier) return { refunded: true, reference: earlier.reference };
      if (reference.startsWith(REFUSING_PREFIX)) return { refunded: false, message: SANDBOX_REFUND_REFUSED_MESSAGE };
      // The card as the charge's record has it (a charge from before the sandbox kept records has none).
      const charged = await records().select(['cardBrand', 'cardFirst6', 'cardLast4', 'cardLength', 'cardExpiresIn']).where('kind', '=', 'charge').where('reference', '=', reference).executeTakeFirst();
      await db
        .insertInto('sandboxProcessorRecords')
        .values({
          processor: name,
          kind: 'refund',
          reference: `sbxr_${randomBytes(12).toString('hex')}`,
          chargeReference: reference,
          merchantReference: refundId,
          currency,
          amountCents,
          cardBrand: charged?.cardBrand ?? null,
          cardFirst6: charged?.cardFirst6 ?? null,
          cardLast4: charged?.cardLast4 ?? null,
          cardLength: charged?.cardLength ?? null,
          cardExpiresIn: charged?.cardExpiresIn ?? null,
          status: 'refunded',
        })
        // Two sweeps asking about one refund at once: the first row stands, both answer it.
        .onConflict((conflict) => conflict.columns(['processor', 'merchantReference']).where('kind', '=', 'refund').doNothing())
        .execute();
      const made = await records().select('reference').where('kind', '=', 'refund').where('merchantReference', '=', refundId).executeTakeFirstOrThrow();
      return { refunded: true, reference: made.reference };
    },
    async settlementRecords(day) {
      const { start, end } = dayRangeOf(day);
      const rows = await records().selectAll().where('createdAt', '>=', start).where('createdAt', '<', end).orderBy('createdAt').orderBy('id').execute();
      return rows.map((row) => ({
        kind: row.kind,
        reference: row.reference,
        chargeReference: row.chargeReference,
        merchantReference: row.merchantReference,
        currency: row.currency,
        amountCents: asCents(row.amountCents),
        status: row.status,
        card: { brand: row.cardBrand, first6: row.cardFirst6, last4: row.cardLast4, length: row.cardLength, expiresIn: row.cardExpiresIn },
        billing: { name: row.billingName, email: row.billingEmail },
        createdAt: row.createdAt,
      }));
    },
  };
}

/** The sandbox's charge references of its refund-refusing test card. */
const REFUSING_PREFIX = 'sbx_rr_';

/** What became of a charge whose recording failed: voided, found in the books after all, or not known. */
export type UnrecordedChargeOutcome = 'voided' | 'recorded' | 'unknown';

/**
 * Voids a charge after the work that was to record it failed, unless it was recorded after
 * all: the failure may have come after the commit (the connection lost while COMMIT's answer
 * was on its way), and voiding then would leave the books paid by a card that was never
 * charged. When the books cannot be asked (the database is down) the charge is left standing
 * and logged; the day's reconciliation with the processor's records lists it ("charged but
 * not recorded") for an operator to void or record: a customer refunded later is better than
 * a merchant credited with money never collected.
 */
export async function voidUnlessRecorded(
  processor: CardProcessor,
  reference: string,
  isRecorded: () => Promise<boolean>,
  log: { error(object: object, message: string): void },
): Promise<UnrecordedChargeOutcome> {
  let recorded: boolean;
  try {
    recorded = await isRecorded();
  } catch (error) {
    log.error({ err: error, processor: processor.name, processorReference: reference }, 'card charge left standing for reconciliation: could not tell whether it was recorded');
    return 'unknown';
  }
  if (recorded) return 'recorded';
  await processor.void(reference);
  return 'voided';
}
