import { useZodForm } from '../../../lib/zod-form.ts';
import {
  accountBodyFieldToFormField,
  accountFieldLabels,
  ACCOUNT_TYPES,
  completeAccountForm,
  completeAccountFormToBody,
  CURRENCIES,
  IDENTITY_TYPES,
  messages,
  MINIMUM_AGE_YEARS,
  NOTIFICATION_PREFERENCES,
  requiredMessage,
  TPIN_LENGTH,
  uiText,
} from '@kestrel/shared';
import { useState, type ReactNode } from 'react';
import { Controller, useWatch, type DefaultValues, type SubmitHandler } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { FloatingField, PasswordField } from '../../../components/FloatingField.tsx';
import { SelectField } from '../../../components/SelectField.tsx';
import { flashAfterReload } from '../../../lib/flash.ts';
import { ApiError, errorMessage } from '../../../lib/http.ts';
import { setActiveAccount } from '../../../lib/session.ts';
import type { UserProfile } from '../../auth/api.ts';
import { IdentityUploadError, useCountries, useOpenAccount, type CreatedAccount } from '../api.ts';
import { identityTypeLabels, notificationPreferenceLabels } from '../labels.ts';
import { IdentityImagesInput, MAX_IDENTITY_IMAGE_BYTES, MAX_IDENTITY_IMAGES } from './IdentityImagesInput.tsx';
import { SubmitStateButton, type SubmitState } from './SubmitStateButton.tsx';

const t = uiText.completeAccount;
const labels = accountFieldLabels;

/** The identity images: at least one, images only (the server checks the bytes again), size-capped. */
const identityImagesField = z
  .array(z.custom<File>((value) => value instanceof File))
  .min(1, requiredMessage('identityImage'))
  .max(MAX_IDENTITY_IMAGES, messages.account.identityImageTooMany)
  .refine((files) => files.every((file) => file.type.startsWith('image/')), messages.account.identityImagesOnly)
  .refine((files) => files.every((file) => file.size <= MAX_IDENTITY_IMAGE_BYTES), messages.account.identityImageTooLarge);

/** The shared form schema (the spec's messages) plus the files, which only the browser holds. */
const formSchema = completeAccountForm.safeExtend({ identityImages: identityImagesField });
type FormInput = z.input<typeof formSchema>;
type FormOutput = z.output<typeof formSchema>;
type FormField = keyof FormInput;

/** The latest date of birth that is 16 today, for the date picker's upper bound (the schema decides). */
function latestBirthDate(now: Date): string {
  const date = new Date(Date.UTC(now.getFullYear() - MINIMUM_AGE_YEARS, now.getMonth(), now.getDate()));
  return date.toISOString().slice(0, 10);
}
const maxBirthDate = latestBirthDate(new Date());

/** The four 409s of account creation and what the form makes of them (spec, section 8). */
const conflicts: Record<string, { field: FormField; message: string } | { toast: string }> = {
  [messages.account.userNameTaken]: { field: 'userName', message: messages.account.userNameTakenField },
  [messages.account.accountEmailTaken]: { field: 'accountEmail', message: messages.account.accountEmailTakenField },
  [messages.account.accountPhoneTaken]: { field: 'accountPhone', message: messages.account.accountPhoneTakenField },
  [messages.account.identityNumberTaken]: { toast: messages.account.identityNumberTakenToast },
};

/** The form's starting values; the choices without a default start unchosen, so a required one shows its message. */
function startValues(user: UserProfile): DefaultValues<FormInput> {
  // A first account usually belongs to the person who signed up: start from their details.
  const first = user.accounts.length === 0;
  return {
    accountHolderName: first ? `${user.firstName} ${user.lastName}`.trim() : '',
    businessName: '',
    companyName: '',
    accountEmail: first ? user.email : '',
    accountPhone: first ? user.contactNumber : '',
    userName: '',
    dateOfBirth: '',
    country: '',
    city: '',
    state: '',
    street: '',
    zipCode: '',
    currency: 'USD',
    occupation: '',
    annualIncome: '',
    identityNumber: '',
    tpin: '',
    identityImages: [],
  };
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="min-w-0 border-t border-slate-200 pt-5">
      <legend className="pr-3 text-sm font-semibold tracking-wide text-slate-500 uppercase">{title}</legend>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}

/**
 * 'Complete Your Personal/Business Account': opens an account for the signed-in user
 * (POST /v1/account/create, then PATCH /v1/account/upload-image with the identity images).
 * The portal gate shows it to a verified user without an account; /new-account shows it
 * inside the shell for another one.
 */
