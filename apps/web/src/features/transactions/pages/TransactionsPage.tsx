import { formatDateTime, uiText } from '@kestrel/shared';
import { ListIcon } from '../../../components/icons.tsx';
import { AccountListPage } from '../../../components/AccountListPage.tsx';
import { formatApiMoney } from '../../../lib/money.ts';
import { useSession } from '../../../lib/session.ts';
import { useAccountTransactions, type Transaction, type TransactionType } from '../api.ts';
import { DownloadProof } from '../components/DownloadProof.tsx';
import { TransactionTypeBadge } from '../components/TransactionTypeBadge.tsx';
import { DataTable } from '../../../components/DataTable.tsx';

const title = uiText.nav.transactions;
const emptyMessage = 'This Account has No Transactions';
const columns = ['Purpose', 'Amount', 'Fee', 'Type', 'TnxId', 'Tnx At'] as const;

interface Row {
  transaction: Transaction;
  /** Debit or credit for the active account. */
  type: TransactionType | undefined;
  /** The other wallet account of a transfer, if any. */
  counterpart: string | undefined;
}

function Counterpart({ row }: { row: Row }) {
  if (!row.counterpart) return null;
  return (
    <span className="block text-xs font-normal text-slate-600">
      {row.type === 'debit' ? 'To' : 'From'} <span className="tabular-nums">{row.counterpart}</span>
    </span>
  );
}

function TransactionRow({ row }: { row: Row }) {
  const { transaction, type } = row;
  return (
    <tr className="hover:bg-slate-50">
      <td className="px-4 py-3 font-medium text-slate-900">
        {transaction.transactionFor}
        <Counterpart row={row} />
      </td>
      <td className="px-4 py-3 text-right font-semibold whitespace-nowrap text-slate-900 tabular-nums">
        {formatApiMoney(transaction.amount, transaction.currency)}
      </td>
      <td className="px-4 py-3 text-right whitespace-nowrap text-slate-700 tabular-nums">
        {formatApiMoney(transaction.fee.amount, transaction.fee.currency)}
      </td>
      <td className="px-4 py-3">
        <TransactionTypeBadge type={type} />
      </td>
      <td className="px-4 py-3 font-mono text-xs break-all text-slate-700">
        {transaction.transactionId}
        <span className="block">
          <DownloadProof transactionId={transaction.transactionId} />
        </span>
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-700">{formatDateTime(transaction.transactionAt)}</td>
    </tr>
  );
}

function TransactionsTable({ rows, accountNumber }: { rows: readonly Row[]; accountNumber: string }) {
  return (
    <DataTable caption={`Transactions of account ${accountNumber}, newest first`} columns={columns} alignRight={new Set(['Amount', 'Fee'])}>
      {rows.map((row) => (
        <TransactionRow key={row.transaction._id} row={row} />
      ))}
    </DataTable>
  );
}

function TransactionCard({ row }: { row: Row }) {
  const { transaction, type } = row;
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-4 shadow-xs">
      <div className="flex items-start justify-between gap-3">
        <p className="font-semibold text-slate-900">
          {transaction.transactionFor}
          <Counterpart row={row} />
        </p>
        <TransactionTypeBadge type={type} />
      </div>
      <p className="mt-1 text-xl font-bold tracking-tight text-slate-900 tabular-nums">{formatApiMoney(transaction.amount, transaction.currency)}</p>
      <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">Fee</dt>
        <dd className="text-slate-900 tabular-nums">{formatApiMoney(transaction.fee.amount, transaction.fee.currency)}</dd>
        <dt className="text-slate-600">TnxId</dt>
        <dd className="font-mono text-xs leading-5 break-all text-slate-900">
          {transaction.transactionId}
          <span className="block">
            <DownloadProof transactionId={transaction.transactionId} />
          </span>
        </dd>
        <dt className="text-slate-600">Tnx At</dt>
        <dd className="text-slate-900">{formatDateTime(transaction.transactionAt)}</dd>
      </dl>
    </li>
  );
}

/** Phones: one card per transaction, the table's columns as labelled lines. */
function TransactionCards({ rows }: { rows: readonly Row[] }) {
  return (
    <ul aria-label={title} className="space-y-3 md:hidden">
      {rows.map((row) => (
        <TransactionCard key={row.transaction._id} row={row} />
      ))}
    </ul>
  );
}

/** /transactions: 'All Transactions' of the active account. */
export function TransactionsPage() {
  const { accountNumber } = useSession();
  const transactions = useAccountTransactions(accountNumber);

  const rows: Row[] = (transactions.data?.pages ?? []).flat().flatMap((group) =>
    group.transactions.map((transaction) => ({
      transaction,
      type: transaction.accounts.find((party) => party.accountNumber === accountNumber)?.transactionType,
      counterpart: transaction.accounts.find((party) => party.accountNumber !== accountNumber)?.accountNumber,
    })),
  );

  return (
    <AccountListPage
      title={title}
      accountNumber={accountNumber}
      detail={rows.length > 0 && ` · ${transactions.hasNextPage ? 'latest ' : ''}${rows.length} ${rows.length === 1 ? 'transaction' : 'transactions'}`}
      csv={{ kind: 'transactions', what: 'transactions' }}
      query={transactions}
      count={rows.length}
      items="transactions"
      empty={
        <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-500">
            <ListIcon className="size-6" />
          </span>
          <p className="font-semibold text-slate-800">{emptyMessage}</p>
        </div>
      }
    >
      {(account) => (
        <>
          <TransactionsTable rows={rows} accountNumber={account} />
          <TransactionCards rows={rows} />
        </>
      )}
    </AccountListPage>
  );
}
