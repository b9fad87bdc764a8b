import { createContext, useContext } from 'react';
import type { UserProfile } from '@kestrel/shared';

/** The verified account holder the portal gate let in; every page inside the shell can read it. */
export const PortalUserContext = createContext<UserProfile | null>(null);

export function usePortalUser(): UserProfile {
  const user = useContext(PortalUserContext);
  if (!user) throw new Error('usePortalUser must be used inside the portal gate');
  return user;
}
