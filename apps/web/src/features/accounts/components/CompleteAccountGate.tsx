import { PRODUCT_NAME, uiText } from '@kestrel/shared';
import { StatusCard } from '../../../components/CenteredLayout.tsx';
import { UserIcon } from '../../../components/icons.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import type { UserProfile } from '../../auth/api.ts';
import { GateFrame } from '../../portal/components/GateFrame.tsx';

/**
 * Portal gate slot for a verified user who holds no account yet.
 *
 * TODO(accounts issue): replace this interim page with the real 'Complete Your ... Account'
 * form (POST /v1/account/create, then PATCH /v1/account/upload-image).
 */
export function CompleteAccountGate({ user }: { user: UserProfile }) {
  return (
    <GateFrame>
      <PageTitle title={uiText.portal.completeAccountTitle} />
      <StatusCard icon={<UserIcon />} title={uiText.portal.completeAccountTitle}>
        <p>
          Welcome, {user.firstName}. Your e-mail is verified. Opening a {PRODUCT_NAME} account online is being built and will be
          available here soon.
        </p>
      </StatusCard>
    </GateFrame>
  );
}
