import type { PayPaymentRequestByCardInput, PayPaymentRequestByKestrelInput, PaymentRequestPayAnswer } from '@kestrel/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, segment } from '../../lib/http.ts';
import { newIdempotencyKey } from '../../lib/idempotency-key.ts';

/*
 * The public payment-request page's server calls (beside api.ts, which holds the hosted
 * checkout's): the link as a visitor may see it, and its two pay routes. Like the checkout,
 * the page works with no portal session. Response contracts in the function form (checked in
 * development only), so the page downloads neither the contracts nor zod.
 */

export const paymentRequestLinkKeys = {
  link: (pRequestURLId: string) => ['checkout', 'payment-request', pRequestURLId] as const,
};

/**
 * GET /v1/payment-request/link/{pRequestURLId} (public), the pay page's first read. `answer` is
 * that GET's answer already in hand (embedded in the server-rendered page): read once.
 */
export function paymentRequestLinkQuery(pRequestURLId: string, answer?: Response) {
  let inHand = answer;
  return queryOptions({
    queryKey: paymentRequestLinkKeys.link(pRequestURLId),
    queryFn: async ({ signal }) => {
      const given = inHand;
      inHand = undefined;
      return (await http.get(`/v1/payment-request/link/${segment(pRequestURLId)}`, (contracts) => contracts.publicPaymentRequestView, { auth: false, signal, answer: given }))
        .data;
    },
    retry: false,
    // A failed read the server rendered stays as rendered when the page hydrates.
    retryOnMount: false,
  });
}

export function usePaymentRequestLink(pRequestURLId: string) {
  return useQuery(paymentRequestLinkQuery(pRequestURLId));
}

export type LinkPaid = PaymentRequestPayAnswer['data'];

async function pay(path: string, body: unknown, token: string | undefined, key: string = newIdempotencyKey()): Promise<LinkPaid> {
  // One Idempotency-Key per press of the pay button (the wallet tab keeps it for the step-up code's resend): a retried request cannot pay twice.
  return (await http.post(path, body, (contracts) => contracts.paymentRequestPayAnswer.shape.data, { auth: false, token, headers: { 'Idempotency-Key': key } })).data;
}

/** POST /v1/payment-request/card/complete-payment/{pRequestURLId}: no login. */
export const payLinkByCard = (pRequestURLId: string, body: PayPaymentRequestByCardInput) =>
  pay(`/v1/payment-request/card/complete-payment/${segment(pRequestURLId)}`, body, undefined);

/** POST /v1/payment-request/kestrel/complete-payment/{pRequestURLId}: with the payer's token. */
export const payLinkByKestrel = (pRequestURLId: string, body: PayPaymentRequestByKestrelInput, token: string, key: string) =>
  pay(`/v1/payment-request/kestrel/complete-payment/${segment(pRequestURLId)}`, body, token, key);
