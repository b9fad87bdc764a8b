import { formatDateTime, messages, PRODUCT_NAME, uiText } from '@kestrel/shared';
import { useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { AlertCircleIcon, CheckCircleIcon, ShieldIcon } from '../../../components/icons.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { Tabs } from '../../../components/Tabs.tsx';
import { errorMessage } from '../../../lib/http.ts';
import { formatApiMoney } from '../../../lib/money.ts';
import { accountDisplayName } from '../account-name.ts';
import { useActiveAccount, useActivities, useCountryName, type Account } from '../api.ts';
import { IdentityImageThumb } from '../components/IdentityImageThumb.tsx';
import { SampleIdBack, SampleIdFront } from '../components/SampleIdCard.tsx';
import { Statements } from '../components/Statements.tsx';
import { identityTypeLabels } from '../labels.ts';
import { SignedInDevices } from '../../auth/components/SignedInDevices.tsx';
import { PasskeysSection } from '../../auth/components/PasskeysSection.tsx';
import { TwoFactorSection } from '../../auth/components/TwoFactorSection.tsx';

const t = uiText.myAccount;
type TabKey = 'basic' | 'activities' | 'statements' | 'security';
const tabs = [
  { key: 'basic', label: t.basicInfo },
  { key: 'activities', label: t.activities },
  { key: 'statements', label: t.statements },
  { key: 'security', label: t.security },
] as const;
const tabKeys: readonly string[] = tabs.map((entry) => entry.key);

function Card({ title, children, className = '' }: { title: string; children: ReactNode; className?: string }) {
  return (
    <section className={`rounded-2xl border border-slate-200 bg-white p-5 shadow-xs sm:p-6 ${className}`}>
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-0.5 font-medium break-words text-slate-900">{children}</dd>
    </div>
  );
}

function VerifiedBadge({ verified }: { verified: boolean }) {
  return verified ? (
    <span className="inline-flex items-center gap-1 rounded-full bg-success-50 px-2.5 py-0.5 text-sm font-semibold text-success-700 ring-1 ring-success-700/20">
      <CheckCircleIcon className="size-4" />
      {t.verified}
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 rounded-full bg-warning-50 px-2.5 py-0.5 text-sm font-semibold text-warning-700 ring-1 ring-warning-700/20">
      <AlertCircleIcon className="size-4" />
      {t.unverified}
    </span>
  );
}

/** Front and back of a sample identity card, one at a time. */
function SampleIdToggle() {
  const [side, setSide] = useState<'front' | 'back'>('front');
  return (
    <div>
      <div role="group" aria-label="Sample ID side" className="inline-flex rounded-lg border border-slate-300 bg-slate-50 p-0.5">
        {(['front', 'back'] as const).map((value) => (
          <button
            key={value}
            type="button"
            aria-pressed={side === value}
            onClick={() => setSide(value)}
            className={`h-8 rounded-md px-3 text-sm font-semibold transition-colors ${
              side === value ? 'bg-white text-brand-800 shadow-sm' : 'text-slate-600 hover:text-slate-900'
            }`}
          >
            {value === 'front' ? t.front : t.back}
          </button>
        ))}
      </div>
      <figure className="mt-3">
        {side === 'front' ? <SampleIdFront /> : <SampleIdBack />}
        <figcaption className="mt-1.5 text-sm text-slate-600">
          Sample ID, {side === 'front' ? t.front.toLowerCase() : t.back.toLowerCase()}: upload both sides, sharp and uncropped.
        </figcaption>
      </figure>
    </div>
  );
}

function BasicInfo({ account }: { account: Account }) {
  // Stored as its ISO code (issue 20); shown by its name.
  const country = useCountryName(account.address.country);
  const onVerify = () =>
    toast(
      account.identityImages.length > 0
        ? `Identity review is done by ${PRODUCT_NAME} staff after upload. Your documents are in the queue; the badge turns Verified when the review is done.`
        : `Identity review is done by ${PRODUCT_NAME} staff after upload. Upload your identity images first.`,
      { id: 'verify-now' },
    );

  return (
    <div className="grid gap-5 lg:grid-cols-3">
      <Card title="Account details" className="lg:col-span-2">
        <dl className="grid gap-x-6 gap-y-4 sm:grid-cols-2">
          <Detail label={t.accountNumber}>
            <span className="tabular-nums">{account.accountNumber}</span>
          </Detail>
          <Detail label={t.accountType}>
            <span className="capitalize">{account.accountType}</span>
          </Detail>
          <Detail label={t.userName}>{account.userName}</Detail>
          <Detail label={t.email}>{account.accountEmail}</Detail>
          <Detail label={t.phone}>{account.accountPhone}</Detail>
          <Detail label={t.since}>{formatDateTime(account.createdAt)}</Detail>
          <Detail label="Country">{country}</Detail>
        </dl>
      </Card>

      <Card title={t.available}>
        <ul className="space-y-3">
          {account.balance.map((balance) => (
            <li key={balance.currency} className="flex items-baseline justify-between gap-3">
              <span className="text-sm font-medium text-slate-600">{balance.currency}</span>
              <span className="text-2xl font-bold tracking-tight text-slate-900 tabular-nums">{formatApiMoney(balance.amount, balance.currency)}</span>
            </li>
          ))}
        </ul>
      </Card>

      <Card title={t.identity} className="lg:col-span-3">
        <div className="grid gap-6 md:grid-cols-2">
          <div className="space-y-5">
            <dl className="grid gap-4 sm:grid-cols-2">
              <Detail label="Type">
                <span className="inline-flex items-center gap-1.5">
                  <ShieldIcon className="size-5 shrink-0 text-brand-700" />
                  {identityTypeLabels[account.identity.type]}
                </span>
              </Detail>
              <Detail label="Number">
                <span className="tabular-nums">{account.identity.number}</span>
              </Detail>
              <Detail label="Status">
                <VerifiedBadge verified={account.identity.isVerified} />
              </Detail>
            </dl>
            {!account.identity.isVerified && (
              <Button variant="secondary" onClick={onVerify}>
                {t.verifyNow}
              </Button>
            )}
            <div>
              <h3 className="text-sm font-semibold text-slate-900">Uploaded documents</h3>
              {account.identityImages.length > 0 ? (
                <ul className="mt-2 flex flex-wrap gap-3">
                  {account.identityImages.map((image, index) => (
                    <li key={image._id}>
                      <IdentityImageThumb image={image} index={index} />
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="mt-1 text-sm text-slate-600">No identity images uploaded yet.</p>
              )}
            </div>
          </div>
          <SampleIdToggle />
        </div>
      </Card>
    </div>
  );
}

function ActivitiesList({ accountId }: { accountId: string }) {
  const activities = useActivities(accountId);
  if (activities.isPending) {
    return (
      <div className="flex justify-center py-10 text-brand-700">
        <Spinner className="size-8" label="Loading activities" />
      </div>
    );
  }
  if (activities.isError) {
    return (
      <p role="alert" className="rounded-lg bg-danger-50 p-4 text-danger-700">
        {errorMessage(activities.error, 'The activities could not be loaded.')}
      </p>
    );
  }
  const items = activities.data.flatMap((group) => group.activities);
  if (items.length === 0) return <p className="py-6 text-slate-600">No activities yet.</p>;
  return (
    <ol aria-label={t.activities} className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white shadow-xs">
      {items.map((activity) => (
        <li key={activity._id} className="flex flex-col gap-1 px-5 py-4 sm:flex-row sm:items-start sm:justify-between sm:gap-6">
          <div className="min-w-0">
            <p className="font-semibold text-slate-900">{activity.name}</p>
            <p className={`text-sm ${activity.comment ? 'text-slate-700' : 'text-slate-500 italic'}`}>{activity.comment ?? t.noComment}</p>
          </div>
          <time dateTime={activity.date} className="shrink-0 text-sm text-slate-600 tabular-nums">
            {formatDateTime(activity.date)}
          </time>
        </li>
      ))}
    </ol>
  );
}

/** /my-account: the active account's 'Basic info', 'Activities' and 'Statements', and the user's 'Security' (signed-in devices). */
export function MyAccountPage() {
  const account = useActiveAccount();
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab') ?? '';
  const tab = (tabKeys.includes(asked) ? asked : 'basic') as TabKey;
  const selectTab = (key: TabKey) => setParams(key === 'basic' ? {} : { tab: key }, { replace: true });

  let body: ReactNode;
  if (account.data) {
    body = (
      <Tabs label={t.title} tabs={tabs} selected={tab} onSelect={selectTab}>
        {tab === 'basic' && <BasicInfo account={account.data} />}
        {tab === 'activities' && <ActivitiesList accountId={account.data._id} />}
        {tab === 'statements' && <Statements accountNumber={account.data.accountNumber} />}
        {tab === 'security' && (
          <div className="flex flex-col gap-10">
            <TwoFactorSection />
            <PasskeysSection />
            <SignedInDevices />
          </div>
        )}
      </Tabs>
    );
  } else if (account.isError) {
    body = (
      <div role="alert" className="rounded-2xl border border-danger-600/30 bg-danger-50 p-5 text-danger-700">
        <p className="font-semibold">{errorMessage(account.error, messages.portal.accountNotAvailable)}</p>
        <Button variant="secondary" className="mt-3" onClick={() => void account.refetch()} loading={account.isFetching}>
          Try again
        </Button>
      </div>
    );
  } else if (account.fetchStatus === 'idle') {
    // No active account cookie yet (the portal gate sets it from the user's first account).
    body = <p className="text-slate-600">{messages.portal.accountNotAvailable}</p>;
  } else {
    body = (
      <div className="flex justify-center py-16 text-brand-700">
        <Spinner className="size-8" label="Loading your account" />
      </div>
    );
  }

  return (
    <>
      <PageTitle title={t.title} />
      <div className="mb-6 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{t.title}</h1>
        {account.data && (
          <span className="rounded-full bg-slate-100 px-3 py-1 text-sm font-medium text-slate-700">
            {accountDisplayName(account.data)}
          </span>
        )}
      </div>
      {body}
    </>
  );
}
