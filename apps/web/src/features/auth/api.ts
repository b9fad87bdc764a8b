import {
  accountView,
  loginResult,
  noData,
  registerResult,
  userProfile,
  type LoginBody,
  type RegisterBody,
  type SendVerificationBody,
  type VerifyEmailBody,
} from '@kestrel/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { http, segment } from '../../lib/http.ts';
import { endSession, useSession, type ActiveAccount } from '../../lib/session.ts';

/*
 * Identity: login, sign-up, logout, e-mail verification and the signed-in user's profile.
 * Server calls and their query keys live here; pages only decide what the user sees.
 */

// Response shapes are the contracts in @kestrel/shared.
export type { AccountSummary, AccountType, LoginResult, RegisterResult, UserProfile } from '@kestrel/shared';

/** The part of GET /v1/account/:id that login keeps in cookies. */
const accountCookieFields = accountView.pick({ accountNumber: true, accountEmail: true, userName: true });

// ---- Query keys ----

export const userKeys = {
  all: ['users'] as const,
  detail: (userId: string) => [...userKeys.all, userId] as const,
};

// ---- Queries ----

/** The signed-in user (GET /v1/user/:userId): verification and account-holder state, accounts. */
export function useCurrentUser() {
  const { userId } = useSession();
  return useQuery({
    queryKey: userKeys.detail(userId ?? ''),
    queryFn: async ({ signal }) => (await http.get(`/v1/user/${segment(userId ?? '')}`, userProfile, { signal })).data,
    enabled: Boolean(userId),
  });
}

// ---- Mutations ----

async function fetchFirstAccount(accountId: string, token: string): Promise<ActiveAccount | undefined> {
  try {
    const { data } = await http.get(`/v1/account/${segment(accountId)}`, accountCookieFields, { token });
    return { accountNumber: data.accountNumber, accountEmail: data.accountEmail, userName: data.userName };
  } catch {
    // The spec gives this fetch no error handling: the portal opens without an active
    // account and the account switcher can choose one.
    return undefined;
  }
}

/**
 * POST /v1/auth/login, then GET the first account for the account cookies. The caller
 * starts the session (`startSession`) in its onSuccess, together with the toast and the
 * redirect: starting it re-renders /login into a redirect, which would drop later callbacks.
 */
export function useLogin() {
  return useMutation({
    mutationFn: async (body: LoginBody) => {
      const { data } = await http.post('/v1/auth/login', body, loginResult, { auth: false });
      const firstAccountId = data.accounts[0];
      const account = firstAccountId ? await fetchFirstAccount(firstAccountId, data.token) : undefined;
      return { ...data, account };
    },
  });
}

/** POST /v1/user/register; the answer carries a token, so the caller starts the session like login. */
export function useRegister() {
  return useMutation({
    mutationFn: async (body: RegisterBody) => http.post('/v1/user/register', body, registerResult, { auth: false }),
  });
}

/** POST /v1/user/verify-email with the token from the mailed link (no session needed). */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: VerifyEmailBody) => http.post('/v1/user/verify-email', body, noData, { auth: false }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

/** POST /v1/user/send-verification-code: mails a new verification link. */
export function useSendVerificationMail() {
  return useMutation({
    mutationFn: async (body: SendVerificationBody) => http.post('/v1/user/send-verification-code', body, noData),
  });
}

/**
 * Logout: revokes the token on the server, then removes the five cookies and goes to
 * /login. The local sign-out happens even when the server cannot be reached.
 */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await http.post('/v1/auth/logout', undefined, noData, { signal: AbortSignal.timeout(5000) });
    },
    onSettled: () => {
      endSession();
      queryClient.clear();
      void navigate('/login', { replace: true });
    },
  });
}
