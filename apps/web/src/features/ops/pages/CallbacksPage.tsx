import type { FailingCallback } from '@kestrel/shared';
import { useSearchParams } from 'react-router';
import { useFailingCallbacks, useResendCallback } from '../api.ts';
import { OpsHeading, Pager, QueryState, ReasonAction, StatusBadge, when, withToast } from '../components/ui.tsx';

const PAGE_SIZE = 25;

/** What the last attempt got back: the store's HTTP status, or why nothing came back. */
function lastOutcome(delivery: FailingCallback): string {
  const attempt = delivery.lastAttempt;
  if (!attempt) return 'No attempt recorded';
  if (attempt.statusCode === null) return attempt.error ?? 'No answer';
  const status = `HTTP ${attempt.statusCode}`;
  // The worker's error for a non-2xx answer is often just the status again.
  return attempt.error && attempt.error !== status ? `${status}: ${attempt.error}` : status;
}

const nextLabel = (delivery: FailingCallback) => (delivery.nextAttemptAt ? when(delivery.nextAttemptAt) : 'Given up');

/**
 * /ops/callbacks: deliveries failing (given up, or waiting to retry after a failed attempt),
 * newest first; Re-send queues one again with a reason. A table on wide screens, cards on phones.
 */
export function CallbacksPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const queue = useFailingCallbacks(page, PAGE_SIZE);
  const resend = useResendCallback();
  const pages = queue.data ? Math.max(1, Math.ceil(queue.data.total / PAGE_SIZE)) : 1;
  const go = (to: number) => setParams({ page: String(to) });

  const resendAction = (delivery: FailingCallback) => (
    <ReasonAction
      label="Re-send"
      placeholder="Reason (kept in the audit log)"
      pending={resend.isPending && resend.variables?.deliveryId === delivery._id}
      onSubmit={(reason) => withToast(resend.mutateAsync({ deliveryId: delivery._id, reason }), `Callback for ${delivery.paymentId} queued again`, 'Could not queue the callback again')}
    />
  );

  return (
    <>
      <OpsHeading title="Failing callbacks" />
      <QueryState isPending={queue.isPending} error={queue.error} empty={queue.data?.items.length === 0} emptyText="No callback deliveries are failing.">
        <div className="hidden overflow-x-auto rounded-xl border border-slate-200 bg-white md:block">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Failing callback deliveries, newest first</caption>
            <thead className="bg-slate-100 text-slate-700">
              <tr>
                <th scope="col" className="p-2">Store</th>
                <th scope="col" className="p-2">Payment</th>
                <th scope="col" className="p-2">Target URL</th>
                <th scope="col" className="p-2">State</th>
                <th scope="col" className="p-2">Attempts</th>
                <th scope="col" className="p-2">Last attempt</th>
                <th scope="col" className="p-2">Next attempt</th>
                <th scope="col" className="p-2">Action</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 align-top">
              {queue.data?.items.map((delivery) => (
                <tr key={delivery._id}>
                  <td className="p-2">
                    <div className="font-medium text-slate-900">{delivery.storeName}</div>
                    <div className="font-mono text-xs text-slate-600">{delivery.storeId}</div>
                  </td>
                  <td className="p-2 font-mono text-xs break-all">{delivery.paymentId}</td>
                  <td className="max-w-56 p-2 break-all">{delivery.targetUrl}</td>
                  <td className="p-2">
                    <StatusBadge status={delivery.state === 'failed' ? 'Failed' : 'Retrying'} />
                  </td>
                  <td className="p-2">{delivery.attempts}</td>
                  <td className="max-w-56 p-2">
                    <div className="break-words">{lastOutcome(delivery)}</div>
                    {delivery.lastAttempt ? <div className="text-xs text-slate-600">{when(delivery.lastAttempt.attemptedAt)}</div> : null}
                  </td>
                  <td className="p-2 whitespace-nowrap">{nextLabel(delivery)}</td>
                  <td className="min-w-56 p-2">{resendAction(delivery)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <ul className="space-y-3 md:hidden">
          {queue.data?.items.map((delivery) => (
            <li key={delivery._id} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
              <article aria-label={`Callback for ${delivery.paymentId}`} className="space-y-2 text-sm">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h2 className="font-semibold text-slate-900">{delivery.storeName}</h2>
                  <StatusBadge status={delivery.state === 'failed' ? 'Failed' : 'Retrying'} />
                </div>
                <dl className="grid grid-cols-[7rem_1fr] gap-x-2 gap-y-1">
                  <dt className="text-slate-600">Payment</dt>
                  <dd className="font-mono text-xs break-all">{delivery.paymentId}</dd>
                  <dt className="text-slate-600">Target URL</dt>
                  <dd className="break-all">{delivery.targetUrl}</dd>
                  <dt className="text-slate-600">Attempts</dt>
                  <dd>{delivery.attempts}</dd>
                  <dt className="text-slate-600">Last attempt</dt>
                  <dd className="break-words">
                    {lastOutcome(delivery)}
                    {delivery.lastAttempt ? <span className="block text-xs text-slate-600">{when(delivery.lastAttempt.attemptedAt)}</span> : null}
                  </dd>
                  <dt className="text-slate-600">Next attempt</dt>
                  <dd>{nextLabel(delivery)}</dd>
                </dl>
                <div className="border-t border-slate-200 pt-3">{resendAction(delivery)}</div>
              </article>
            </li>
          ))}
        </ul>
        <Pager label="Failing callback pages" page={page} pages={pages} total={queue.data?.total ?? 0} noun="deliveries" onPage={go} />
      </QueryState>
    </>
  );
}
