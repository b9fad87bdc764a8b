import { useId, type ComponentProps } from 'react';

export interface Choice {
  value: string;
  label: string;
}

/**
 * A labelled set of radio buttons or checkboxes drawn as tiles (the new-request form's limit,
 * amount type and payment methods), with the group's error under it. `input` carries
 * react-hook-form's register() result for the field.
 */
export function ChoiceGroup({
  legend,
  type,
  choices,
  error,
  input,
}: {
  legend: string;
  type: 'radio' | 'checkbox';
  choices: readonly Choice[];
  error: string | undefined;
  input: Omit<ComponentProps<'input'>, 'type' | 'value'>;
}) {
  const errorId = useId();
  return (
    <fieldset aria-describedby={error ? errorId : undefined} className="min-w-0">
      <legend className="text-sm font-semibold text-slate-900">{legend}</legend>
      <div className="mt-2 grid grid-cols-2 gap-3">
        {choices.map((choice) => (
          <label
            key={choice.value}
            className={`flex h-12 cursor-pointer items-center gap-3 rounded-lg border px-4 text-sm font-medium transition-colors has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:checked]:text-brand-900 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${
              error ? 'border-danger-600' : 'border-slate-300 hover:border-slate-400'
            }`}
          >
            <input type={type} value={choice.value} className="size-4 accent-brand-700 focus-visible:outline-none" {...input} />
            {choice.label}
          </label>
        ))}
      </div>
      {error && (
        <p id={errorId} className="mt-1.5 text-sm font-medium text-danger-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
