import type { OperatorApprovalView } from '@kestrel/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { useCurrentUser } from '../../auth/api.ts';
import { useApprovals, useDayTotals, useDecideApproval } from '../api.ts';
import { Facts, money, OpsHeading, Panel, PanelList, QueryState, ReasonAction, StatusBadge, StatusFilter, when, withToast } from '../components/ui.tsx';

const STATUSES = ['Pending', 'Approved', 'Refused'] as const;

const what = (approval: OperatorApprovalView) =>
  approval.kind === 'funding'
    ? `Fund ${approval.accountHolderName} (${approval.accountNumber}) with ${money(approval.amount, approval.currency)}`
    : `Pay out a withdrawal of ${money(approval.amount, approval.currency)} from ${approval.accountHolderName} (${approval.accountNumber})`;

const why = (approval: OperatorApprovalView) =>
  approval.neededBecause === 'daily_cap' ? 'The requester has used up their daily funding cap' : 'The amount needs a second operator';

/**
 * /ops/approvals: the four-eyes queue — who asked, what, why and when — with Approve / Refuse
 * (a reason each) for every operator but the requester, and today's totals per operator.
 */
export function ApprovalsPage() {
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('Pending');
  const approvals = useApprovals(status);
  const me = useCurrentUser().data;
  const decide = useDecideApproval();
  return (
    <>
      <OpsHeading title="Pending approvals">
        <StatusFilter value={status} statuses={STATUSES} onChange={(value) => setStatus(value as (typeof STATUSES)[number])} />
      </OpsHeading>
      <PanelList query={approvals} emptyText={`No ${status.toLowerCase()} requests.`} itemKey={(approval) => approval._id} label={what} className="space-y-3">
        {(approval) => {
          const mine = approval.requestedBy.userId === me?._id;
          const busy = (decision: 'approve' | 'refuse') => decide.isPending && decide.variables?.approvalId === approval._id && decide.variables.decision === decision;
          return (
            <>
              <div className="flex flex-wrap items-center gap-2">
                <h2 className="text-base font-semibold text-slate-900">{what(approval)}</h2>
                <StatusBadge status={approval.status} />
              </div>
              <Facts
                rows={[
                  ['Asked by', `${approval.requestedBy.name} (${approval.requestedBy.email})`],
                  ['Asked at', when(approval.requestedAt)],
                  ['Reason', approval.reason],
                  ['Why four eyes', why(approval)],
                  ['Account', <Link key="a" className="text-brand-700 underline" to={`/ops/accounts/${approval.accountId}`}>{approval.accountNumber}</Link>],
                  ...(approval.decidedBy
                    ? ([
                        [approval.status === 'Approved' ? 'Approved by' : 'Refused by', `${approval.decidedBy.name} (${approval.decidedBy.email})`],
                        ['Decided at', approval.decidedAt ? when(approval.decidedAt) : ''],
                        ['Decision reason', approval.decisionReason ?? ''],
                      ] as [string, string][])
                    : []),
                  ...(approval.transactionId ? ([['Transaction', approval.transactionId]] as [string, string][]) : []),
                ]}
              />
              {approval.status === 'Pending' ? (
                mine ? (
                  <p className="border-t border-slate-200 pt-3 text-sm text-slate-600">Your request: another operator must approve or refuse it.</p>
                ) : (
                  <div className="space-y-3 border-t border-slate-200 pt-3">
                    <ReasonAction
                      label="Approve"
                      variant="primary"
                      placeholder="Reason for approving (kept in the audit log)"
                      pending={busy('approve')}
                      onSubmit={(reason) => withToast(decide.mutateAsync({ approvalId: approval._id, decision: 'approve', reason }), 'Approved and carried out', 'Could not approve')}
                    />
                    <ReasonAction
                      label="Refuse"
                      variant="danger"
                      placeholder="Reason for refusing (kept in the audit log)"
                      pending={busy('refuse')}
                      onSubmit={(reason) => withToast(decide.mutateAsync({ approvalId: approval._id, decision: 'refuse', reason }), 'Request refused', 'Could not refuse')}
                    />
                  </div>
                )
              ) : null}
            </>
          );
        }}
      </PanelList>
      <DayTotals />
    </>
  );
}

/** Today's (UTC) funding, payouts and decisions per operator. */
export function DayTotals() {
  const totals = useDayTotals();
  const data = totals.data;
  return (
    <Panel title={data ? `Today's totals per operator (${data.date}, UTC)` : "Today's totals per operator"} className="mt-6">
      <QueryState isPending={totals.isPending} error={totals.error} empty={data?.operators.length === 0} emptyText="No operators yet.">
        {data ? (
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Today's totals per operator">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <thead className="text-slate-600">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-semibold">Operator</th>
                  <th scope="col" className="py-2 pr-3 text-right font-semibold">Funded</th>
                  <th scope="col" className="py-2 pr-3 text-right font-semibold">Alone (cap {money(data.dailyFundingCap, 'USD')})</th>
                  <th scope="col" className="py-2 pr-3 text-right font-semibold">Paid out</th>
                  <th scope="col" className="py-2 pr-3 text-right font-semibold">Approved</th>
                  <th scope="col" className="py-2 pr-3 text-right font-semibold">Refused</th>
                  <th scope="col" className="py-2 text-right font-semibold">Waiting</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.operators.map((row) => (
                  <tr key={row.userId}>
                    <th scope="row" className="py-2 pr-3 font-medium text-slate-900">
                      {row.name}
                      <span className="block text-xs font-normal text-slate-600">{row.email}</span>
                    </th>
                    <td className="py-2 pr-3 text-right whitespace-nowrap">{money(row.funded, 'USD')}</td>
                    <td className="py-2 pr-3 text-right whitespace-nowrap">{money(row.fundedAlone, 'USD')}</td>
                    <td className="py-2 pr-3 text-right whitespace-nowrap">{money(row.paidOut, 'USD')}</td>
                    <td className="py-2 pr-3 text-right whitespace-nowrap">{row.approved}</td>
                    <td className="py-2 pr-3 text-right whitespace-nowrap">{row.refused}</td>
                    <td className="py-2 text-right whitespace-nowrap">{row.pending}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </QueryState>
    </Panel>
  );
}
