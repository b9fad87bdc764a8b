import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { useAuditLog } from '../api.ts';
import { OpsHeading, Pager, Panel, QueryState, when } from '../components/ui.tsx';

const FILTERS = [
  { name: 'actor', label: 'Actor (e-mail or user id)', type: 'text' },
  { name: 'action', label: 'Action (starts with)', type: 'text' },
  { name: 'subject', label: 'Subject id', type: 'text' },
  { name: 'from', label: 'From', type: 'datetime-local' },
  { name: 'to', label: 'To', type: 'datetime-local' },
] as const;

const PAGE_SIZE = 25;
const isoOf = (local: string | null) => (local ? new Date(local).toISOString() : undefined);

/** /ops/audit: filter by actor, action, subject and time; newest first; paged. */
export function AuditPage() {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [draft, setDraft] = useState<Record<string, string>>(() => Object.fromEntries(FILTERS.map((filter) => [filter.name, params.get(filter.name) ?? ''])));
  const log = useAuditLog({
    actor: params.get('actor') || undefined,
    action: params.get('action') || undefined,
    subject: params.get('subject') || undefined,
    from: isoOf(params.get('from')),
    to: isoOf(params.get('to')),
    page,
    pageSize: PAGE_SIZE,
  });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setParams(Object.fromEntries(Object.entries(draft).filter(([, value]) => value.trim() !== '')));
  };
  const go = (to: number) => {
    const next = new URLSearchParams(params);
    next.set('page', String(to));
    setParams(next);
  };
  const pages = log.data ? Math.max(1, Math.ceil(log.data.total / PAGE_SIZE)) : 1;
  return (
    <>
      <OpsHeading title="Audit log" />
      <Panel>
        <form onSubmit={apply} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
          {FILTERS.map((filter) => (
            <div key={filter.name}>
              <label htmlFor={`${id}-${filter.name}`} className="mb-1 block text-sm font-medium text-slate-700">
                {filter.label}
              </label>
              <input
                id={`${id}-${filter.name}`}
                type={filter.type}
                value={draft[filter.name] ?? ''}
                onChange={(event) => setDraft({ ...draft, [filter.name]: event.target.value })}
                className="h-10 w-full rounded-lg border border-slate-300 px-2 text-sm focus:border-brand-700 focus:outline-2 focus:outline-brand-700"
              />
            </div>
          ))}
          <div className="sm:col-span-2 lg:col-span-5">
            <Button type="submit">Filter</Button>
          </div>
        </form>
      </Panel>
      <div className="mt-4">
        <QueryState isPending={log.isPending} error={log.error} empty={log.data?.items.length === 0} emptyText="No audit entries match.">
          <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Audit entries, newest first</caption>
              <thead className="bg-slate-100 text-slate-700">
                <tr>
                  <th scope="col" className="p-2">Time</th>
                  <th scope="col" className="p-2">Actor</th>
                  <th scope="col" className="p-2">Action</th>
                  <th scope="col" className="p-2">Subject</th>
                  <th scope="col" className="p-2">Address</th>
                  <th scope="col" className="p-2">Details</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 align-top">
                {log.data?.items.map((entry) => (
                  <tr key={entry.id}>
                    <td className="p-2 whitespace-nowrap">{when(entry.createdAt)}</td>
                    <td className="p-2 break-all">{entry.actorEmail ?? entry.actorUserId ?? 'system'}</td>
                    <td className="p-2 font-mono">{entry.action}</td>
                    <td className="p-2 break-all">{entry.subjectType ? `${entry.subjectType} ${entry.subjectId ?? ''}` : ''}</td>
                    <td className="p-2">{entry.ip ?? ''}</td>
                    <td className="max-w-md p-2 font-mono text-xs break-all">{JSON.stringify(entry.details)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Audit log pages" page={page} pages={pages} total={log.data?.total ?? 0} noun="entries" onPage={go} />
        </QueryState>
      </div>
    </>
  );
}
