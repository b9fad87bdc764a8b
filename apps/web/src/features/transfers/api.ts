import { isStepUpRefusal, recipient as recipientSchema, recipientList, RECIPIENT_SEARCH_MIN_LENGTH, transferResult, type TransferInput } from '@kestrel/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, http, segment } from '../../lib/http.ts';
import { pendingTransferKey, settlePendingTransfer } from './pending-transfer-key.ts';
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
  search: (query: string, accountNumber: string) => [...transferKeys.all, 'search', accountNumber, query] as const,
  recent: (accountNumber: string) => [...transferKeys.all, 'recent', accountNumber] as const,
  recipient: (userName: string) => [...transferKeys.all, 'recipient', userName.toLowerCase()] as const,
};

// ---- Queries ----

/**
 * GET /v1/account/search: matches by account number, e-mail, phone or user name (exact, listed
 * first) and names (part). The current account is left out; the user's other accounts are not.
 */
export function useRecipientSearch(query: string, currentAccountNumber: string | undefined) {
  const trimmed = query.trim();
  const params = new URLSearchParams({ query: trimmed });
  if (currentAccountNumber) params.set('accountNumber', currentAccountNumber);
  return useQuery({
    queryKey: transferKeys.search(trimmed, currentAccountNumber ?? ''),
    queryFn: async ({ signal }) => (await http.get(`/v1/account/search?${params.toString()}`, recipientList, { signal })).data,
    // Shorter text matches nothing (the server answers [] without using the daily budget).
    enabled: trimmed.length >= RECIPIENT_SEARCH_MIN_LENGTH,
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
 * The recipient named in the URL, looked up by its exact user name (GET /v1/recipients/:userName);
 * null when no account has it. Not through the search: its 20 results could cut the match off.
 */
export function useRecipient(userName: string) {
  return useQuery({
    queryKey: transferKeys.recipient(userName),
    queryFn: async ({ signal }) => {
      try {
        return (await http.get(`/v1/recipients/${segment(userName)}`, recipientSchema, { signal })).data;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'recipient_not_found') return null;
        throw error;
      }
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

type AccountRef = { _id: string; accountNumber: string };

/**
 * POST /v1/account/transfer_balance with an Idempotency-Key header.
 *
 * The key belongs to the transfer being asked for (sender, recipient, currency, amount), not
 * to the click, and waits in sessionStorage until an answer arrives (pending-transfer-key.ts):
 * when an attempt's answer is lost (network error, server fault) and the user sends the same
 * transfer again, even after reloading the page, the same key goes with it, so a first
 * attempt that did reach the server is answered again instead of moving the money twice. A
 * different amount or recipient is a new transfer with a new key. The server records only
 * successful transfers under a key, so a refusal (a wrong TPIN, say) settles the key too —
 * except a step-up refusal (403 step_up_required / step_up_invalid), answered again with the
 * verification code under the same key.
 */
export function useTransferBalance() {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: async ({ body }: { body: TransferInput; sender: AccountRef; recipient: AccountRef }) => {
      const key = pendingTransferKey(body);
      try {
        const { data } = await http.post('/v1/account/transfer_balance', body, transferResult, { headers: { 'Idempotency-Key': key } });
        settlePendingTransfer(body);
        return data;
      } catch (error) {
        // A refusal is an answer; no answer (status 0) or a server fault may hide a transfer that went through.
        // A step-up refusal keeps the key: the same transfer is sent again with its verification code.
        if (error instanceof ApiError && error.status > 0 && error.status < 500 && !isStepUpRefusal(error.code)) settlePendingTransfer(body);
        throw error;
      }
    },
    onSuccess: (_result, { sender, recipient }) => {
      // What the transfer changed. The recipient may be another of the user's own accounts,
      // so its cached data goes stale too. Not awaited: the success state shows at once while
      // these refresh behind it.
      for (const queryKey of [
        // Both balances, under whichever key (number, user name, id) a screen read an account by.
        accountKeys.details(),
        ...[sender, recipient].flatMap((account) => [
          // The dashboard's Total Transaction counter.
          accountKeys.summary(account.accountNumber),
          accountKeys.activities(account._id),
          transactionKeys.account(account.accountNumber),
        ]),
        transferKeys.recent(sender.accountNumber),
      ]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
