import { STORE_STATUSES, type StoreStatus } from '@kestrel/shared';
import { useState } from 'react';
import { Button } from '../../../components/Button.tsx';
import { useOpsStores, useStoreDecision } from '../api.ts';
import { AuthImage, Facts, OpsHeading, Panel, QueryState, ReasonAction, StatusBadge, when, withToast } from '../components/ui.tsx';

/** /ops/stores: pending stores first; logo, business documents, URLs, owner; Approve / Reject with a reason. */
export function StoresPage() {
  const [status, setStatus] = useState<StoreStatus>('Pending');
  const stores = useOpsStores(status);
  const decide = useStoreDecision();
  return (
    <>
      <OpsHeading title="Stores">
        <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
          Status
          <select value={status} onChange={(event) => setStatus(event.target.value as StoreStatus)} className="h-10 rounded-lg border border-slate-300 bg-white px-2">
            {STORE_STATUSES.map((value) => (
              <option key={value}>{value}</option>
            ))}
          </select>
        </label>
      </OpsHeading>
      <QueryState isPending={stores.isPending} error={stores.error} empty={stores.data?.length === 0} emptyText={`No ${status.toLowerCase()} stores.`}>
        <ul className="space-y-4">
          {stores.data?.map((store) => (
            <li key={store._id}>
              <Panel>
                <article aria-label={store.storeName} className="grid gap-4 md:grid-cols-[8rem_1fr]">
                  <img src={store.storeLogo} alt={`${store.storeName} logo`} className="size-32 rounded-lg border border-slate-200 object-contain" />
                  <div className="space-y-3">
                    <div className="flex flex-wrap items-center gap-2">
                      <h2 className="text-lg font-semibold text-slate-900">{store.storeName}</h2>
                      <StatusBadge status={store.status} />
                    </div>
                    <Facts
                      rows={[
                        ['Store id', store.storeId],
                        ['Store URL', <a key="u" className="text-brand-700 underline" href={store.storeURL} target="_blank" rel="noreferrer">{store.storeURL}</a>],
                        ['Callback URL', store.callbackURL],
                        ['Owner account', `${store.accountNumber} (${store.accountEmail})`],
                        ['Created', when(store.createdAt)],
                        ...(store.statusReason ? ([['Reason', store.statusReason]] as [string, string][]) : []),
                      ]}
                    />
                    <div>
                      <h3 className="mb-2 text-sm font-semibold text-slate-700">Business documents</h3>
                      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
                        {store.documents.map((document, index) => (
                          <AuthImage key={document._id} src={document.url} alt={`${store.storeName} business document ${index + 1}`} />
                        ))}
                      </div>
                    </div>
                    {store.status === 'Pending' ? (
                      <div className="space-y-2 border-t border-slate-200 pt-3">
                        <Button
                          loading={decide.isPending && decide.variables?.storeId === store.storeId && decide.variables.decision === 'approve'}
                          onClick={() => void withToast(decide.mutateAsync({ storeId: store.storeId, decision: 'approve' }), `${store.storeName} approved`, 'Could not approve the store').catch(() => undefined)}
                        >
                          Approve
                        </Button>
                        <ReasonAction
                          label="Reject"
                          variant="danger"
                          placeholder="Reason the owner will see"
                          pending={decide.isPending && decide.variables?.storeId === store.storeId && decide.variables.decision === 'reject'}
                          onSubmit={(reason) => withToast(decide.mutateAsync({ storeId: store.storeId, decision: 'reject', reason }), `${store.storeName} rejected`, 'Could not reject the store')}
                        />
                      </div>
                    ) : null}
                  </div>
                </article>
              </Panel>
            </li>
          ))}
        </ul>
      </QueryState>
    </>
  );
}
