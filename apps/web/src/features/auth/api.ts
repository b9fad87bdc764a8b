import type * as Contracts from '@kestrel/shared';
import type {
  ForgotPasswordBody,
  LoginBody,
  LoginResult,
  LoginSecondStepInput,
  PasskeyRequestOptions,
  RegisterBody,
  ResetPasswordBody,
  SendVerificationBody,
  VerifyEmailBody,
} from '@kestrel/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { COOKIE_NAMES, readCookie } from '../../lib/cookies.ts';
import { http, segment } from '../../lib/http.ts';
import { passkeyAssertion, passkeyAttestation } from '../../lib/passkeys.ts';
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

export const sessionKeys = {
  all: ['sessions'] as const,
};

export const twoFactorKeys = {
  all: ['two-factor'] as const,
};

export const passkeyKeys = {
  all: ['passkeys'] as const,
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

/** A session just made, with the first account for the account cookies. */
export type SignedIn = LoginResult & { secondStep?: undefined; account: ActiveAccount | undefined };
/** The password was right and two-factor sign-in is on: the second step's challenge. */
export interface SecondStepNeeded {
  secondStep: 'totp' | 'passkey';
  challengeToken: string;
  expiresAt: string;
  /** With a passkey: the options its assertion answers (the second step may take it instead of a code). */
  passkey?: PasskeyRequestOptions | undefined;
}

async function withFirstAccount(data: LoginResult): Promise<SignedIn> {
  const firstAccountId = data.accounts[0];
  const account = firstAccountId ? await fetchFirstAccount(firstAccountId, data.token) : undefined;
  return { ...data, account };
}

/**
 * POST /v1/auth/login, then GET the first account for the account cookies; with two-factor
 * sign-in on, the answer is the second step's challenge instead. The caller starts the
 * session (`startSession`) in its onSuccess, together with the toast and the redirect:
 * starting it re-renders /login into a redirect, which would drop later callbacks.
 */
export function useLogin() {
  return useMutation({
    mutationFn: async (body: LoginBody): Promise<SignedIn | SecondStepNeeded> => {
      const { data } = await http.post('/v1/auth/login', body, (contracts) => contracts.loginAnswer, { auth: false });
      if ('secondStep' in data) return data;
      return withFirstAccount(data);
    },
  });
}

/** POST /v1/auth/login/second-step: the challenge and a code (the app's or a recovery code), or a passkey's assertion, make the session. */
export function useLoginSecondStep() {
  return useMutation({
    mutationFn: async (body: LoginSecondStepInput): Promise<SignedIn> =>
      withFirstAccount((await http.post('/v1/auth/login/second-step', body, (contracts) => contracts.loginResult, { auth: false })).data),
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

/** POST /v1/auth/forgot-password: the same answer whether or not the address has an account. */
export function useForgotPassword() {
  return useMutation({
    mutationFn: async (body: ForgotPasswordBody) => http.post('/v1/auth/forgot-password', body, (contracts) => contracts.noData, { auth: false }),
  });
}

/** POST /v1/auth/reset-password with the mailed link's token; the server ends every session of the account. */
export function useResetPassword() {
  return useMutation({
    mutationFn: async (body: ResetPasswordBody) => http.post('/v1/auth/reset-password', body, (contracts) => contracts.noData, { auth: false }),
  });
}

/**
 * Logout (spec: removes the five cookies and goes to /login): the cookies go and the user is on
 * /login at once; the token is revoked on the server in the background, so a slow server never
 * keeps a person waiting to leave. The token is read before the cookies go, and sent explicitly.
 */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return () => {
    const token = readCookie(COOKIE_NAMES.accessToken);
    endSession();
    queryClient.clear();
    void navigate('/login', { replace: true });
    if (token)
      void http
        .post('/v1/auth/logout', undefined, (contracts) => contracts.noData, { auth: false, token, signal: AbortSignal.timeout(10_000) })
        // The session is already gone here; a token the server could not revoke now dies at its expiry.
        .catch(() => undefined);
  };
}

// ---- Signed-in devices (My Account → Security) ----

export type { SessionView } from '@kestrel/shared';

/** GET /v1/auth/sessions: the signed-in user's live sessions, most recently used first. */
export function useSignedInDevices() {
  return useQuery({
    queryKey: sessionKeys.all,
    queryFn: async ({ signal }) => (await http.get('/v1/auth/sessions', (contracts) => contracts.sessionList, { signal })).data,
  });
}

/** DELETE /v1/auth/sessions/{id}: signs one other device out; the list is read again after. */
export function useSignOutDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (sessionId: string) => http.delete(`/v1/auth/sessions/${segment(sessionId)}`, (contracts) => contracts.noData),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}

/** POST /v1/auth/sessions/sign-out-others: every device but this one. */
export function useSignOutOtherDevices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => http.post('/v1/auth/sessions/sign-out-others', undefined, (contracts) => contracts.signedOutOthers),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}

// ---- Two-factor sign-in (My Account → Security) ----

/** GET /v1/auth/two-factor: on or off, and the recovery codes left. */
export function useTwoFactorStatus() {
  return useQuery({
    queryKey: twoFactorKeys.all,
    queryFn: async ({ signal }) => (await http.get('/v1/auth/two-factor', (contracts) => contracts.twoFactorStatus, { signal })).data,
  });
}

/** POST /v1/auth/two-factor/setup with the account's password: a new secret (base32 and otpauth URI), off until confirmed. */
export function useStartTwoFactorSetup() {
  return useMutation({
    mutationFn: async (password: string) => (await http.post('/v1/auth/two-factor/setup', { password }, (contracts) => contracts.twoFactorSetup)).data,
  });
}

/** POST /v1/auth/two-factor/enable: a code from the app (and the password again) turns it on; answers the recovery codes once. */
export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { code: string; password: string }) => http.post('/v1/auth/two-factor/enable', body, (contracts) => contracts.twoFactorEnabled),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKeys.all }),
  });
}

