import { recipientList, transferResult, type TransferInput } from '@kestrel/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { http, segment } from '../../lib/http.ts';
import { accountKeys, fetchAccount } from '../accounts/api.ts';
import { transactionKeys } from '../transactions/api.ts';

/*
 * Wallet-to-wallet transfers: recipient search, recent recipients, the sender's account
 * and the transfer itself. Server calls and their query keys live here.
 */

// Request and response shapes are the contracts in @kestrel/shared.
export type { Recipient, TransferInput, TransferResult } from '@kestrel/shared';

// ---- Query keys ----

export const transferKeys = {
  all: ['transfers'] as const,
  search: (query: string) => [...transferKeys.all, 'search', query] as const,
  recent: (accountNumber: string) => [...transferKeys.all, 'recent', accountNumber] as const,
  recipient: (userName: string) => [...transferKeys.all, 'recipient', userName.toLowerCase()] as const,
};

// ---- Queries ----

const searchPath = (query: string) => `/v1/account/search?query=${encodeURIComponent(query)}`;

/** GET /v1/account/search: matches by account number, e-mail, phone or user name (exact) and names (part). */
export function useRecipientSearch(query: string) {
  const trimmed = query.trim();
  return useQuery({
    queryKey: transferKeys.search(trimmed),
    queryFn: async ({ signal }) => (await http.get(searchPath(trimmed), recipientList, { signal })).data,
    enabled: trimmed !== '',
    // Keep the last answer on screen while the next one loads, so the list does not flash empty per keystroke.
    placeholderData: keepPreviousData,
    // Accounts appear and change; a search should say what is true now.
    staleTime: 30_000,
  });
}

/** GET /v1/account/transfer_balance/recent/:accountNumber: the latest distinct recipients. */
export function useRecentRecipients(accountNumber: string | undefined) {
  return useQuery({
    queryKey: transferKeys.recent(accountNumber ?? ''),
    queryFn: async ({ signal }) =>
      (await http.get(`/v1/account/transfer_balance/recent/${segment(accountNumber ?? '')}`, recipientList, { signal })).data,
    enabled: Boolean(accountNumber),
  });
}

/**
 * The recipient named in the URL. GET /v1/account/:key answers only the caller's own
 * accounts, so the recipient is looked up through the search, which matches user names
 * exactly; null when no other account has this user name.
 */
export function useRecipient(userName: string) {
  return useQuery({
    queryKey: transferKeys.recipient(userName),
    queryFn: async ({ signal }) => {
      const matches = (await http.get(searchPath(userName), recipientList, { signal })).data;
      const wanted = userName.toLowerCase();
      return matches.find((match) => match.userName.toLowerCase() === wanted) ?? null;
    },
    enabled: userName !== '',
  });
}

/**
 * The sending account with its balances, in the accounts feature's cache entry (the header's
 * View Balance reads the same one). Refetched whenever the form opens: the remaining-balance
 * preview must use the balance as it is now, not as it was five minutes ago.
 */
export function useSenderAccount(accountNumber: string | undefined) {
  return useQuery({
    queryKey: accountKeys.detail(accountNumber ?? ''),
    queryFn: ({ signal }) => fetchAccount(accountNumber ?? '', signal),
    enabled: Boolean(accountNumber),
    refetchOnMount: 'always',
  });
}

// ---- Mutations ----

/** A v4 UUID. `crypto.randomUUID` exists only in secure contexts; a plain-http LAN address is not one. */
function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * POST /v1/account/transfer_balance with an Idempotency-Key header.
 *
 * The key belongs to the transfer being asked for (sender, recipient, currency, amount), not
 * to the click: when an attempt fails or its answer is lost and the user sends the same
 * transfer again, the same key goes with it, so a first attempt that did reach the server
 * is answered again instead of moving the money twice. A different amount or recipient is a
 * new transfer with a new key. The server records only successful transfers under a key, so
 * resending after a refusal (a wrong TPIN, say) simply runs again.
 */
export function useTransferBalance() {
  const queryClient = useQueryClient();
  const pending = useRef<{ transfer: string; key: string } | null>(null);

  return useMutation({
    mutationFn: async ({ body }: { body: TransferInput; sender: { _id: string; accountNumber: string } }) => {
      const transfer = JSON.stringify([body.debitAccountKey, body.creditAccountKey, body.currency, body.balance]);
      if (pending.current?.transfer !== transfer) pending.current = { transfer, key: newIdempotencyKey() };
      const { data } = await http.post('/v1/account/transfer_balance', body, transferResult, {
        headers: { 'Idempotency-Key': pending.current.key },
      });
      return data;
    },
    onSuccess: (_result, { sender }) => {
      pending.current = null;
      // What the transfer changed on the sender's side (the recipient is always someone else's
      // account, so none of its data is in this cache). Not awaited: the success state shows
      // at once while these refresh behind it.
      for (const queryKey of [
        // The balance, under whichever key (number, user name, id) a screen read the account by.
        accountKeys.details(),
        // The dashboard's Total Transaction counter.
        accountKeys.summary(sender.accountNumber),
        accountKeys.activities(sender._id),
        transactionKeys.account(sender.accountNumber),
        transferKeys.recent(sender.accountNumber),
      ]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
