import type { ReactNode } from 'react';
import { CenteredLayout } from '../../../components/CenteredLayout.tsx';
import { LogoutLink } from './LogoutLink.tsx';

/** The frame of the portal gate's interim pages (verify e-mail, complete account): logo and Logout. */
export function GateFrame({ children }: { children: ReactNode }) {
  return (
    <CenteredLayout logoTo="/dashboard" actions={<LogoutLink />}>
      {children}
    </CenteredLayout>
  );
}
