import { STORE_STATUSES, type StoreStatus } from '@kestrel/shared';
import { useState } from 'react';
import { useOpsStores, useStoreDecision, type StoreDecision } from '../api.ts';
import { AuthImage, Facts, OpsHeading, PanelList, ReasonAction, StatusBadge, StatusFilter, when, withToast } from '../components/ui.tsx';

/** /ops/stores: pending stores first; logo, business documents, URLs, owner; Approve / Reject, Suspend / Reinstate, each with a reason. */
export function StoresPage() {
  const [status, setStatus] = useState<StoreStatus>('Pending');
  const stores = useOpsStores(status);
  return (
    <>
      <OpsHeading title="Stores">
        <StatusFilter value={status} statuses={STORE_STATUSES} onChange={(value) => setStatus(value as StoreStatus)} />
      </OpsHeading>
      <PanelList
        query={stores}
        emptyText={`No ${status.toLowerCase()} stores.`}
        itemKey={(store) => store._id}
        label={(store) => store.storeName}
        className="grid gap-4 md:grid-cols-[8rem_1fr]"
      >
        {(store) => (
          <>
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
              <StoreActions storeId={store.storeId} storeName={store.storeName} status={store.status} />
            </div>
          </>
        )}
      </PanelList>
    </>
  );
}

/** What an operator may do from each status: every decision takes a reason (the audit log keeps it; a rejection's or suspension's is shown to the owner). */
const ACTIONS: Partial<Record<StoreStatus, { decision: StoreDecision; label: string; variant: 'primary' | 'danger'; placeholder: string; done: string }[]>> = {
  Pending: [
    { decision: 'approve', label: 'Approve', variant: 'primary', placeholder: 'Reason for approving (kept in the audit log)', done: 'approved' },
    { decision: 'reject', label: 'Reject', variant: 'danger', placeholder: 'Reason the owner will see', done: 'rejected' },
  ],
  Approved: [{ decision: 'suspend', label: 'Suspend', variant: 'danger', placeholder: 'Reason the owner will see', done: 'suspended' }],
  Suspended: [{ decision: 'reinstate', label: 'Reinstate', variant: 'primary', placeholder: 'Reason for reinstating (kept in the audit log)', done: 'reinstated' }],
};

function StoreActions({ storeId, storeName, status }: { storeId: string; storeName: string; status: StoreStatus }) {
  const decide = useStoreDecision();
  const actions = ACTIONS[status];
  if (!actions) return null;
  return (
    <div className="space-y-3 border-t border-slate-200 pt-3">
      {actions.map((action) => (
        <ReasonAction
          key={action.decision}
          label={action.label}
          variant={action.variant}
          placeholder={action.placeholder}
          pending={decide.isPending && decide.variables?.storeId === storeId && decide.variables.decision === action.decision}
          onSubmit={(reason) => withToast(decide.mutateAsync({ storeId, decision: action.decision, reason }), `${storeName} ${action.done}`, `Could not update the store`)}
        />
      ))}
    </div>
  );
}
