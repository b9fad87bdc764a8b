import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type DefaultValues, type FieldValues } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A react-hook-form form checked by a shared zod schema (its input type in the fields, its
 * output handed to submit), with the fields' errors at hand as `errors`.
 */
export function useZodForm<Input extends FieldValues, Output>(schema: z.ZodType<Output, Input>, defaultValues: NoInfer<DefaultValues<Input>>) {
  const form = useForm<Input, unknown, Output>({ resolver: zodResolver(schema), defaultValues });
  return { ...form, errors: form.formState.errors };
}
