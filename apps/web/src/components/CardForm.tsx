import { CARD_EXPIRY_MAX_CHARS, CARD_HOLDER_MAX_CHARS, CARD_NUMBER_MAX_CHARS, formatCardNumber, formatExpiry, inferCardBrand, payerMessages, type CardBrand, type CardFormValues } from '@kestrel/shared';
import type { ReactNode } from 'react';
import { usePlainForm, type FormRules } from '../lib/plain-form.ts';
import { Button } from './Button.tsx';
import { FloatingField } from './FloatingField.tsx';

export interface CardDetails extends CardFormValues {
  /** Inferred from the number as it is typed (undefined while unknown). */
  brand: CardBrand | undefined;
}

/** The spec's card form rules and messages; every field is trimmed. */
const cardRules: FormRules<CardFormValues> = {
  number: (value) => (value.trim() ? undefined : payerMessages.cardNumberRequired),
  expiresIn: (value) => (value.trim() ? undefined : payerMessages.expiryRequired),
  cvc: (value) => (!value.trim() ? payerMessages.cvcRequired : /^\d{3}$/.test(value.trim()) ? undefined : payerMessages.cvcInvalid),
  cardHolderName: (value) => (value.trim() ? undefined : payerMessages.cardHolderRequired),
};

/** The brand the number says, shown beside it as it is typed. */
function BrandMark({ brand }: { brand: CardBrand | 'unknown' }) {
  if (brand === 'visa')
    return (
      <span className="rounded bg-[#1a1f71] px-1.5 py-0.5 text-[10px] font-black tracking-wider text-white italic" title="visa">
        VISA
      </span>
    );
  if (brand === 'masterCard')
    return (
      <span className="relative inline-flex h-4 w-7" title="masterCard">
        <span className="absolute left-0 size-4 rounded-full bg-[#eb001b]" />
        <span className="absolute right-0 size-4 rounded-full bg-[#f79e1b]/90" />
      </span>
    );
  return null;
}

/**
 * The hosted card form (checkout and payment-request page): number grouped in fours (19
 * characters at most), MM/YY with the slash put in (5 at most), a 3-digit CVC and the holder's
 * name, with the spec's messages; the brand is shown as the number is typed. `children` are
 * extra fields drawn above the card (e.g. the amount and e-mail of a payment link), validated by
 * their owner before `onPay` is called.
 */
export function CardForm({
  payLabel,
  busy,
  onPay,
  children,
}: {
  payLabel: string;
  busy: boolean;
  onPay: (card: CardDetails) => void | Promise<void>;
  children?: ReactNode;
}) {
  const { values, field, handleSubmit } = usePlainForm<CardFormValues>({ number: '', expiresIn: '', cvc: '', cardHolderName: '' }, cardRules);
  const brand = inferCardBrand(values.number);

  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={handleSubmit((card) =>
        onPay({
          number: card.number.trim(),
          expiresIn: card.expiresIn.trim(),
          cvc: card.cvc.trim(),
          cardHolderName: card.cardHolderName.trim(),
          brand: brand === 'unknown' ? undefined : brand,
        }),
      )}
    >
      {children}
      <FloatingField
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        maxLength={CARD_NUMBER_MAX_CHARS}
        trailing={
          <span className="pointer-events-none absolute top-1/2 right-3.5 -translate-y-1/2">
            <BrandMark brand={brand} />
          </span>
        }
        {...field('number', formatCardNumber)}
      />
      <div className="grid grid-cols-2 gap-4">
        <FloatingField
          label="MM/YY"
          inputMode="numeric"
          autoComplete="cc-exp"
          maxLength={CARD_EXPIRY_MAX_CHARS}
          {...field('expiresIn', formatExpiry)}
        />
        <FloatingField label="CVC" inputMode="numeric" autoComplete="cc-csc" maxLength={3} {...field('cvc')} />
      </div>
      <FloatingField label="Card holder name" autoComplete="cc-name" maxLength={CARD_HOLDER_MAX_CHARS} {...field('cardHolderName')} />
      <Button type="submit" size="lg" className="w-full" loading={busy}>
        {payLabel}
      </Button>
    </form>
  );
}
