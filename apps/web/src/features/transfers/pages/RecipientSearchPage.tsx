import { RECIPIENT_SEARCH_MIN_LENGTH, transferMessages, uiText } from '@kestrel/shared';
import { useId, useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { CloseIcon, SearchIcon } from '../../../components/icons.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { errorMessage } from '../../../lib/http.ts';
import { useSession } from '../../../lib/session.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useRecentRecipients, useRecipientSearch, type Recipient } from '../api.ts';
import { transferPaths, WALLET_AREA } from '../areas.ts';
import { WalletAreaOnly } from '../components/AreaStatus.tsx';
import { BackLink } from '../components/BackLink.tsx';
import { RecipientList } from '../components/RecipientList.tsx';

export const SEARCH_DEBOUNCE_MS = 300;
const prompt = 'Who do you want to send money to?';
const linkTo = (recipient: Recipient) => transferPaths.transferForm(WALLET_AREA, recipient.userName);

function Message({ children }: { children: ReactNode }) {
  return <p className="rounded-xl bg-slate-50 px-4 py-6 text-center text-sm text-slate-600">{children}</p>;
}

function Loading({ label }: { label: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-2 py-6 text-sm text-slate-600">
      <Spinner className="size-5 text-brand-700" />
      {label}
    </div>
  );
}

function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-xl bg-danger-50 px-4 py-5 text-center text-sm text-danger-700">
      <p>{errorMessage(error, 'The recipients could not be loaded.')}</p>
      <Button variant="secondary" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/** With an empty box: the latest recipients of the active account. */
function RecentRecipients({ headingId }: { headingId: string }) {
  const { accountNumber } = useSession();
  const recent = useRecentRecipients(accountNumber);
  return (
    <section aria-labelledby={headingId} aria-busy={recent.isFetching || undefined}>
      <h2 id={headingId} className="mb-2 text-sm font-semibold tracking-wide text-slate-500 uppercase">
        Recent
      </h2>
      {recent.isPending && recent.fetchStatus !== 'idle' ? (
        <Loading label="Loading recent recipients…" />
      ) : recent.isError && !recent.data ? (
        <LoadError error={recent.error} onRetry={() => void recent.refetch()} />
      ) : recent.data && recent.data.length > 0 ? (
        <RecipientList recipients={recent.data} linkTo={linkTo} label="Recent recipients" />
      ) : (
        <Message>No recent accounts found!</Message>
      )}
    </section>
  );
}

/** With text in the box: the matches. */
function SearchResults({ query, typing, headingId }: { query: string; typing: boolean; headingId: string }) {
  const { accountNumber } = useSession();
  const search = useRecipientSearch(query, accountNumber);
  const results = search.data;
  // Until the box's text has been searched, the list shows the previous answer: marked busy and dimmed.
  const stale = typing || search.isPlaceholderData;
  return (
    <section aria-labelledby={headingId} aria-busy={stale || search.isFetching || undefined} className={stale ? 'opacity-60 transition-opacity' : ''}>
      <h2 id={headingId} className="mb-2 text-sm font-semibold tracking-wide text-slate-500 uppercase">
        Results
      </h2>
      {search.isError && !search.isFetching ? (
        <LoadError error={search.error} onRetry={() => void search.refetch()} />
      ) : !results ? (
        <Loading label="Searching…" />
      ) : results.length > 0 ? (
        <RecipientList recipients={results} linkTo={linkTo} label="Matching recipients" />
      ) : search.isPlaceholderData ? (
        <Loading label="Searching…" />
      ) : (
        <Message>No recipients found.</Message>
      )}
      <p className="sr-only" role="status">
        {results && !stale ? `${results.length} ${results.length === 1 ? 'recipient' : 'recipients'} found` : ''}
      </p>
    </section>
  );
}

function RecipientSearch() {
  const [text, setText] = useState('');
  const settled = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  // Clearing the box shows the recent recipients at once; only searches wait for a pause.
  const query = text.trim() === '' ? '' : settled;
  const inputId = useId();
  const hintId = useId();
  const headingId = useId();
  // Between a keystroke and its search the box and the list disagree; say that work is under way.
  const typing = text.trim() !== query;

  return (
    <>
      <PageTitle title={uiText.nav.fundTransfer} />
      <BackLink to={transferPaths.home}>{uiText.nav.fundTransfer}</BackLink>
      <div className="mt-2 max-w-2xl">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{prompt}</h1>
        <div className="mt-6 rounded-2xl border border-slate-200 bg-white p-4 shadow-xs sm:p-6">
          <label htmlFor={inputId} className="block text-sm font-semibold text-slate-800">
            Search recipient
          </label>
          <p id={hintId} className="mt-0.5 text-sm text-slate-600">
            Account number, email or phone (exactly), or part of the account name (at least {RECIPIENT_SEARCH_MIN_LENGTH} characters). Names show
            in short until you pick the recipient.
          </p>
          <div className="relative mt-2">
            <SearchIcon className="pointer-events-none absolute top-1/2 left-3.5 size-5 -translate-y-1/2 text-slate-500" />
            <input
              id={inputId}
              type="search"
              value={text}
              onChange={(event) => setText(event.target.value)}
              placeholder="Account number, email, phone or account name"
              aria-describedby={hintId}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={100}
              className="block h-12 w-full rounded-lg border border-slate-300 bg-white pr-11 pl-11 text-base text-slate-900 shadow-xs text-ellipsis placeholder:text-slate-500 hover:border-slate-400 focus:border-brand-600 focus:ring-1 focus:ring-brand-600 focus-visible:outline-none [&::-webkit-search-cancel-button]:hidden"
            />
            <span className="absolute inset-y-0 right-1 flex items-center">
              {typing ? (
                <Spinner className="mr-2.5 size-5 text-brand-700" />
              ) : (
                text !== '' && (
                  <button
                    type="button"
                    onClick={() => setText('')}
                    aria-label="Clear search"
                    className="flex size-10 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-900"
                  >
                    <CloseIcon className="size-5" />
                  </button>
                )
              )}
            </span>
          </div>
          <div className="mt-5">
            {text.trim() === '' ? (
              <RecentRecipients headingId={headingId} />
            ) : text.trim().length < RECIPIENT_SEARCH_MIN_LENGTH ? (
              // Shorter text matches nothing on the server; say so instead of asking.
              <Message>{transferMessages.searchTooShort}</Message>
            ) : (
              <SearchResults query={query} typing={typing} headingId={headingId} />
            )}
          </div>
        </div>
      </div>
    </>
  );
}

/** /fund-transfer/:area/recipient: find the account to pay. */
export function RecipientSearchPage() {
  const { area } = useParams();
  return (
    <WalletAreaOnly area={area}>
      <RecipientSearch />
    </WalletAreaOnly>
  );
}
