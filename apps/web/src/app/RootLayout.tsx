import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { Outlet, ScrollRestoration, useNavigate } from 'react-router';
import { onSessionRejected } from '../lib/http.ts';
import { endSession, useSessionWatcher } from '../lib/session.ts';

/**
 * The root of every route: watches the session (cookie polling, 7-day auto-logout) and
 * signs the user out when the server rejects their token.
 */
export function RootLayout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const toLogin = useCallback(() => {
    void navigate('/login', { replace: true });
    queryClient.clear();
  }, [navigate, queryClient]);

  useSessionWatcher(toLogin);

  useEffect(
    () =>
      onSessionRejected(() => {
        endSession();
        toLogin();
      }),
    [toLogin],
  );

  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
