import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useAccountSearch } from '../api.ts';
import { OpsHeading, Panel, QueryState } from '../components/ui.tsx';

/** /ops/accounts: search by account number, user name, e-mail or phone. */
export function AccountsPage() {
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('q') ?? '');
  const q = useDebouncedValue(text.trim(), 300);
  const results = useAccountSearch(q);
  return (
    <>
      <OpsHeading title="Accounts" />
      <Panel>
        <label htmlFor="ops-account-search" className="mb-1 block text-sm font-medium text-slate-700">
          Account number, user name, e-mail or phone
        </label>
        <input
          id="ops-account-search"
          type="search"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setParams(event.target.value ? { q: event.target.value } : {}, { replace: true });
          }}
          className="h-11 w-full rounded-lg border border-slate-300 px-3 focus:border-brand-700 focus:outline-2 focus:outline-brand-700"
        />
      </Panel>
      <div className="mt-4">
        {q.length < 2 ? (
          <p className="text-slate-600">Type at least 2 characters to search.</p>
        ) : (
          <QueryState isPending={results.isPending} error={results.error} empty={results.data?.length === 0} emptyText="No account matches.">
            <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
              {results.data?.map((account) => (
                <li key={account.accountId}>
                  <Link to={`/ops/accounts/${account.accountId}`} className="flex flex-wrap items-center justify-between gap-2 p-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-700">
                    <span>
                      <span className="block font-semibold text-slate-900">{account.accountHolderName}</span>
                      <span className="block text-sm text-slate-600">
                        {account.accountNumber} · {account.userName} · {account.accountEmail} · {account.accountPhone}
                      </span>
                    </span>
                    <span className="text-sm text-slate-700">
                      {account.moneyMovementLocked ? 'Locked' : ''} {account.identityVerified ? 'Verified' : 'Not verified'}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </QueryState>
        )}
      </div>
    </>
  );
}
