import type { Account, CreateAccountInput, CreatedAccount } from '@kestrel/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { saveBlob } from '../../lib/download.ts';
import { http, segment } from '../../lib/http.ts';
import { useSession } from '../../lib/session.ts';
import { userKeys } from '../auth/api.ts';

/*
 * Wallet accounts: one account, its dashboard counters and activities, identity images,
 * the countries list of the complete-account form, and opening a new account.
 */

// Response shapes are the contracts in @kestrel/shared, passed as `(contracts) => contracts.<schema>`
// (lib/http.ts): checked in development only, so reading pages download neither them nor zod.
export type {
  Account,
  AccountCounters,
  Activity,
  ActivityGroup,
  Balance,
  CreatedAccount,
  IdentityImage,
  IdentityType,
  NotificationPreference,
} from '@kestrel/shared';

/** The countries list of the data host, as the form uses it. */
export interface Country {
  code: string;
  name: string;
}

// ---- Query keys ----

export const accountKeys = {
  all: ['accounts'] as const,
  details: () => [...accountKeys.all, 'detail'] as const,
  /** One account by whichever key the caller holds: id, account number or user name. */
  detail: (key: string) => [...accountKeys.details(), key] as const,
  summary: (accountNumber: string) => [...accountKeys.all, 'summary', accountNumber] as const,
  chart: (accountNumber: string) => [...accountKeys.all, 'chart', accountNumber] as const,
  activities: (accountId: string) => [...accountKeys.all, 'activities', accountId] as const,
  identityImage: (url: string) => [...accountKeys.all, 'identity-image', url] as const,
};

export const countryKeys = {
  all: ['countries'] as const,
};

// ---- Queries ----

export async function fetchAccount(key: string, signal?: AbortSignal): Promise<Account> {
  return (await http.get(`/v1/account/${segment(key)}`, (contracts) => contracts.accountView, { signal })).data;
}

/** One of the user's accounts (GET /v1/account/{key}). */
export function useAccount(key: string | undefined) {
  return useQuery({
    queryKey: accountKeys.detail(key ?? ''),
    queryFn: ({ signal }) => fetchAccount(key ?? '', signal),
    enabled: Boolean(key),
  });
}

/** The account the cookies name (the header, My Account and the dashboard work on it). */
export function useActiveAccount() {
  const { accountNumber } = useSession();
  return useAccount(accountNumber);
}

/** GET /v1/account/{accountNumber}/summary: the query of the dashboard's four counters for an account. */
export const accountCountersQuery = (accountNumber: string | undefined) =>
  queryOptions({
    queryKey: accountKeys.summary(accountNumber ?? ''),
    queryFn: async ({ signal }) =>
      (await http.get(`/v1/account/${segment(accountNumber ?? '')}/summary`, (contracts) => contracts.accountCounters, { signal })).data,
    enabled: Boolean(accountNumber),
  });

/** The dashboard's four counters for an account. */
export function useAccountCounters(accountNumber: string | undefined) {
  return useQuery(accountCountersQuery(accountNumber));
}

/**
 * GET /v1/account/{accountNumber}/chart: the dashboard's balance and money in / out per UTC day.
 * `enabled` false holds the call back (the dashboard asks once its counters have answered).
 */
export function useAccountChart(accountNumber: string | undefined, enabled = true) {
  return useQuery({
    queryKey: accountKeys.chart(accountNumber ?? ''),
    queryFn: async ({ signal }) => (await http.get(`/v1/account/${segment(accountNumber ?? '')}/chart`, (contracts) => contracts.accountChart, { signal })).data,
    enabled: Boolean(accountNumber) && enabled,
  });
}

/** GET /v1/activities?accountId=: the account's activities, grouped by day. */
export function useActivities(accountId: string | undefined) {
  return useQuery({
    queryKey: accountKeys.activities(accountId ?? ''),
    queryFn: async ({ signal }) =>
      (await http.get(`/v1/activities?${new URLSearchParams({ accountId: accountId ?? '' }).toString()}`, (contracts) => contracts.activityGroupList, { signal })).data,
    enabled: Boolean(accountId),
  });
}