export function CompleteAccountForm({ user }: { user: UserProfile }) {
  const navigate = useNavigate();
  const countries = useCountries();
  const openAccount = useOpenAccount();
  const [state, setState] = useState<Exclude<SubmitState, 'loading'>>('idle');
  /** An account an earlier submit created whose images did not upload: a retry only uploads. */
  const [created, setCreated] = useState<CreatedAccount>();

  const { register, handleSubmit, control, reset, setError, errors } = useZodForm(formSchema, startValues(user));

  const accountType = useWatch({ control, name: 'accountType' });
  const business = accountType === 'business';
  const title = accountType && ACCOUNT_TYPES.includes(accountType) ? t.title(accountType) : uiText.portal.completeAccountTitle;

  const showServerError = (error: unknown) => {
    if (error instanceof IdentityUploadError) {
      setCreated(error.account);
      toast.error(errorMessage(error.cause, error.message));
      return;
    }
    if (error instanceof ApiError && error.fromServer) {
      const conflict = error.status === 409 ? conflicts[error.message] : undefined;
      if (conflict && 'field' in conflict) {
        setError(conflict.field, { type: 'server', message: conflict.message }, { shouldFocus: true });
        return;
      }
      if (conflict) {
        toast.error(conflict.toast);
        return;
      }
      // A validation answer names the body's fields ('address.city'); show each under its input.
      for (const [bodyField, message] of Object.entries(error.fields ?? {})) {
        const field = accountBodyFieldToFormField[bodyField] ?? bodyField;
        if (field in formSchema.shape) setError(field as FormField, { type: 'server', message });
      }
    }
    toast.error(errorMessage(error, messages.generic.internal));
  };

  const onSubmit: SubmitHandler<FormOutput> = (values) => {
    setState('idle');
    openAccount.mutate(
      { body: completeAccountFormToBody(values, user._id), identityImages: values.identityImages, created },
      {
        onSuccess: (account) => {
          setState('success');
          // The spec goes to /dashboard and reloads; the toast is shown after the reload.
          flashAfterReload({ kind: 'success', message: messages.account.created });
          setActiveAccount({ accountNumber: account.accountNumber, accountEmail: account.accountEmail, userName: account.userName });
          window.location.assign('/dashboard');
        },
        onError: (error) => {
          setState('error');
          showServerError(error);
        },
      },
    );
  };

  const onCancel = () => {
    // Without values, reset also resets the native form, so radios and selects read unchosen again.
    reset();
    setState('idle');
    if (created) {
      // The account exists (only its images are missing): it is the user's account now.
      setActiveAccount({ accountNumber: created.accountNumber, accountEmail: created.accountEmail, userName: created.userName });
      window.location.assign('/dashboard');
      return;
    }
    if (user.accounts.length > 0) void navigate('/dashboard');
    else toast.error(messages.portal.accountRequired);
  };

  const submitState: SubmitState = openAccount.isPending ? 'loading' : state;

  return (
    <section aria-labelledby="complete-account-title" className="w-full max-w-3xl rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
      <h1 id="complete-account-title" className="text-2xl font-bold tracking-tight text-slate-900">
        {title}
      </h1>
      <p className="mt-1 text-slate-600">Every field is required. Your identity documents are reviewed by our staff.</p>

      <form onSubmit={handleSubmit(onSubmit)} noValidate className="mt-6 space-y-7">
        <fieldset aria-describedby={errors.accountType ? 'account-type-error' : undefined}>
          <legend className="text-sm font-semibold text-slate-900">{labels.accountType}</legend>
          <div className="mt-3 grid grid-cols-2 gap-3">
            {ACCOUNT_TYPES.map((type) => (
              <label
                key={type}
                className={`flex h-14 cursor-pointer items-center gap-3 rounded-lg border px-4 font-medium transition-colors has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:checked]:text-brand-900 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${
                  errors.accountType ? 'border-danger-600' : 'border-slate-300 hover:border-slate-400'
                }`}
              >
                <input type="radio" value={type} className="size-4 accent-brand-700 focus-visible:outline-none" {...register('accountType')} />
                {type === 'business' ? t.business : t.personal}
              </label>
            ))}
          </div>
          {errors.accountType?.message && (
            <p id="account-type-error" className="mt-1.5 text-sm font-medium text-danger-700">
              {errors.accountType.message}
            </p>
          )}
        </fieldset>

        {business && (
          <Section title="Business">
            <FloatingField label={labels.businessName} autoComplete="organization" error={errors.businessName?.message} {...register('businessName')} />
            <FloatingField label={labels.companyName} error={errors.companyName?.message} {...register('companyName')} />
          </Section>
        )}

        <Section title="Account holder">
          <FloatingField
            label={labels.accountHolderName}
            autoComplete="name"
            className="sm:col-span-2"
            error={errors.accountHolderName?.message}
            {...register('accountHolderName')}
          />
          <FloatingField label={labels.accountEmail} type="email" inputMode="email" autoComplete="email" error={errors.accountEmail?.message} {...register('accountEmail')} />
          <FloatingField label={labels.accountPhone} type="tel" inputMode="tel" autoComplete="tel" error={errors.accountPhone?.message} {...register('accountPhone')} />
          <FloatingField
            label={labels.userName}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            error={errors.userName?.message}
            {...register('userName')}
          />
          <FloatingField
            label={`${labels.dateOfBirth} (${t.dateOfBirthHint})`}
            type="date"
            max={maxBirthDate}
            autoComplete="bday"
            error={errors.dateOfBirth?.message}
            {...register('dateOfBirth')}
          />
        </Section>

        <Section title="Address">
          <SelectField
            label={labels.country}
            placeholderOption={countries.isPending ? 'Loading countries…' : 'Select a country'}
            autoComplete="country-name"
            className="sm:col-span-2"
            error={errors.country?.message ?? (countries.isError ? 'The countries list could not be loaded. Reload the page to try again.' : undefined)}
            {...register('country')}
          >
            {countries.data?.map((country) => (
              // The code is stored (as the demo data stores it); the name is what people read.
              <option key={country.code} value={country.code}>
                {country.name}
              </option>
            ))}
          </SelectField>
          <FloatingField label={labels.city} autoComplete="address-level2" error={errors.city?.message} {...register('city')} />
          <FloatingField label={labels.state} autoComplete="address-level1" error={errors.state?.message} {...register('state')} />
          <FloatingField label={labels.street} autoComplete="address-line1" error={errors.street?.message} {...register('street')} />
          <FloatingField label={labels.zipCode} autoComplete="postal-code" error={errors.zipCode?.message} {...register('zipCode')} />
        </Section>

        <Section title="Account details">
          <SelectField label={labels.currency} error={errors.currency?.message} {...register('currency')}>
            {CURRENCIES.map((currency) => (
              <option key={currency} value={currency}>
                {currency}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={labels.notificationPreference}
            placeholderOption="Select"
            error={errors.notificationPreference?.message}
            {...register('notificationPreference')}
          >
            {NOTIFICATION_PREFERENCES.map((preference) => (
              <option key={preference} value={preference}>
                {notificationPreferenceLabels[preference]}
              </option>
            ))}
          </SelectField>
          <FloatingField label={labels.occupation} autoComplete="organization-title" error={errors.occupation?.message} {...register('occupation')} />
          <FloatingField label={labels.annualIncome} error={errors.annualIncome?.message} {...register('annualIncome')} />
        </Section>

        <Section title="Identity">
          <SelectField label={labels.identityType} placeholderOption="Select" error={errors.identityType?.message} {...register('identityType')}>
            {IDENTITY_TYPES.map((type) => (
              <option key={type} value={type}>
                {identityTypeLabels[type]}
              </option>
            ))}
          </SelectField>
          <FloatingField label={labels.identityNumber} autoComplete="off" error={errors.identityNumber?.message} {...register('identityNumber')} />
          <Controller
            control={control}
            name="identityImages"
            render={({ field, fieldState }) => (
              <IdentityImagesInput
                label={labels.identityImage}
                files={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={field.ref}
                error={fieldState.error?.message}
                className="sm:col-span-2"
              />
            )}
          />
        </Section>

        <Section title="Security">
          <PasswordField
            label="new TPIN"
            inputMode="numeric"
            maxLength={TPIN_LENGTH}
            autoComplete="new-password"
            error={errors.tpin?.message}
            {...register('tpin')}
          />
          <p className="self-center text-sm text-slate-600">Your TPIN approves payments and transfers from this account. Keep it to yourself.</p>
        </Section>

        <div className="flex flex-col-reverse gap-3 border-t border-slate-200 pt-6 sm:flex-row sm:justify-end">
          <button
            type="button"
            onClick={onCancel}
            className="inline-flex h-12 items-center justify-center rounded-lg border border-slate-300 bg-white px-5 font-semibold text-slate-800 shadow-sm hover:bg-slate-50"
          >
            {t.cancel}
          </button>
          <SubmitStateButton state={submitState} label={t.submit} />
        </div>
      </form>
    </section>
  );
}
