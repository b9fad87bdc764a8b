import { CURRENCIES, STEP_UP_REQUIRED, stepUpHintFor, stepUpMessages, stepUpText } from '@kestrel/shared';
import { useEffect, useId, useState } from 'react';
import { ApiError, isTpinRefusal } from '../lib/http.ts';
import { FloatingField, type FloatingFieldProps } from './FloatingField.tsx';
import { SelectField, type SelectFieldProps } from './SelectField.tsx';

/** Only digits and one decimal point reach an amount field. */
export function digitsAndOnePoint(value: string): string {
  const cleaned = value.replace(/[^\d.]/g, '');
  const point = cleaned.indexOf('.');
  return point === -1 ? cleaned : cleaned.slice(0, point + 1) + cleaned.slice(point + 1).replace(/\./g, '');
}

/** A money form's amount: decimal keyboard, and anything but digits and one decimal point dropped as it is typed. */
export function AmountField({ onChange, ...props }: FloatingFieldProps) {
  return (
    <FloatingField
      inputMode="decimal"
      autoComplete="off"
      {...props}
      onChange={(event) => {
        event.target.value = digitsAndOnePoint(event.target.value);
        onChange?.(event);
      }}
    />
  );
}

/** A money form's 4-digit TPIN: hidden, numeric keyboard, never autofilled. */
export function TpinField(props: FloatingFieldProps) {
  return <FloatingField type="password" inputMode="numeric" maxLength={4} autoComplete="off" {...props} />;
}

/** A money form's currency: one option per currency Kestrel holds. */
export function CurrencyField(props: Omit<SelectFieldProps, 'children'>) {
  return (
    <SelectField {...props}>
      {CURRENCIES.map((code) => (
        <option key={code} value={code}>
          {code}
        </option>
      ))}
    </SelectField>
  );
}

/** The "Verification code" field a large movement asks for, described by its own error and by `hint` (where the code comes from). */
export function StepUpCodeField({ hint, error, ...props }: Omit<FloatingFieldProps, 'label' | 'id' | 'aria-describedby'> & { hint: string }) {
  const fieldId = useId();
  const hintId = useId();
  return (
    <div className="min-w-0">
      <FloatingField
        label={stepUpText.label}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={11}
        id={fieldId}
        // The field's own error (FloatingField's id) and where the code comes from.
        aria-describedby={error ? `${fieldId}-error ${hintId}` : hintId}
        error={error}
        {...props}
      />
      <p id={hintId} className="mt-1.5 text-sm text-slate-700">
        {hint}
      </p>
    </div>
  );
}

/** What the step-up needs of a form with a `stepUpCode` field (react-hook-form's own functions fit). */
interface StepUpForm {
  setError: (name: 'stepUpCode', error: { message: string }) => void;
  setValue: (name: 'stepUpCode', value: '') => void;
  setFocus: (name: 'stepUpCode') => void;
}

/**
 * A money form's step-up (403 step_up_required above the threshold): `hint` is null until the
 * server asks, then the "Verification code" field shows with it and takes the focus.
 */
export function useStepUp({ setError, setValue, setFocus }: StepUpForm) {
  const [hint, setHint] = useState<string | null>(null);
  useEffect(() => {
    // The field the server asked for has just appeared: the next thing to type.
    if (hint) setFocus('stepUpCode');
  }, [hint, setFocus]);
  return {
    hint,
    /** The code to send ('' while none is asked); undefined, with the field's error shown, when it is asked and empty. */
    code(value: string | undefined): string | undefined {
      const code = value?.trim() ?? '';
      if (hint && code === '') {
        setError('stepUpCode', { message: stepUpMessages.codeRequired });
        setFocus('stepUpCode');
        return undefined;
      }
      return hint ? code : '';
    },
    /** True when the refusal asks for a code: not a failure, the field appears (with where the code comes from). */
    asked(error: unknown): boolean {
      if (!(error instanceof ApiError) || error.code !== STEP_UP_REQUIRED) return false;
      setHint(stepUpHintFor(error.message));
      setValue('stepUpCode', '');
      return true;
    },
  };
}

/** What a refusal needs of a money form (react-hook-form's own functions fit). */
interface RefusedForm<Field extends string> {
  setError: (name: Field, error: { message: string }) => void;
  setValue: (name: 'tpin', value: '') => void;
  setFocus: (name: 'tpin') => void;
}

/** A money form's refusal on its fields: each message the server gave a field under it (`fieldOf` names the form's field for the server's), and a refused TPIN emptied with the cursor in it. */
export function showFieldRefusals<Field extends string>(error: ApiError, fieldOf: (serverField: string) => Field | undefined, form: RefusedForm<Field>) {
  for (const [field, message] of Object.entries(error.fields ?? {})) {
    const formField = fieldOf(field);
    if (formField) form.setError(formField, { message });
  }
  if (isTpinRefusal(error)) {
    form.setValue('tpin', '');
    form.setFocus('tpin');
  }
}
