import { formatDateTime, uiText } from '@kestrel/shared';
import toast from 'react-hot-toast';
import { Button } from '../../../components/Button.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { errorMessage } from '../../../lib/http.ts';
import { useSignedInDevices, useSignOutDevice, useSignOutOtherDevices, type SessionView } from '../api.ts';

const t = uiText.myAccount;

function DeviceRow({ session }: { session: SessionView }) {
  const signOut = useSignOutDevice();
  const pending = signOut.isPending && signOut.variables === session._id;
  return (
    <li className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center sm:justify-between sm:gap-6">
      <div className="min-w-0">
        <p className="font-semibold text-slate-900">
          {session.device}
          {session.current && <span className="ml-2 inline-block rounded-full bg-success-50 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-success-700">{t.thisDevice}</span>}
        </p>
        <p className="text-sm break-words text-slate-600">
          {session.ip ?? '—'} · {t.signedIn} <time dateTime={session.signedInAt}>{formatDateTime(session.signedInAt)}</time> · {t.lastSeen}{' '}
          <time dateTime={session.lastSeenAt}>{formatDateTime(session.lastSeenAt)}</time>
        </p>
      </div>
      {!session.current && (
        <Button
          variant="secondary"
          className="shrink-0 self-start sm:self-center"
          loading={pending}
          disabled={pending}
          aria-label={`${t.signOut}: ${session.device}, ${session.ip ?? ''}`}
          onClick={() =>
            signOut.mutate(session._id, {
              onSuccess: (answer) => toast.success(answer.message ?? t.signOut),
              onError: (error) => toast.error(errorMessage(error, t.devicesFailed)),
            })
          }
        >
          {t.signOut}
        </Button>
      )}
    </li>
  );
}

/** My Account → Security: where the user is signed in, with sign-out for one device or all others. */
export function SignedInDevices() {
  const devices = useSignedInDevices();
  const signOutOthers = useSignOutOtherDevices();
  let body;
  if (devices.isPending) {
    body = (
      <div className="flex justify-center py-10 text-brand-700">
        <Spinner className="size-8" label={t.devicesTitle} />
      </div>
    );
  } else if (devices.isError) {
    body = (
      <p role="alert" className="rounded-lg bg-danger-50 p-4 text-danger-700">
        {errorMessage(devices.error, t.devicesFailed)}
      </p>
    );
  } else {
    const others = devices.data.filter((session) => !session.current).length;
    body = (
      <>
        <ul aria-label={t.devicesTitle} className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white shadow-xs">
          {devices.data.map((session) => (
            <DeviceRow key={session._id} session={session} />
          ))}
        </ul>
        {others === 0 ? (
          <p className="text-sm text-slate-600">{t.noOtherDevices}</p>
        ) : (
          <Button
            variant="danger"
            className="self-start"
            loading={signOutOthers.isPending}
            disabled={signOutOthers.isPending}
            onClick={() =>
              signOutOthers.mutate(undefined, {
                onSuccess: (answer) => toast.success(answer.message ?? t.signOutOthers),
                onError: (error) => toast.error(errorMessage(error, t.devicesFailed)),
              })
            }
          >
            {t.signOutOthers}
          </Button>
        )}
      </>
    );
  }
  return (
    <section aria-labelledby="devices-title" className="flex flex-col gap-4">
      <div>
        <h2 id="devices-title" className="text-base font-semibold text-slate-900">
          {t.devicesTitle}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t.devicesHint}</p>
      </div>
      {body}
    </section>
  );
}
