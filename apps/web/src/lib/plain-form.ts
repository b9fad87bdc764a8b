import { useState, type ChangeEvent, type FormEvent } from 'react';

/**
 * For each field, the message of its first broken rule, or undefined when the value is fine. A
 * rule also gets the whole form, for a field checked against another (a password's confirmation).
 */
export type FormRules<Values extends Record<keyof Values, string>> = { [Field in keyof Values]: (value: string, values: Values) => string | undefined };

type FormErrors<Values> = Partial<Record<keyof Values, string>>;

/**
 * A form of text fields for the pages that must stay small (the pay pages, login and sign-up):
 * react-hook-form and zod would be a quarter of their download. It behaves as the app's react-hook-form
 * forms do by default: the rules run on submit; after that, a field is checked again as it
 * changes; the first field in error takes the focus; `isSubmitting` while `submit` runs.
 */
export function usePlainForm<Values extends Record<keyof Values, string>>(initial: Values, rules: FormRules<Values>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FormErrors<Values>>({});
  const [submitted, setSubmitted] = useState(false);
  const [isSubmitting, setSubmitting] = useState(false);
  const fields = Object.keys(rules) as (keyof Values & string)[];

  const setValue = (name: keyof Values & string, value: string) => {
    // Functional: two fields set in one event (WalletPay clears account and TPIN) both stay set.
    setValues((current) => ({ ...current, [name]: value }));
    if (submitted) setErrors((current) => ({ ...current, [name]: rules[name](value, { ...values, [name]: value }) }));
  };

  /** Shows a message under a field that the rules cannot know (the server's answer: an e-mail taken). */
  const setError = (name: keyof Values & string, message: string) => setErrors((current) => ({ ...current, [name]: message }));

  /** The props of a field's input or select: name, value, change handler and error message. */
  const field = (name: keyof Values & string, format: (value: string) => string = (value) => value) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setValue(name, format(event.target.value)),
  });

  /** Runs every rule now, as a submit does, shows the messages, and answers the first field in error. */
  const check = (): (keyof Values & string) | undefined => {
    setSubmitted(true);
    const found: FormErrors<Values> = {};
    for (const name of fields) found[name] = rules[name](values[name], values);
    setErrors(found);
    return fields.find((name) => found[name]);
  };

  /** For fields checked together with another form's submit: true when every rule passes. */
  const validate = () => check() === undefined;

  const handleSubmit = (submit: (values: Values) => void | Promise<void>) => async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const firstError = check();
    if (firstError) {
      const control = form.elements.namedItem(firstError);
      if (control instanceof HTMLElement) control.focus();
      return;
    }
    setSubmitting(true);
    try {
      await submit(values);
    } finally {
      setSubmitting(false);
    }
  };

  return { values, errors, field, setValue, setError, handleSubmit, validate, isSubmitting };
}
