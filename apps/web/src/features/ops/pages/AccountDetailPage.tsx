import { CURRENCIES } from '@kestrel/shared';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { useFundWallet, useMoneyLock, useOpsAccount } from '../api.ts';
import { Facts, money, OpsHeading, Panel, QueryState, ReasonAction, StatusBadge, when, withToast } from '../components/ui.tsx';

/** /ops/accounts/:accountId: balance, postings, activities, stores, payments, withdrawals; Lock/Unlock; Fund. */
export function AccountDetailPage() {
  const { accountId = '' } = useParams();
  const account = useOpsAccount(accountId);
  const lock = useMoneyLock();
  const detail = account.data;
  return (
    <>
      <OpsHeading title={detail ? detail.account.accountHolderName : 'Account'}>
        <Link to="/ops/accounts" className="text-sm font-medium text-brand-700 underline">
          Back to search
        </Link>
      </OpsHeading>
      <QueryState isPending={account.isPending} error={account.error}>
        {detail ? (
          <div className="grid gap-4 lg:grid-cols-2">
            <Panel title="Account">
              <Facts
                rows={[
                  ['Account number', detail.account.accountNumber],
                  ['Type', detail.account.accountType],
                  ['User name', detail.account.userName],
                  ['E-mail', detail.account.accountEmail],
                  ['Phone', detail.account.accountPhone],
                  ['Identity', `${detail.account.identityType} ${detail.account.identityNumber} (${detail.account.identityVerified ? 'verified' : 'not verified'})`],
                  ['Date of birth', detail.account.dateOfBirth],
                  ['Address', detail.account.address],
                  ['Opened', when(detail.account.createdAt)],
                  ['Balance', detail.balances.length ? detail.balances.map((b) => money(b.amount, b.currency)).join(', ') : money(0, 'USD')],
                  ['Money movement', detail.account.moneyMovementLocked ? `Locked: ${detail.account.moneyMovementLockReason ?? ''}` : 'Allowed'],
                ]}
              />
            </Panel>
            <div className="space-y-4">
              <Panel title={detail.account.moneyMovementLocked ? 'Unlock money movement' : 'Lock money movement'}>
                <ReasonAction
                  key={String(detail.account.moneyMovementLocked)}
                  label={detail.account.moneyMovementLocked ? 'Unlock' : 'Lock'}
                  variant={detail.account.moneyMovementLocked ? 'secondary' : 'danger'}
                  placeholder="Reason the holder will see"
                  pending={lock.isPending}
                  onSubmit={(reason) =>
                    withToast(
                      lock.mutateAsync({ accountId, lock: !detail.account.moneyMovementLocked, reason }),
                      detail.account.moneyMovementLocked ? 'Money movement unlocked' : 'Money movement locked',
                      'Could not change the lock',
                    )
                  }
                />
              </Panel>
              <FundPanel accountId={accountId} />
            </div>
            <ListPanel title="Ledger postings" items={detail.postings} empty="No postings yet.">
              {(p) => [p.transactionId, `${p.transactionFor} (${p.kind})`, money(p.amount, p.currency), when(p.createdAt)]}
            </ListPanel>
            <ListPanel title="Activities" items={detail.activities} empty="No activities yet.">
              {(a) => [a.name, a.comment ?? '', '', when(a.createdAt)]}
            </ListPanel>
            <ListPanel title="Stores" items={detail.stores} empty="No stores.">
              {(s) => [s.storeName, s.storeId, <StatusBadge key="s" status={s.status} />, when(s.createdAt)]}
            </ListPanel>
            <ListPanel title="Payments" items={detail.payments} empty="No payments.">
              {(p) => [`${p.storeName} · ${p.orderId}`, p.urlId, <span key="p">{money(p.amount, p.currency)} <StatusBadge status={p.paymentStatus} /></span>, when(p.createdAt)]}
            </ListPanel>
            <ListPanel title="Withdrawals" items={detail.withdrawals} empty="No withdrawals.">
              {(w) => [w.bankName, w._id, <span key="w">{money(w.amount, w.currency)} <StatusBadge status={w.status} /></span>, when(w.createdAt)]}
            </ListPanel>
          </div>
        ) : null}
      </QueryState>
    </>
  );
}

function ListPanel<T>({ title, items, empty, children }: { title: string; items: T[]; empty: string; children: (item: T) => [ReactNode, ReactNode, ReactNode, string] }) {
  return (
    <Panel title={title}>
      {items.length === 0 ? (
        <p className="text-sm text-slate-600">{empty}</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm">
          {items.map((item, index) => {
            const [main, sub, right, at] = children(item);
            return (
              <li key={index} className="flex flex-wrap justify-between gap-2 py-2">
                <span className="min-w-0">
                  <span className="block font-medium break-words text-slate-900">{main}</span>
                  <span className="block break-words text-slate-600">{sub}</span>
                </span>
                <span className="text-right">
                  <span className="block">{right}</span>
                  <span className="block text-slate-600">{at}</span>
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </Panel>
  );
}


/** Fund the wallet from the funding system account: amount, currency, reason. */
function FundPanel({ accountId }: { accountId: string }) {
  const id = useId();
  const fund = useFundWallet();
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState<string>(CURRENCIES[0]);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d+(\.\d{1,2})?$/.test(amount.trim()) || Number(amount) <= 0) return setProblem('Enter an amount greater than 0 with at most two decimals');
    if (!reason.trim()) return setProblem('Reason is required');
    setProblem(null);
    try {
      // Above the four-eyes threshold (or past the daily cap) the API answers 202: a request waiting for a second operator.
      await withToast(
        fund.mutateAsync({ accountId, amount: amount.trim(), currency, reason: reason.trim() }),
        (answer) => (answer.status === 202 ? (answer.message ?? 'Sent for approval') : 'Wallet funded'),
        'Could not fund the wallet',
      );
      setAmount('');
      setReason('');
    } catch {
      // Toasted; the form keeps its values so the same request (same key) can be sent again.
    }
  };
  const field = 'h-10 w-full rounded-lg border border-slate-300 px-3 text-sm focus:border-brand-700 focus:outline-2 focus:outline-brand-700';
  return (
    <Panel title="Fund wallet">
      <form onSubmit={(event) => void submit(event)} className="grid gap-2 sm:grid-cols-[1fr_6rem]" noValidate>
        <div>
          <label htmlFor={`${id}-amount`} className="mb-1 block text-sm font-medium text-slate-700">
            Amount
          </label>
          <input id={`${id}-amount`} inputMode="decimal" value={amount} onChange={(event) => setAmount(event.target.value)} className={field} />
        </div>
        <div>
          <label htmlFor={`${id}-currency`} className="mb-1 block text-sm font-medium text-slate-700">
            Currency
          </label>
          <select id={`${id}-currency`} value={currency} onChange={(event) => setCurrency(event.target.value)} className={`${field} bg-white`}>
            {CURRENCIES.map((code) => (
              <option key={code}>{code}</option>
            ))}
          </select>
        </div>
        <div className="sm:col-span-2">
          <label htmlFor={`${id}-reason`} className="mb-1 block text-sm font-medium text-slate-700">
            Reason
          </label>
          <input id={`${id}-reason`} value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} className={field} />
        </div>
        {problem ? (
          <p role="alert" className="text-sm text-danger-700 sm:col-span-2">
            {problem}
          </p>
        ) : null}
        <div className="sm:col-span-2">
          <Button type="submit" loading={fund.isPending}>
            Fund
          </Button>
        </div>
      </form>
    </Panel>
  );
}
