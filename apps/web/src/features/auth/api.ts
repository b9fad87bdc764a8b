import type * as Contracts from '@kestrel/shared';
import type { LoginBody, RegisterBody, SendVerificationBody, VerifyEmailBody } from '@kestrel/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { http, segment } from '../../lib/http.ts';
import { endSession, useSession, type ActiveAccount } from '../../lib/session.ts';

/*
 * Identity: login, sign-up, logout, e-mail verification and the signed-in user's profile.
 * Server calls and their query keys live here; pages only decide what the user sees.
 */

// Response shapes are the contracts in @kestrel/shared, passed as `(contracts) => contracts.<schema>`
// (lib/http.ts): checked in development only, so reading pages download neither them nor zod.
export type { AccountSummary, AccountType, LoginResult, RegisterResult, UserProfile } from '@kestrel/shared';

/** The part of GET /v1/account/:id that login keeps in cookies. */
const accountCookieFields = (contracts: typeof Contracts) => contracts.accountView.pick({ accountNumber: true, accountEmail: true, userName: true });

// ---- Query keys ----

export const userKeys = {
  all: ['users'] as const,
  detail: (userId: string) => [...userKeys.all, userId] as const,
};

// ---- Queries ----

/** GET /v1/user/:userId: the query of a user's profile (verification and account-holder state, accounts). */
export const userQuery = (userId: string | undefined) =>
  queryOptions({
    queryKey: userKeys.detail(userId ?? ''),
    queryFn: async ({ signal }) => (await http.get(`/v1/user/${segment(userId ?? '')}`, (contracts) => contracts.userProfile, { signal })).data,
    enabled: Boolean(userId),
  });

/** The signed-in user. */
export function useCurrentUser() {
  const { userId } = useSession();
  return useQuery(userQuery(userId));
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
      const { data } = await http.post('/v1/auth/login', body, (contracts) => contracts.loginResult, { auth: false });
      const firstAccountId = data.accounts[0];
      const account = firstAccountId ? await fetchFirstAccount(firstAccountId, data.token) : undefined;
      return { ...data, account };
    },
  });
}

/** POST /v1/user/register; the answer carries a token, so the caller starts the session like login. */
export function useRegister() {
  return useMutation({
    mutationFn: async (body: RegisterBody) => http.post('/v1/user/register', body, (contracts) => contracts.registerResult, { auth: false }),
  });
}

/** POST /v1/user/verify-email with the token from the mailed link (no session needed). */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: VerifyEmailBody) => http.post('/v1/user/verify-email', body, (contracts) => contracts.noData, { auth: false }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

/** POST /v1/user/send-verification-code: mails a new verification link. */
export function useSendVerificationMail() {
  return useMutation({
    mutationFn: async (body: SendVerificationBody) => http.post('/v1/user/send-verification-code', body, (contracts) => contracts.noData),
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
      await http.post('/v1/auth/logout', undefined, (contracts) => contracts.noData, { signal: AbortSignal.timeout(5000) });
    },
    onSettled: () => {
      endSession();
      queryClient.clear();
      void navigate('/login', { replace: true });
    },
  });
}
