import type * as Contracts from '@kestrel/shared';
import type { CardBrand, KestrelPayBody, PasskeyAssertionInput, PaymentResult } from '@kestrel/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, segment } from '../../lib/http.ts';
import { newIdempotencyKey } from '../../lib/idempotency-key.ts';

/*
 * The hosted checkout's server calls. The page works with no portal session: public calls
 * send no token, and the wallet tab's calls send the token of the checkout's own login (or
 * of the portal session when the visitor already has one).
 *
 * Response contracts are passed as `(contracts) => contracts.<schema>`: checked in development
 * only, they keep the contracts and zod out of the checkout's download.
 */

export const checkoutKeys = {
  payment: (urlId: string) => ['checkout', urlId] as const,
  wallets: (userId: string) => ['checkout', 'wallets', userId] as const,
};

/**
 * GET /v1/payment/{urlId} (public), the checkout's first read. `answer` is that GET's answer
 * already in hand (the server-rendered page embeds it, app/checkout-app.tsx): it is read once,
 * and every later read asks the server.
 */
export function checkoutQuery(urlId: string, answer?: Response) {
  let inHand = answer;
  return queryOptions({
    queryKey: checkoutKeys.payment(urlId),
    queryFn: async ({ signal }) => {
      const given = inHand;
      inHand = undefined;
      return (await http.get(`/v1/payment/${segment(urlId)}`, (contracts) => contracts.checkoutView, { auth: false, signal, answer: given })).data;
    },
    retry: false,
    // A failed read the server rendered stays as rendered when the page hydrates (no spinner in between).
    retryOnMount: false,
  });
}

export function useCheckout(urlId: string) {
  return useQuery(checkoutQuery(urlId));
}

/** A wallet login for this checkout only: nothing is written to the portal's cookies. With two-factor sign-in on, the second step's challenge. */
export async function walletLogin(email: string, password: string) {
  return (await http.post('/v1/auth/login', { email, password }, (contracts) => contracts.loginAnswer, { auth: false })).data;
}

/** The wallet login's second step (two-factor sign-in on): the challenge and a code (or a passkey's assertion) make this checkout's session. */
export async function walletLoginSecondStep(challengeToken: string, answer: { code: string } | { passkey: PasskeyAssertionInput }) {
  return (await http.post('/v1/auth/login/second-step', { challengeToken, ...answer }, (contracts) => contracts.loginResult, { auth: false })).data;
}

const walletFields = (contracts: typeof Contracts) =>
  contracts.accountView.pick({ _id: true, accountNumber: true, accountType: true, accountHolderName: true, businessName: true, balance: true });

/** The signed-in payer (their e-mail, to say who is paying) and their accounts with their balances. */
export function useWallets(auth: { userId: string; token: string } | undefined) {
  return useQuery({
    queryKey: checkoutKeys.wallets(auth?.userId ?? ''),
    enabled: Boolean(auth),
    queryFn: async ({ signal }) => {
      const { userId, token } = auth!;
      const user = (await http.get(`/v1/user/${segment(userId)}`, (contracts) => contracts.userProfile, { token, signal })).data;
      const accounts = await Promise.all(
        user.accounts.map(async (account) => (await http.get(`/v1/account/${segment(account.accountNumber)}`, walletFields, { token, signal })).data),
      );
      return { email: user.email, accounts };
    },
  });
}
export type Wallet = NonNullable<ReturnType<typeof useWallets>['data']>['accounts'][number];

/** Ends the checkout's own wallet login on the server (its token dies); the portal's session is not touched. */
export async function walletLogout(token: string): Promise<void> {
  await http.post('/v1/auth/logout', undefined, (contracts) => contracts.noData, { auth: false, token });
}

export interface CardPayment {
  type: 'card';
  brand: CardBrand | undefined;
  number: string;
  expiresIn: string;
  cvc: string;
  cardHolderName: string;
}

/** What a successful pay answers: the result and where the store wants the shopper next. */
export interface PaidAnswer {
  data: PaymentResult;
  redirectUrl: string | undefined;
}

async function pay(path: string, body: unknown, token: string | undefined, key: string = newIdempotencyKey()): Promise<PaidAnswer> {
  // One Idempotency-Key per press of the pay button (the wallet tab keeps it for the step-up code's resend): a retried request cannot pay twice.
  const answer = await http.post(path, body, (contracts) => contracts.paymentResult, { auth: false, token, headers: { 'idempotency-key': key } });
  return { data: answer.data, redirectUrl: typeof answer.extra.redirectUrl === 'string' ? answer.extra.redirectUrl : undefined };
}

/** POST /v1/payment/complete/{paymentId}: the card tab (no login). */
export const payCheckoutByCard = (paymentId: string, card: CardPayment) => pay(`/v1/payment/complete/${segment(paymentId)}`, card, undefined);

/** POST /v1/payment/complete/kestrel/{paymentId}: the Kestrel tab, with the payer's token and the attempt's Idempotency-Key. */
export const payCheckoutByWallet = (paymentId: string, body: KestrelPayBody, token: string, key: string) => pay(`/v1/payment/complete/kestrel/${segment(paymentId)}`, body, token, key);
