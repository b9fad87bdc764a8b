import { zodResolver } from '@hookform/resolvers/zod';
import {
  mismatchKindExplanations,
  mismatchKindLabels,
  reasonBody,
  reconciliationMessages as rm,
  runReconciliationBody,
  type MismatchAction,
  type ReasonBody,
  type ReconciliationMismatchView,
  type ReconciliationRunView,
  type RunReconciliationInput,
} from '@kestrel/shared';
import { useId, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { Button, type ButtonVariant } from '../../../components/Button.tsx';
import { ApiError } from '../../../lib/http.ts';
import { useMismatchAction, useReconciliationMismatches, useReconciliationRuns, useRunReconciliation } from '../api.ts';
import { Facts, money, OpsHeading, Panel, QueryState, when, withToast } from '../components/ui.tsx';

const STATUSES = [
  { value: 'open', label: 'Open' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'all', label: 'All' },
] as const;
type StatusFilter = (typeof STATUSES)[number]['value'];

const yesterday = () => new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const field = 'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm focus:border-brand-700 focus:outline-2 focus:outline-brand-700';

/**
 * /ops/reconciliation (issue 26): the card processor's records against the ledger. Reconcile a
 * UTC day now; the differences (open first), each with what it means, both sides, and what
 * may be done — Record, Void or Mark resolved, with one reason kept in the audit log; the runs
 * of the last days. Cards, so a phone shows the same.
 */
export function ReconciliationPage() {
  const [params, setParams] = useSearchParams();
  const rawStatus = params.get('status');
  const status: StatusFilter = STATUSES.some((s) => s.value === rawStatus) ? (rawStatus as StatusFilter) : 'open';
  const rawDay = params.get('day') ?? '';
  const day = DAY.test(rawDay) ? rawDay : undefined;
  const mismatches = useReconciliationMismatches(status, day);
  const runs = useReconciliationRuns();
  const show = (next: { status?: StatusFilter; day?: string | undefined }) => {
    const nextStatus = next.status ?? status;
    const nextDay = 'day' in next ? next.day : day;
    setParams({ ...(nextStatus !== 'open' ? { status: nextStatus } : {}), ...(nextDay ? { day: nextDay } : {}) });
  };
  const heading = `${STATUSES.find((s) => s.value === status)?.label ?? 'Open'} differences${day ? ` of ${day}` : ''}`;

  return (
    <>
      <OpsHeading title="Reconciliation" />
      <p className="mb-4 max-w-3xl text-sm text-slate-700">
        The card processor&apos;s own records (its charges and refunds) against the ledger&apos;s card payments and card refunds, one UTC day at a time. Every day is reconciled
        a quarter of an hour after it ends; reconcile a day again here (today: as far as it has gone).
      </p>
      <RunForm onRan={(ran) => show({ day: ran })} />

      <section aria-labelledby="differences-heading" className="mt-6">
        <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
          <h2 id="differences-heading" className="text-lg font-semibold text-slate-900">
            {heading}
          </h2>
          <div className="flex flex-wrap items-end gap-3">
            <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
              Show
              <select value={status} onChange={(event) => show({ status: event.target.value as StatusFilter })} className="h-10 rounded-lg border border-slate-300 bg-white px-2">
                {STATUSES.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
            </label>
            {day ? (
              <Button variant="secondary" onClick={() => show({ day: undefined })}>
                Every day
              </Button>
            ) : null}
          </div>
        </div>
        <QueryState
          isPending={mismatches.isPending}
          error={mismatches.error}
          empty={mismatches.data?.length === 0}
          emptyText={status === 'open' ? 'No open differences: the processor and the ledger agree.' : 'No differences here.'}
        >
          <ul className="space-y-4">
            {mismatches.data?.map((mismatch) => (
              <li key={mismatch._id}>
                <MismatchCard mismatch={mismatch} />
              </li>
            ))}
          </ul>
        </QueryState>
      </section>

      <section aria-labelledby="runs-heading" className="mt-8">
        <h2 id="runs-heading" className="mb-3 text-lg font-semibold text-slate-900">
          Runs
        </h2>
        <QueryState isPending={runs.isPending} error={runs.error} empty={runs.data?.length === 0} emptyText="No day has been reconciled yet.">
          <ul className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3">
            {runs.data?.map((run) => (
              <li key={run._id}>
                <RunCard run={run} selected={run.day === day} onShow={() => show({ day: run.day, status: 'all' })} />
              </li>
            ))}
          </ul>
        </QueryState>
      </section>
    </>
  );
}

/** Reconcile a day now: the day (UTC), checked with the contract's own schema. */
function RunForm({ onRan }: { onRan: (day: string) => void }) {
  const id = useId();
  const run = useRunReconciliation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<RunReconciliationInput>({ resolver: zodResolver(runReconciliationBody), defaultValues: { day: yesterday() } });
  const submit = async (values: RunReconciliationInput) => {
    try {
      const answer = await withToast(run.mutateAsync(values), (ran) => ran.message ?? rm.ran(ran.data.mismatches), 'Could not reconcile the day');
      onRan(answer.data.day);
    } catch (error) {
      if (error instanceof ApiError && error.fields?.day) setError('day', { message: error.fields.day });
    }
  };
  return (
    <Panel title="Reconcile a day">
      <form onSubmit={(event) => void handleSubmit(submit)(event)} noValidate className="flex flex-wrap items-start gap-3">
        <div className="w-full max-w-xs">
          <label htmlFor={`${id}-day`} className="mb-1 block text-sm font-medium text-slate-700">
            Day (UTC)
          </label>
          <input
            id={`${id}-day`}
            type="date"
            className={field}
            aria-invalid={errors.day ? true : undefined}
            aria-describedby={errors.day ? `${id}-day-error` : undefined}
            {...register('day')}
          />
          {errors.day ? (
            <p id={`${id}-day-error`} className="mt-1 text-sm text-danger-700">
              {errors.day.message}
            </p>
          ) : null}
        </div>
        <Button type="submit" className="sm:mt-6" loading={run.isPending}>
          Reconcile
        </Button>
      </form>
    </Panel>
  );
}

function Badge({ tone, children }: { tone: 'ok' | 'warn'; children: ReactNode }) {
  return <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${tone === 'ok' ? 'bg-emerald-100 text-emerald-900' : 'bg-amber-100 text-amber-900'}`}>{children}</span>;
}

const ACTION_LABELS: Record<MismatchAction, { label: string; variant: ButtonVariant; done: string }> = {
  record: { label: 'Record in the books', variant: 'primary', done: rm.recorded },
  void: { label: 'Void at the processor', variant: 'danger', done: rm.voided },
  resolve: { label: 'Mark resolved', variant: 'secondary', done: rm.resolved },
};

const side = (amount: number | null, currency: string, status: string | null, at: string | null): ReactNode =>
  amount === null && status === null ? (
    <span className="text-slate-600">No record</span>
  ) : (
    <>
      {amount === null ? 'No amount' : money(amount, currency)}
      {status ? ` · ${status}` : ''}
      {at ? <span className="block text-xs text-slate-600">{when(at)}</span> : null}
    </>
  );

function resolutionText(mismatch: ReconciliationMismatchView): string {
  const how = { voided: 'Voided at the processor', recorded: 'Recorded in the books', resolved: 'Marked resolved', cleared: 'Cleared: a later run no longer found it' }[mismatch.resolution ?? 'resolved'];
  const who = mismatch.resolvedBy ? ` by ${mismatch.resolvedBy.email}` : '';
  const whenText = mismatch.resolvedAt ? `, ${when(mismatch.resolvedAt)}` : '';
  return `${how}${who}${whenText}${mismatch.resolutionReason ? `: ${mismatch.resolutionReason}` : ''}`;
}

function MismatchCard({ mismatch }: { mismatch: ReconciliationMismatchView }) {
  const label = mismatchKindLabels[mismatch.kind];
  const open = mismatch.status === 'open';
  const paid =
    mismatch.target === 'payment' && mismatch.recordId ? (
      <Link to={`/ops/payments/${mismatch.recordId}`} className="font-mono text-xs break-all text-brand-700 underline hover:text-brand-900">
        Payment {mismatch.recordId}
      </Link>
    ) : mismatch.target === 'link' && mismatch.recordId ? (
      <span className="font-mono text-xs break-all">Payment link {mismatch.recordId}</span>
    ) : (
      'Not named by the processor'
    );
  return (
    <Panel>
      <article aria-label={`${label}: ${mismatch.reference}`} className="space-y-3">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="text-base font-semibold text-slate-900">{label}</h3>
          <Badge tone={mismatch.status === 'open' ? 'warn' : 'ok'}>{mismatch.status === 'open' ? 'Open' : 'Resolved'}</Badge>
          <span className="text-sm text-slate-600">{mismatch.day}</span>
        </div>
        <p className="max-w-3xl text-sm text-slate-700">{mismatchKindExplanations[mismatch.kind]}</p>
        <Facts
          rows={[
            ['Reference', <span key="ref" className="font-mono text-xs break-all">{mismatch.reference}</span>],
            ['Paid to', paid],
            ...(mismatch.accountNumber ? ([['Account', <span key="acc" className="font-mono">{mismatch.accountNumber}</span>]] as [string, ReactNode][]) : []),
            ...(mismatch.card ? ([['Card', mismatch.card]] as [string, ReactNode][]) : []),
            [open ? 'Processor' : 'Processor (when found)', side(mismatch.processorAmount, mismatch.currency, mismatch.processorStatus, mismatch.processorAt)],
            [open ? 'Ledger' : 'Ledger (when found)', side(mismatch.ledgerAmount, mismatch.currency, mismatch.ledgerStatus, mismatch.ledgerAt)],
            ...(mismatch.transactionId ? ([['Transaction', <span key="tx" className="font-mono text-xs break-all">{mismatch.transactionId}</span>]] as [string, ReactNode][]) : []),
            ...(mismatch.refundId ? ([['Refund', <span key="rf" className="font-mono text-xs break-all">{mismatch.refundId}</span>]] as [string, ReactNode][]) : []),
            ['First found', when(mismatch.firstSeenAt)],
            ...(mismatch.status === 'resolved' ? ([['Resolution', resolutionText(mismatch)]] as [string, ReactNode][]) : []),
          ]}
        />
        {mismatch.actions.length ? <MismatchActions mismatch={mismatch} /> : null}
      </article>
    </Panel>
  );
}

/**
 * One reason, then the actions this difference allows. Enter in the reason field does
 * nothing: each action that moves money is a deliberate click.
 */
function MismatchActions({ mismatch }: { mismatch: ReconciliationMismatchView }) {
  const id = useId();
  const act = useMismatchAction();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<ReasonBody>({ resolver: zodResolver(reasonBody), defaultValues: { reason: '' } });
  const run = (action: MismatchAction) =>
    handleSubmit(async ({ reason }) => {
      try {
        await withToast(act.mutateAsync({ mismatchId: mismatch._id, action, reason }), (answer) => answer.message ?? ACTION_LABELS[action].done, 'Could not change this difference');
        reset();
      } catch {
        // Toasted with the server's reason; the reason stays for another try.
      }
    });
  const busy = (action: MismatchAction) => act.isPending && act.variables?.action === action;
  return (
    <form onSubmit={(event) => event.preventDefault()} noValidate className="space-y-2 border-t border-slate-200 pt-3" aria-label={`Act on ${mismatch.reference}`}>
      <div className="max-w-xl">
        <label htmlFor={`${id}-reason`} className="mb-1 block text-sm font-medium text-slate-700">
          Reason (kept in the audit log)
        </label>
        <input
          id={`${id}-reason`}
          maxLength={500}
          className={field}
          aria-invalid={errors.reason ? true : undefined}
          aria-describedby={errors.reason ? `${id}-reason-error` : undefined}
          {...register('reason')}
        />
        {errors.reason ? (
          <p id={`${id}-reason-error`} className="mt-1 text-sm text-danger-700">
            {errors.reason.message}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2">
        {mismatch.actions.map((action) => (
          <Button key={action} variant={ACTION_LABELS[action].variant} loading={busy(action)} disabled={act.isPending && !busy(action)} onClick={() => void run(action)()}>
            {ACTION_LABELS[action].label}
          </Button>
        ))}
      </div>
    </form>
  );
}

function RunCard({ run, selected, onShow }: { run: ReconciliationRunView; selected: boolean; onShow: () => void }) {
  const by = { job: 'Daily job', cli: 'npm run reconcile', operator: 'An operator' }[run.trigger];
  return (
    <Panel className={selected ? 'border-brand-700' : ''}>
      <article aria-label={`Run of ${run.day}`} className="space-y-2 text-sm">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="text-base font-semibold text-slate-900">{run.day}</h3>
          <Badge tone={run.open > 0 ? 'warn' : 'ok'}>{run.open > 0 ? `${run.open} open` : 'Nothing open'}</Badge>
        </div>
        <Facts
          rows={[
            ['Ran', `${when(run.ranAt)} (${by})`],
            ['Processor records', String(run.processorRecords)],
            ['Ledger movements', String(run.ledgerRecords)],
            ['Differences found', String(run.mismatches)],
          ]}
        />
        <Button variant="secondary" onClick={onShow} aria-pressed={selected}>
          Show this day
        </Button>
      </article>
    </Panel>
  );
}
