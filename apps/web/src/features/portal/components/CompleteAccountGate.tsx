import { uiText } from '@kestrel/shared';
import { PageTitle } from '../../../components/PageTitle.tsx';
import type { UserProfile } from '@kestrel/shared';
import { GateFrame } from './GateFrame.tsx';
import { CompleteAccountForm } from '../../accounts/components/CompleteAccountForm.tsx';

/** Portal gate: a verified user who holds no account completes one before the portal opens. */
export function CompleteAccountGate({ user }: { user: UserProfile }) {
  return (
    <GateFrame>
      <PageTitle title={uiText.portal.completeAccountTitle} />
      <CompleteAccountForm user={user} />
    </GateFrame>
  );
}
