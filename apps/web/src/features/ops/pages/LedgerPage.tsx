import { Button } from '../../../components/Button.tsx';
import { useLedgerHealth } from '../api.ts';
import { money, OpsHeading, Panel, QueryState, when } from '../components/ui.tsx';

/** /ops/ledger: the checks of `npm run ledger:verify`, live; green or red with the first offending rows. */
export function LedgerPage() {
  const health = useLedgerHealth();
  const data = health.data;
  return (
    <>
      <OpsHeading title="Ledger health">
        <Button variant="secondary" loading={health.isFetching} onClick={() => void health.refetch()}>
          Check again
        </Button>
      </OpsHeading>
      <QueryState isPending={health.isPending} error={health.error}>
        {data ? (
          <div className="space-y-4">
            <p
              role="status"
              className={`rounded-xl p-4 text-lg font-semibold ${data.healthy ? 'bg-emerald-100 text-emerald-900' : 'bg-red-100 text-red-900'}`}
            >
              {data.healthy ? 'Healthy: the books balance' : 'Problems found: the books do not balance'}
              <span className="block text-sm font-normal">
                Checked {when(data.checkedAt)} · {data.transactions} transactions · {data.postings} postings · {data.walletAccounts} wallet ledger accounts
              </span>
            </p>
            <Panel title="Checks">
              <ul className="space-y-2">
                {data.checks.map((check) => (
                  <li key={check.name}>
                    <span className={`mr-2 inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${check.ok ? 'bg-emerald-100 text-emerald-900' : 'bg-red-100 text-red-900'}`}>
                      {check.ok ? 'OK' : 'FAIL'}
                    </span>
                    {check.name}
                    {check.offending.length > 0 ? (
                      <ul className="mt-1 ml-6 list-disc font-mono text-sm text-red-900">
                        {check.offending.map((row) => (
                          <li key={row}>{row}</li>
                        ))}
                      </ul>
                    ) : null}
                  </li>
                ))}
              </ul>
            </Panel>
            <div className="grid gap-4 md:grid-cols-3">
              <Panel title="Total in wallets">
                <Totals rows={data.totalInWallets} />
              </Panel>
              <Panel title="Total in flight to banks">
                <Totals rows={data.totalInFlight} />
              </Panel>
              <Panel title="System accounts">
                <ul className="text-sm">
                  {data.systemAccounts.map((row) => (
                    <li key={`${row.code}-${row.currency}`} className="flex justify-between gap-2">
                      <span className="font-mono">{row.code}</span>
                      <span>{money(row.balance, row.currency)}</span>
                    </li>
                  ))}
                </ul>
              </Panel>
            </div>
          </div>
        ) : null}
      </QueryState>
    </>
  );
}

function Totals({ rows }: { rows: { currency: string; amount: number }[] }) {
  if (rows.length === 0) return <p className="text-sm text-slate-600">None.</p>;
  return (
    <ul className="text-lg font-semibold">
      {rows.map((row) => (
        <li key={row.currency}>{money(row.amount, row.currency)}</li>
      ))}
    </ul>
  );
}
