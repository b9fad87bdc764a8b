import { zodResolver } from '@hookform/resolvers/zod';
import { newStoreForm, storeMessages, type NewStoreFormValues } from '@kestrel/shared';
import { useState, type ChangeEvent } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { FloatingField } from '../../../components/FloatingField.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { ApiError, errorMessage } from '../../../lib/http.ts';
import { useSession } from '../../../lib/session.ts';
import { useCreateStore } from '../api.ts';

const title = 'New Store';
const formFields = ['storeName', 'storeURL', 'callbackURL', 'tpin'] as const;

function FileField({
  id,
  label,
  multiple,
  error,
  onChange,
  count,
}: {
  id: string;
  label: string;
  multiple: boolean;
  error: string | undefined;
  onChange: (files: File[]) => void;
  count: number;
}) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type="file"
        accept="image/*"
        multiple={multiple}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onChange([...(event.target.files ?? [])])}
        className="block w-full rounded-lg border border-slate-300 bg-white text-sm text-slate-700 file:mr-3 file:h-10 file:border-0 file:bg-brand-50 file:px-4 file:font-semibold file:text-brand-800"
      />
      {count > 0 && <p className="mt-1 text-xs text-slate-600">{count} image{count === 1 ? '' : 's'} chosen</p>}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-danger-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** /payment-gateway/store/new: the new store form (multipart to POST /v1/payment_gateway_store/create). */
export function NewStorePage() {
  const navigate = useNavigate();
  const { userId, accountNumber } = useSession();
  const create = useCreateStore();
  const [logo, setLogo] = useState<File[]>([]);
  const [documents, setDocuments] = useState<File[]>([]);
  const [fileErrors, setFileErrors] = useState<{ storeLogo?: string | undefined; businessDocuments?: string | undefined }>({});
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<NewStoreFormValues>({ resolver: zodResolver(newStoreForm), defaultValues: { storeName: '', storeURL: '', callbackURL: '', tpin: '' } });

  const checkFiles = () => {
    const next: typeof fileErrors = {};
    if (logo.length === 0) next.storeLogo = storeMessages.logoRequired;
    else if (!logo.every((file) => file.type.startsWith('image/'))) next.storeLogo = storeMessages.imagesOnly;
    if (documents.length === 0) next.businessDocuments = storeMessages.documentsRequired;
    else if (!documents.every((file) => file.type.startsWith('image/'))) next.businessDocuments = storeMessages.imagesOnly;
    setFileErrors(next);
    return Object.keys(next).length === 0;
  };

  const submit = handleSubmit(
    (values) => {
      if (!checkFiles()) return;
      const form = new FormData();
      form.append('accountKey', accountNumber ?? '');
      form.append('userId', userId ?? '');
      for (const field of formFields) form.append(field, values[field]);
      form.append('storeLogo', logo[0]!);
      for (const file of documents) form.append('businessDocuments', file);
      create.mutate(form, {
        onSuccess: () => {
          toast.success(storeMessages.created);
          void navigate('/payment-gateway');
        },
        onError: (error) => {
          toast.error(errorMessage(error, storeMessages.failed));
          if (error instanceof ApiError && error.fields) {
            for (const [key, message] of Object.entries(error.fields)) {
              if ((formFields as readonly string[]).includes(key)) setError(key as (typeof formFields)[number], { message });
              if (key === 'storeLogo' || key === 'businessDocuments') setFileErrors((current) => ({ ...current, [key]: message }));
            }
          }
        },
      });
    },
    () => checkFiles(),
  );

  return (
    <>
      <PageTitle title={title} />
      <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Create a new store</h1>
      <form noValidate onSubmit={(event) => void submit(event)} className="max-w-2xl space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-xs sm:p-6">
        <FloatingField label="Store Name" autoComplete="organization" error={errors.storeName?.message} {...register('storeName')} />
        <FloatingField label="Store URL" type="url" inputMode="url" error={errors.storeURL?.message} {...register('storeURL')} />
        <FloatingField label="Callback URL" type="url" inputMode="url" error={errors.callbackURL?.message} {...register('callbackURL')} />
        <FloatingField label="TPIN" type="password" inputMode="numeric" maxLength={4} autoComplete="off" error={errors.tpin?.message} {...register('tpin')} />
        <FileField
          id="store-logo"
          label="Store Logo"
          multiple={false}
          error={fileErrors.storeLogo}
          count={logo.length}
          onChange={(files) => {
            setLogo(files);
            setFileErrors((current) => ({ ...current, storeLogo: undefined }));
          }}
        />
        <FileField
          id="business-documents"
          label="Business documents"
          multiple
          error={fileErrors.businessDocuments}
          count={documents.length}
          onChange={(files) => {
            setDocuments(files);
            setFileErrors((current) => ({ ...current, businessDocuments: undefined }));
          }}
        />
        <div className="flex flex-wrap gap-3 pt-2">
          <Button type="submit" size="lg" loading={create.isPending}>
            Create Store
          </Button>
          <Button type="button" size="lg" variant="secondary" onClick={() => void navigate('/payment-gateway')}>
            Cancel
          </Button>
        </div>
      </form>
    </>
  );
}