/** An identity image as a blob: the route needs the Authorization header, which an <img> cannot send. */
export function useIdentityImage(url: string) {
  return useQuery({
    queryKey: accountKeys.identityImage(url),
    queryFn: ({ signal }) => http.blob(url, { signal }),
    // An uploaded image never changes under its id.
    staleTime: Infinity,
  });
}

/**
 * The spec's public countries list (GET {host}/data/v1/countries, no Authorization):
 * a map of code to {country}, turned into a list sorted by name.
 */
export function useCountries() {
  return useQuery({
    queryKey: countryKeys.all,
    queryFn: async ({ signal }): Promise<Country[]> => {
      const response = await fetch('/data/v1/countries', { signal, headers: { Accept: 'application/json' } });
      if (!response.ok) throw new Error(`The countries list could not be loaded (${response.status}).`);
      const map = (await response.json()) as Record<string, { country: string }>;
      return Object.entries(map)
        .map(([code, entry]) => ({ code, name: entry.country }))
        .sort((a, b) => a.name.localeCompare(b.name));
    },
    staleTime: Infinity,
  });
}

/**
 * A stored country code ('BD') as people read it ('Bangladesh'), from the same countries list;
 * the code itself while the list loads or when it names nothing on it (an old row).
 */
export function useCountryName(code: string): string {
  const countries = useCountries();
  return countries.data?.find((country) => country.code === code)?.name ?? code;
}

// ---- Mutations ----

/**
 * The account exists but its identity images did not upload. The form keeps the account
 * and retries only the upload, so a second submit does not hit 'userName is already exist!'.
 */
export class IdentityUploadError extends Error {
  readonly account: CreatedAccount;
  override readonly cause: unknown;
  constructor(account: CreatedAccount, cause: unknown) {
    super(cause instanceof Error ? cause.message : 'The identity images could not be uploaded.');
    this.name = 'IdentityUploadError';
    this.account = account;
    this.cause = cause;
  }
}

export interface OpenAccountInput {
  body: CreateAccountInput;
  identityImages: readonly File[];
  /** Set when an earlier attempt created the account and only the upload is left. */
  created?: CreatedAccount | undefined;
}

/**
 * Opening an account is two calls: POST /v1/account/create, then PATCH
 * /v1/account/upload-image with the identity images. They run as one mutation so the
 * user's account list (and with it the portal gate) changes only when both are done.
 */
export function useOpenAccount() {
  const queryClient = useQueryClient();
  const { userId } = useSession();
  return useMutation({
    mutationFn: async ({ body, identityImages, created }: OpenAccountInput): Promise<CreatedAccount> => {
      const account = created ?? (await http.post('/v1/account/create', body, (contracts) => contracts.createdAccount)).data;
      const form = new FormData();
      form.append('accountId', account._id);
      form.append('accountNumber', account.accountNumber);
      for (const file of identityImages) form.append('identityImage', file, file.name);
      try {
        await http.patch('/v1/account/upload-image', form, (contracts) => contracts.identityImageList);
      } catch (error) {
        throw new IdentityUploadError(account, error);
      }
      return account;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.detail(userId ?? '') }),
  });
}

// ---- Monthly statements (issue 26) ----

export const statementKeys = {
  months: (accountNumber: string) => [...accountKeys.all, 'statement-months', accountNumber] as const,
};

/** The UTC months one account has a statement for, newest first (GET /v1/statement/account/{accountNumber}). */
export function useStatementMonths(accountNumber: string) {
  return useQuery({
    queryKey: statementKeys.months(accountNumber),
    queryFn: async ({ signal }) => (await http.get(`/v1/statement/account/${segment(accountNumber)}`, (contracts) => contracts.statementMonthList, { signal })).data,
  });
}

/** Saves one month's statement as its PDF or its signed JSON (the answer's data, as `npm run ledger:prove -- --statement` reads it); answers the file name. */
export async function downloadStatement(accountNumber: string, month: string, kind: 'pdf' | 'json'): Promise<string> {
  const path = `/v1/statement/account/${segment(accountNumber)}/${segment(month)}`;
  const filename = `statement-${accountNumber}-${month}.${kind}`;
  const blob =
    kind === 'pdf'
      ? await http.blob(`${path}/pdf`)
      : new Blob([JSON.stringify((await http.get(path, (contracts) => contracts.accountStatement)).data, null, 2)], { type: 'application/json' });
  saveBlob(blob, filename);
  return filename;
}
