import { uiText } from '@kestrel/shared';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { usePortalUser } from '../../../lib/portal-user.ts';
import { CompleteAccountForm } from '../components/CompleteAccountForm.tsx';

/** /new-account ('+ Create New Account'): the complete-account form for another account. */
export function NewAccountPage() {
  const user = usePortalUser();
  return (
    <>
      <PageTitle title={uiText.portal.completeAccountTitle} />
      <div className="mx-auto max-w-3xl">
        <CompleteAccountForm user={user} />
      </div>
    </>
  );
}
