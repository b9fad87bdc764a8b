import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { isSignedIn, useSession } from '../lib/session.ts';

/**
 * Protected routes: without the access cookie the user goes to /login, or sees `signedOut`
 * when given (the portal's catch-all shows a plain 'Page Not Found' to visitors).
 */
export function RequireAuth({ signedOut }: { signedOut?: ReactNode }) {
  const session = useSession();
  if (!isSignedIn(session)) return signedOut ?? <Navigate to="/login" replace />;
  return <Outlet />;
}

/** /login and /signup are closed to signed-in users. */
export function PublicOnly() {
  const session = useSession();
  if (isSignedIn(session)) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
