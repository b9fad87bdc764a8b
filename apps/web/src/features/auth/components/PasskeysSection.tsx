import { zodResolver } from '@hookform/resolvers/zod';
import {
  formatDateTime,
  passkeyMessages,
  passkeySignInText,
  passkeyNameForm,
  passkeyRemoveForm,
  passkeyText as t,
  reauthenticationForm,
  type PasskeyNameFormInput,
  type PasskeyNameFormValues,
  type PasskeyRemoveFormInput,
  type PasskeyRemoveFormValues,
} from '@kestrel/shared';
import { useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { Button } from '../../../components/Button.tsx';
import { FloatingField } from '../../../components/FloatingField.tsx';
import { ApiError, errorMessage } from '../../../lib/http.ts';
import { isBrowserPasskeyError } from '../../../lib/passkeys.ts';
import { CurrentCodeField, passwordRefusal, ReauthenticationField, SectionWait, SecurityForm } from './SecurityForm.tsx';
import { twoFactorKeys, useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey, useTwoFactorStatus, type PasskeyView } from '../api.ts';
import { useQueryClient } from '@tanstack/react-query';

/** A refusal the server explained goes under the field; the browser's own (cancelled, timed out) and anything else is a toast. */
function failureMessage(error: unknown, fallback: string): string {
  if (isBrowserPasskeyError(error)) return passkeySignInText.cancelled;
  return errorMessage(error, fallback);
}

/** The new passkey's name and the account's password (re-authentication), checked together in the browser. */
const addPasskeyForm = passkeyNameForm.extend(reauthenticationForm.shape);
type AddPasskeyFormInput = PasskeyNameFormInput & { password: string };
type AddPasskeyFormValues = PasskeyNameFormValues & { password: string };

/**
 * Names the new passkey and asks for the password (a stolen session must not add the thief's
 * passkey), then the browser makes it (fingerprint, face or screen lock).
 */
function AddForm({ onDone }: { onDone: () => void }) {
  const add = useAddPasskey();
  const queryClient = useQueryClient();
  const { register, handleSubmit, setError, formState } = useForm<AddPasskeyFormInput, unknown, AddPasskeyFormValues>({ resolver: zodResolver(addPasskeyForm), defaultValues: { name: '', password: '' } });
  return (
    <SecurityForm
      submit={t.create}
      pending={add.isPending}
      onCancel={onDone}
      cancel={t.cancel}
      onSubmit={handleSubmit(({ name, password }) =>
        add.mutate({ name, password }, {
          onSuccess: (answer) => {
            toast.success(answer.message ?? passkeyMessages.added);
            // A passkey is a second factor: the password step now asks for it.
            void queryClient.invalidateQueries({ queryKey: twoFactorKeys.all });
            onDone();
          },
          onError: (error) => {
            const refusal = passwordRefusal(error);
            if (refusal) setError('password', { message: refusal }, { shouldFocus: true });
            else if (error instanceof ApiError && error.fromServer && error.fields?.name) setError('name', { message: error.fields.name }, { shouldFocus: true });
            else toast.error(failureMessage(error, passkeyMessages.registrationFailed));
          },
        }),
      )}
    >
      <p className="text-sm text-slate-600">{t.addHint}</p>
      <FloatingField label={t.name} autoComplete="off" maxLength={60} autoFocus {...register('name')} error={formState.errors.name?.message} />
      <ReauthenticationField {...register('password')} error={formState.errors.password?.message} />
    </SecurityForm>
  );
}

/** A new name for a passkey, with the same rules as the name it was added with. */
function RenameForm({ passkey, onDone }: { passkey: PasskeyView; onDone: () => void }) {
  const rename = useRenamePasskey();
  const { register, handleSubmit, setError, formState } = useForm<PasskeyNameFormInput, unknown, PasskeyNameFormValues>({ resolver: zodResolver(passkeyNameForm), defaultValues: { name: passkey.name } });
  return (
    <SecurityForm
      aria-label={`${t.renameTitle}: ${passkey.name}`}
      className="mt-3 flex flex-col gap-4 rounded-xl border border-slate-200 bg-slate-50 p-4"
      submit={t.save}
      pending={rename.isPending}
      onCancel={onDone}
      cancel={t.cancel}
      onSubmit={handleSubmit(({ name }) =>
        rename.mutate(
          { passkeyId: passkey._id, name },
          {
            onSuccess: (answer) => {
              toast.success(answer.message ?? passkeyMessages.renamed);
              onDone();
            },
            onError: (error) => {
              if (error instanceof ApiError && error.fromServer && error.fields?.name) setError('name', { message: error.fields.name }, { shouldFocus: true });
              else toast.error(errorMessage(error, t.renameFailed));
            },
          },
        ),
      )}
    >
      <FloatingField label={t.name} autoComplete="off" maxLength={60} autoFocus {...register('name')} error={formState.errors.name?.message} />
    </SecurityForm>
  );
}

/**
 * Removing asks for a current second factor, as turning the app off does: with the app on, a
 * code from it or a recovery code; and always one of the person's passkeys (the browser's
 * prompt), the only way when passkeys are all they have. Never the password alone.
 */
function RemoveForm({ passkey, onCancel }: { passkey: PasskeyView; onCancel: () => void }) {
  const remove = useRemovePasskey();
  const appOn = useTwoFactorStatus().data?.enabled === true;
  const { register, handleSubmit, setError, formState } = useForm<PasskeyRemoveFormInput, unknown, PasskeyRemoveFormValues>({
    resolver: zodResolver(passkeyRemoveForm),
    defaultValues: { code: '' },
  });
  const removeWith = (confirm: { code: string } | 'passkey') =>
    remove.mutate(
      { passkeyId: passkey._id, confirm },
      {
        onSuccess: (answer) => toast.success(answer.message ?? passkeyMessages.removed),
        onError: (error) => {
          if (confirm !== 'passkey' && error instanceof ApiError && error.fromServer && error.status === 400) setError('code', { message: error.message }, { shouldFocus: true });
          else toast.error(failureMessage(error, t.failed));
        },
      },
    );
  const title = (
    <div>
      <p className="text-sm font-semibold text-slate-900">{t.removeTitle}</p>
      <p className="mt-1 text-sm text-slate-600">{appOn ? t.removeHint : t.removeHintPasskeysOnly}</p>
    </div>
  );
  // Passkeys only: the submit button is the passkey prompt. With the app on: a code, or the passkey button.
  const onSubmit = appOn
    ? handleSubmit(({ code }) => removeWith({ code }))
    : (event: FormEvent) => {
        event.preventDefault();
        removeWith('passkey');
      };
  return (
    <SecurityForm
      aria-label={`${t.removeTitle} ${passkey.name}`}
      className="mt-3 flex flex-col gap-4 rounded-xl border border-slate-200 bg-slate-50 p-4"
      submit={t.confirmRemove}
      danger
      pending={remove.isPending}
      onCancel={onCancel}
      cancel={t.cancel}
      onSubmit={onSubmit}
    >
      {title}
      {appOn && (
        <>
          <CurrentCodeField label={t.code} maxLength={40} {...register('code')} error={formState.errors.code?.message} />
          <Button variant="secondary" className="self-start" disabled={remove.isPending} onClick={() => removeWith('passkey')}>
            {t.usePasskey}
          </Button>
        </>
      )}
    </SecurityForm>
  );
}

function PasskeyRow({ passkey }: { passkey: PasskeyView }) {
  const [open, setOpen] = useState<'rename' | 'remove' | null>(null);
  return (
    <li className="px-5 py-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between sm:gap-6">
        <div className="min-w-0">
          <p className="font-semibold break-words text-slate-900">{passkey.name}</p>
          <p className="text-sm text-slate-600">
            {t.created} <time dateTime={passkey.createdAt}>{formatDateTime(passkey.createdAt)}</time> · {t.lastUsed}{' '}
            {passkey.lastUsedAt ? <time dateTime={passkey.lastUsedAt}>{formatDateTime(passkey.lastUsedAt)}</time> : t.never}
          </p>
        </div>
        {open === null && (
          <div className="flex shrink-0 gap-2 self-start sm:self-center">
            <Button variant="secondary" aria-label={`${t.rename}: ${passkey.name}`} onClick={() => setOpen('rename')}>
              {t.rename}
            </Button>
            <Button variant="secondary" aria-label={`${t.remove}: ${passkey.name}`} onClick={() => setOpen('remove')}>
              {t.remove}
            </Button>
          </div>
        )}
      </div>
      {open === 'rename' && <RenameForm passkey={passkey} onDone={() => setOpen(null)} />}
      {open === 'remove' && <RemoveForm passkey={passkey} onCancel={() => setOpen(null)} />}
    </li>
  );
}

/**
 * My Account → Security: passkeys (issue 25). Each one signs in without the password, and
 * answers the second step after it; adding one turns two-factor sign-in on. The browser part
 * (@simplewebauthn/browser) is downloaded when "Create passkey" is pressed, not with the page.
 */
export function PasskeysSection() {
  const passkeys = usePasskeys();
  const [adding, setAdding] = useState(false);
  let body;
  if (passkeys.isPending || passkeys.isError) {
    body = <SectionWait query={passkeys} label={t.title} fallback={t.failed} />;
  } else {
    body = (
      <>
        {passkeys.data.length === 0 ? (
          <p className="text-sm text-slate-600">{t.none}</p>
        ) : (
          <ul aria-label={t.title} className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white shadow-xs">
            {passkeys.data.map((passkey) => (
              <PasskeyRow key={passkey._id} passkey={passkey} />
            ))}
          </ul>
        )}
        {adding ? (
          <AddForm onDone={() => setAdding(false)} />
        ) : (
          <Button className="self-start" onClick={() => setAdding(true)}>
            {t.add}
          </Button>
        )}
      </>
    );
  }
  return (
    <section aria-labelledby="passkeys-title" className="flex flex-col gap-4">
      <div>
        <h2 id="passkeys-title" className="text-base font-semibold text-slate-900">
          {t.title}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t.hint}</p>
      </div>
      {body}
    </section>
  );
}
