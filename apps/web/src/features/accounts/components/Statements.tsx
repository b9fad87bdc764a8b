import { formatMonth, uiText } from '@kestrel/shared';
import { useState } from 'react';
import { Button } from '../../../components/Button.tsx';
import { DownloadIcon } from '../../../components/icons.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { errorMessage } from '../../../lib/http.ts';
import { downloadStatement, useStatementMonths } from '../api.ts';

const t = uiText.myAccount;

/**
 * My Account → Statements (issue 26): the account's months, newest first, the current one "so
 * far", each with its PDF and its signed JSON, downloaded with the session's token.
 */
export function Statements({ accountNumber }: { accountNumber: string }) {
  const months = useStatementMonths(accountNumber);
  const [busy, setBusy] = useState<string | null>(null);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  const download = async (month: string, kind: 'pdf' | 'json') => {
    setBusy(`${month}-${kind}`);
    setResult(null);
    try {
      setResult({ ok: true, text: `Downloaded ${await downloadStatement(accountNumber, month, kind)}` });
    } catch (error) {
      setResult({ ok: false, text: errorMessage(error, t.statementFailed) });
    } finally {
      setBusy(null);
    }
  };

  if (months.isPending) {
    return (
      <div className="flex justify-center py-10 text-brand-700">
        <Spinner className="size-8" label="Loading statements" />
      </div>
    );
  }
  if (months.isError) {
    return (
      <p role="alert" className="rounded-lg bg-danger-50 p-4 text-danger-700">
        {errorMessage(months.error, t.statementFailed)}
      </p>
    );
  }
  return (
    <section aria-labelledby="statements-title" className="rounded-2xl border border-slate-200 bg-white shadow-xs">
      <div className="px-5 pt-5 sm:px-6">
        <h2 id="statements-title" className="text-base font-semibold text-slate-900">
          {t.statements}
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {t.statementsHint} <code className="rounded bg-slate-100 px-1 whitespace-nowrap text-slate-800">{t.statementsCheck}</code>.
        </p>
        <p role="status" className={`mt-2 text-sm ${result?.ok === false ? 'text-danger-700' : 'text-success-700'}`}>
          {result?.text}
        </p>
      </div>
      {months.data.months.length === 0 ? (
        <p className="px-5 pb-5 text-slate-600 sm:px-6">{t.noStatements}</p>
      ) : (
        <ul aria-label={t.statements} className="mt-2 divide-y divide-slate-200">
          {months.data.months.map(({ month, complete }) => {
            const name = `${formatMonth(month)}${complete ? '' : ` (${t.statementSoFar})`}`;
            return (
              <li key={month} className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-6">
                <p className="font-semibold text-slate-900">{name}</p>
                <div className="flex flex-wrap gap-2">
                  {(['pdf', 'json'] as const).map((kind) => (
                    <Button
                      key={kind}
                      variant="secondary"
                      aria-label={`${kind === 'pdf' ? t.downloadPdf : t.downloadJson}: ${name}`}
                      loading={busy === `${month}-${kind}`}
                      disabled={busy !== null}
                      onClick={() => void download(month, kind)}
                    >
                      <DownloadIcon className="size-4" />
                      {kind === 'pdf' ? t.downloadPdf : t.downloadJson}
                    </Button>
                  ))}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
