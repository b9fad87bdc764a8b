import { Navigate, Outlet } from 'react-router';
import { isSignedIn, useSession } from '../lib/session.ts';

/** Protected routes: without the access cookie the user goes to /login. */
export function RequireAuth() {
  const session = useSession();
  if (!isSignedIn(session)) return <Navigate to="/login" replace />;
  return <Outlet />;
}

/** /login and /signup are closed to signed-in users. */
export function PublicOnly() {
  const session = useSession();
  if (isSignedIn(session)) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
