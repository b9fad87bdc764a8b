import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { segment } from '../lib/http.ts';
import { AccountPageHeader, PageActions } from './AccountPageHeader.tsx';
import { buttonClasses } from './Button.tsx';
import { ExportCsv } from './ExportCsv.tsx';
import { PagedList, type PagedListProps } from './ListStates.tsx';

interface AccountListPageProps extends Pick<PagedListProps, 'query' | 'count' | 'empty' | 'children'> {
  title: string;
  accountNumber: string | undefined;
  /** Said after the account number in the head. */
  detail?: ReactNode;
  /** The list's CSV export: `GET /v1/export/{kind}/{account}`, saved as `{kind}-{account}.csv`; `what` and `label` as `ExportCsv` takes them. */
  csv: { kind: string; what: string; label?: string };
  /** The way to a new item: a primary button beside the export. */
  create?: { to: string; label: ReactNode };
  /** What stands between the head and the list (the counters). */
  summary?: ReactNode;
  /** The items in words ("withdrawals"): "Loading …", "The … could not be loaded.", "More … could not be loaded." */
  items: string;
}

/** An account list page (transactions, withdrawals, payment links): the head with the export (and the way to a new item), then the paged list. */
export function AccountListPage({ title, accountNumber, detail, csv, create, summary, items, ...list }: AccountListPageProps) {
  const exportCsv = accountNumber && (
    <ExportCsv path={`/v1/export/${csv.kind}/${segment(accountNumber)}`} filename={`${csv.kind}-${accountNumber}.csv`} what={csv.what} label={csv.label} />
  );
  return (
    <>
      <AccountPageHeader
        title={title}
        accountNumber={accountNumber}
        detail={detail}
        actions={
          create ? (
            <PageActions>
              {exportCsv}
              <Link to={create.to} className={buttonClasses('primary', 'md')}>
                {create.label}
              </Link>
            </PageActions>
          ) : (
            exportCsv
          )
        }
      />
      {summary}
      <PagedList
        {...list}
        accountNumber={accountNumber}
        loadingLabel={`Loading ${items}`}
        loadFallback={`The ${items} could not be loaded.`}
        moreFallback={`More ${items} could not be loaded.`}
      />
    </>
  );
}
