import { WITHDRAW_STATUSES, type WithdrawalStatus } from '@kestrel/shared';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { useOpsWithdrawals, useWithdrawalMove } from '../api.ts';
import { Facts, money, OpsHeading, PanelList, ReasonAction, StatusBadge, StatusFilter, when, withToast } from '../components/ui.tsx';

/** /ops/withdrawals: filter by status; Processing / Complete / Fail (with a reason); full bank details. */
export function WithdrawalsPage() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('status') ?? 'Pending';
  const status = (WITHDRAW_STATUSES as readonly string[]).includes(raw) ? (raw as WithdrawalStatus) : '';
  const withdrawals = useOpsWithdrawals(status);
  const move = useWithdrawalMove();
  const busy = (id: string, name: string) => move.isPending && move.variables?.id === id && move.variables.move === name;
  return (
    <>
      <OpsHeading title="Withdrawals">
        <StatusFilter value={status} statuses={WITHDRAW_STATUSES} all onChange={(value) => setParams(value ? { status: value } : { status: 'all' })} />
      </OpsHeading>
      <PanelList
        query={withdrawals}
        emptyText="No withdrawals in this state."
        itemKey={(w) => w._id}
        label={(w) => `Withdrawal of ${money(w.amount, w.currency)} for ${w.accountHolder}`}
        className="space-y-3"
      >
        {(w) => (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <h2 className="text-lg font-semibold text-slate-900">{money(w.amount, w.currency)}</h2>
              <StatusBadge status={w.status} />
              <span className="text-sm text-slate-600">{w.accountHolder}</span>
            </div>
            <Facts
              rows={[
                ['Requested', when(w.createdAt)],
                ['Country', w.country],
                ['Bank', `${w.bankName}${w.branchName ? `, ${w.branchName}` : ''}`],
                ...(w.accountType ? ([['Account type', w.accountType]] as [string, string][]) : []),
                ['Bank account number', <span key="n" className="font-mono">{w.bankAccountNumber}</span>],
                ['Routing number', <span key="r" className="font-mono">{w.routingNumber}</span>],
                ['Account holder name', w.accountHolderName],
                ...(w.failureReason ? ([['Failure reason', w.failureReason]] as [string, string][]) : []),
              ]}
            />
            {w.status === 'Pending' ? (
              <Button loading={busy(w._id, 'processing')} onClick={() => void withToast(move.mutateAsync({ id: w._id, move: 'processing' }), 'Withdrawal is processing', 'Could not move the withdrawal').catch(() => undefined)}>
                Processing
              </Button>
            ) : null}
            {w.status === 'Processing' ? (
              <div className="space-y-2 border-t border-slate-200 pt-3">
                <Button loading={busy(w._id, 'complete')} onClick={() => void withToast(move.mutateAsync({ id: w._id, move: 'complete' }), (answer) => (answer.status === 202 ? (answer.message ?? 'Sent for approval') : 'Withdrawal completed'), 'Could not complete the withdrawal').catch(() => undefined)}>
                  Complete
                </Button>
                <ReasonAction
                  label="Fail"
                  variant="danger"
                  placeholder="Reason the holder will see"
                  pending={busy(w._id, 'fail')}
                  onSubmit={(reason) => withToast(move.mutateAsync({ id: w._id, move: 'fail', reason }), 'Withdrawal failed; the money is back in the wallet', 'Could not fail the withdrawal')}
                />
              </div>
            ) : null}
          </>
        )}
      </PanelList>
    </>
  );
}
