import { Link } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { useIdentityReviews, useRequestDocuments, useVerifyIdentity } from '../api.ts';
import { AuthImage, Facts, OpsHeading, PanelList, ReasonAction, when, withToast } from '../components/ui.tsx';

/** /ops/identity: the holder's images side by side with the account's identity fields; Verify or Ask for new documents. */
export function IdentityPage() {
  const reviews = useIdentityReviews();
  const verify = useVerifyIdentity();
  const ask = useRequestDocuments();
  return (
    <>
      <OpsHeading title="Identity reviews" />
      <PanelList
        query={reviews}
        emptyText="No identity documents wait for review."
        itemKey={(review) => review.accountId}
        label={(review) => `Identity of ${review.accountHolderName}`}
        className="grid gap-4 lg:grid-cols-[20rem_1fr]"
      >
        {(review) => (
          <>
            <div className="space-y-3">
              <h2 className="text-lg font-semibold text-slate-900">{review.accountHolderName}</h2>
              <Facts
                rows={[
                  ['Account', <Link key="a" className="text-brand-700 underline" to={`/ops/accounts/${review.accountId}`}>{review.accountNumber}</Link>],
                  ['Identity type', review.identity.type],
                  ['Identity number', <span key="n" className="font-mono">{review.identity.number}</span>],
                  ['Uploaded', review.documents[0] ? when(review.documents[0].createdAt) : '—'],
                ]}
              />
              <div className="space-y-2 border-t border-slate-200 pt-3">
                <Button
                  loading={verify.isPending && verify.variables === review.accountId}
                  onClick={() => void withToast(verify.mutateAsync(review.accountId), `${review.accountHolderName} verified`, 'Could not verify the identity').catch(() => undefined)}
                >
                  Verify
                </Button>
                <ReasonAction
                  label="Ask for new documents"
                  placeholder="Reason the holder will see"
                  pending={ask.isPending && ask.variables?.accountId === review.accountId}
                  onSubmit={(reason) => withToast(ask.mutateAsync({ accountId: review.accountId, reason }), 'New documents requested', 'Could not ask for new documents')}
                />
              </div>
            </div>
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
              {review.documents.map((document, index) => (
                <AuthImage key={document._id} src={document.url} alt={`${review.accountHolderName} identity document ${index + 1}`} />
              ))}
            </div>
          </>
        )}
      </PanelList>
    </>
  );
}
