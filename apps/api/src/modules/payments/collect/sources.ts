import { Refusal } from '../../../http/refusals.ts';
import type { TpinState } from '../../accounts/tpin.ts';
import type { CheckedCard } from '../card-input.ts';
import type { CollectPostKind } from './collect-post.ts';

/*
 * Who pays in a collect and how a refused attempt is kept: the card as the books keep it, the
 * wallet payer, the masked source a refusal is shown with, and which refusals the payee sees.
 */

/** The brand shown for money paid from a Kestrel wallet. */
export const WALLET_BRAND = 'Kestrel';

/** A card as the books keep it: brand, first 6, last 4, length, expiry (never the number or the CVC). */
export interface CardOnRecord {
  brand: string;
  first6: string | null;
  last4: string | null;
  length: number | null;
  expiresIn: string | null;
}

export const cardOnRecord = (card: CheckedCard): CardOnRecord => ({ brand: card.brand, first6: card.first6, last4: card.last4, length: card.digits.length, expiresIn: card.expiresIn });

export interface WalletPayer extends TpinState {
  id: string;
  accountNumber: string;
  accountEmail: string;
}

/** Where the money of a collect comes from: a charged card (the processor's name and reference), or a wallet. */
export type CollectSource =
  | { kind: 'card'; card: CardOnRecord; reference: string; processor: string }
  /** `tpin`: the TPIN the request carried, for the database step to check (absent when it was checked before). */
  | { kind: 'wallet'; payer: WalletPayer; userId: string; tpin?: string };

/** The masked source a refused attempt is kept with. */
export interface RefusalSource {
  brand: string | null;
  type: 'card' | 'wallet';
  number: string;
}

export const cardRefusalSource = (card: CheckedCard): RefusalSource => ({ brand: card.brand, type: 'card', number: card.masked });
export const walletRefusalSource = (accountNumber: string): RefusalSource => ({ brand: WALLET_BRAND, type: 'wallet', number: `****${accountNumber.slice(-4)}` });

/**
 * The refusals of a pay attempt that the payee sees on the record (a payment's paymentErrors,
 * a link's 'Failed' tab): the ones about this attempt's money or credentials, or about the
 * record no longer taking payments. Bad input (400) and "someone else is paying" (409) are
 * not kept.
 */
const KEPT_REFUSALS = new Set([
  'payment_request_disabled',
  'payment_request_expired',
  'payment_request_owner_locked',
  'limit_exceeded',
  'tpin_incorrect',
  'tpin_locked',
  'money_movement_locked',
  'insufficient_balance',
  'card_declined',
  'insufficient_funds',
  'incorrect_cvc',
  'too_many_declines',
  'card_processor_unavailable',
]);

export function isKeptRefusal(error: unknown): error is Refusal {
  return error instanceof Refusal && KEPT_REFUSALS.has(error.code);
}

/** Where a caller keeps its refused attempts. */
export type RefusalSink = (refusal: Refusal, source: RefusalSource) => Promise<void>;

/** The refusals a record answers for itself (see collect_post's result kinds). */
export type RecordRefusal = Extract<CollectPostKind, 'already_paid' | 'attempt_in_progress' | 'limit_exceeded' | 'link_unavailable' | 'owner_locked'>;