/** POST /v1/auth/two-factor/recovery-codes with a current app code: ten new recovery codes, the old ones void. */
export function useRenewRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (code: string) => http.post('/v1/auth/two-factor/recovery-codes', { code }, (contracts) => contracts.twoFactorEnabled),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKeys.all }),
  });
}

/** POST /v1/auth/two-factor/disable: a current code (the app's or a recovery code) turns it off. */
export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (code: string) => http.post('/v1/auth/two-factor/disable', { code }, (contracts) => contracts.noData),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKeys.all }),
  });
}

// ---- Passkeys (sign-in, My Account → Security) ----

export type { PasskeyView } from '@kestrel/shared';

/** The options, the browser's passkey, then POST /v1/auth/login/passkey: a session without the password. */
export function usePasskeySignIn() {
  return useMutation({
    mutationFn: async (): Promise<SignedIn> => {
      const { data: options } = await http.post('/v1/auth/login/passkey/options', undefined, (contracts) => contracts.passkeyRequestOptions, { auth: false });
      const credential = await passkeyAssertion(options);
      return withFirstAccount((await http.post('/v1/auth/login/passkey', { credential }, (contracts) => contracts.loginResult, { auth: false })).data);
    },
  });
}

/** GET /v1/auth/passkeys: the signed-in user's passkeys. */
export function usePasskeys() {
  return useQuery({
    queryKey: passkeyKeys.all,
    queryFn: async ({ signal }) => (await http.get('/v1/auth/passkeys', (contracts) => contracts.passkeyList, { signal })).data,
  });
}

/** The options (the password asked first), the browser makes the passkey, then POST /v1/auth/passkeys with its name. Two-factor status changes with it. */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, password }: { name: string; password: string }) => {
      const { data: options } = await http.post('/v1/auth/passkeys/options', { password }, (contracts) => contracts.passkeyCreationOptions);
      const credential = await passkeyAttestation(options);
      return http.post('/v1/auth/passkeys', { name, credential }, (contracts) => contracts.passkeyView);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeyKeys.all }),
  });
}

/** PATCH /v1/auth/passkeys/{id}: a new name. */
export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ passkeyId, name }: { passkeyId: string; name: string }) =>
      http.patch(`/v1/auth/passkeys/${segment(passkeyId)}`, { name }, (contracts) => contracts.passkeyView),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeyKeys.all }),
  });
}

/**
 * POST /v1/auth/passkeys/{id}/remove with a current second factor: a code (the app's or a
 * recovery code), or one of the person's passkeys (its options, then the browser's prompt).
 * Removing the last second factor turns two-factor sign-in off: its status changes with it.
 */
export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ passkeyId, confirm }: { passkeyId: string; confirm: { code: string } | 'passkey' }) => {
      let body: { code: string } | { passkey: Contracts.PasskeyAssertionInput };
      if (confirm === 'passkey') {
        const { data: options } = await http.post('/v1/auth/passkeys/confirm/options', undefined, (contracts) => contracts.passkeyRequestOptions);
        body = { passkey: await passkeyAssertion(options) };
      } else body = confirm;
      return http.post(`/v1/auth/passkeys/${segment(passkeyId)}/remove`, body, (contracts) => contracts.noData);
    },
    // Not awaited: the refetched list drops the row (and its form) at once, and the form's own
    // onSuccess (the toast) must run before that unmounts it.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: passkeyKeys.all });
      void queryClient.invalidateQueries({ queryKey: twoFactorKeys.all });
    },
  });
}
