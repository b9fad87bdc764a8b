import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import type { CardLoad, GetLoad, LinkLoad, LoadRequest, LoadResult, TransferLoad, WalletLoad } from './load-protocol.ts';

/**
 * The HTTP load generator: a separate process (forked by load.ts), so the clients' work —
 * building requests, parsing answers — never runs on the server's CPU thread. It drives
 * autocannon (keep-alive HTTP/1.1 connections, one request in flight per connection) and
 * builds every request in `setupRequest`, so each carries its own Idempotency-Key and amount.
 * Every run is bounded by time (or, for one-transfer-per-sender runs, by its count); every
 * request by a timeout.
 */

const TIMEOUT_S = 30;

interface Tally {
  failures: Record<string, number>;
  lastBodyBytes: number;
  reusedSenders: number;
}

function randomIndex(n: number): number {
  return Math.floor(Math.random() * n);
}

/** Counts a non-200 answer by `status code` (the API's error code from the body). */
function tallyAnswer(tally: Tally, status: number, body: string): void {
  if (status === 200) {
    tally.lastBodyBytes = body.length;
    return;
  }
  let code = '';
  try {
    code = String((JSON.parse(body) as { code?: unknown }).code ?? '');
  } catch {
    // not JSON
  }
  const key = `${status} ${code}`.trim();
  tally.failures[key] = (tally.failures[key] ?? 0) + 1;
}

type Options = autocannon.Options;

/**
 * The accounts a timed run debits, each lent to one request at a time: a request takes the
 * account that has been idle longest and gives it back with its answer. So no two requests in
 * flight ever debit one account (they would queue on its balance row, which is not what is
 * measured), and every account of the run's clients takes its turn (the money leaves them
 * evenly: a payer's US$ 10,000 is not spent by one account alone).
 *
 * Not kept in autocannon's per-request `context`: autocannon gives a connection a fresh one each
 * time it loops over its `requests`, so nothing stored there lasts from one transfer to the next.
 */
class LentAccounts<T> {
  private readonly idle: T[];

  constructor(private readonly all: T[]) {
    if (all.length === 0) throw new Error('no accounts to lend');
    this.idle = [...all];
  }

  take(): T {
    // Empty only after requests lost their answers (a network error or a timeout never reaches
    // onResponse, so their accounts are not given back): then an account may be in two requests.
    return this.idle.shift() ?? (this.all[randomIndex(this.all.length)] as T);
  }

  giveBack(account: T): void {
    this.idle.push(account);
  }
}

function transferOptions(load: TransferLoad, tally: Tally): Options {
  const clients = load.clients.slice(0, load.concurrency);
  if (clients.length < load.concurrency) throw new Error(`${load.concurrency} clients asked for, ${load.clients.length} available`);
  // `cycle`: every sender of the first `concurrency` clients, lent to one request at a time
  // (LentAccounts). `once`: one transfer from every sender of the first `concurrency` clients,
  // taken from one queue. `fresh`: a timed run over one queue of every client's senders, so
  // thousands of accounts can each send once.
  const queue = (load.plan === 'fresh' ? load.clients : clients).flatMap((client) => client.senders.map((sender) => ({ token: client.token, sender })));
  const lent = load.plan === 'cycle' ? new LentAccounts(queue) : undefined;
  let nextQueued = 0;
  const body = (sender: string) => {
    let recipient = load.hotRecipient;
    if (recipient === undefined) {
      const pick = randomIndex(load.recipients.length);
      recipient = load.recipients[pick];
      if (recipient === sender) recipient = load.recipients[(pick + 1) % load.recipients.length];
    }
    return JSON.stringify({ debitAccountKey: sender, creditAccountKey: recipient, currency: 'USD', balance: (1 + randomIndex(100)) / 100, tpin: load.tpin });
  };
  return {
    url: `${load.baseUrl}/v1/account/transfer_balance`,
    connections: load.concurrency,
    // autocannon ignores `duration` when `amount` is set: a timed run has only its time limit.
    ...(load.plan === 'once' ? { amount: queue.length } : { duration: load.durationMs / 1000 }),
    requests: [
      {
        method: 'POST',
        setupRequest: (request, context) => {
          let next: { token: string; sender: string } | undefined;
          if (lent) {
            next = lent.take();
            (context as { lent?: typeof next }).lent = next;
          } else {
            if (nextQueued >= queue.length) tally.reusedSenders += 1;
            next = queue[nextQueued++ % queue.length];
          }
          if (!next) throw new Error('no senders');
          return {
            ...request,
            headers: {
              'content-type': 'application/json',
              authorization: next.token,
              ...(load.idempotencyKeys === false ? {} : { 'idempotency-key': randomUUID() }),
            },
            body: body(next.sender),
          };
        },
        onResponse: (status, answer, context) => {
          const held = (context as { lent?: { token: string; sender: string } }).lent;
          if (lent && held) lent.giveBack(held);
          tallyAnswer(tally, status, answer);
        },
      },
    ],
  };
}

function getOptions(load: GetLoad, tally: Tally): Options {
  return {
    url: `${load.baseUrl}${load.path}`,
    connections: load.concurrency,
    duration: load.durationMs / 1000,
    headers: { authorization: load.token },
    requests: [{ method: 'GET', onResponse: (status, answer) => tallyAnswer(tally, status, answer) }],
  };
}

/** The first request of a gateway payment: the store creates it (web-pay). */
function createPaymentRequest(load: CardLoad | WalletLoad, tally: Tally): autocannon.Request {
  const headers = { 'content-type': 'application/json', storeId: load.storeId, storeKey: load.storeKey };
  return {
    method: 'POST',
    path: '/v1/payment/web-pay',
    setupRequest: (request) => ({
      ...request,
      headers,
      body: JSON.stringify({
        orderId: randomUUID(),
        currency: 'USD',
        amount: (100 + randomIndex(10_000)) / 100,
        customerName: 'Bench Customer',
        customerEmail: 'bench@example.test',
        customerPhone: '+15550000000',
        customerAddress: '1 Bench Street',
        productName: 'Bench item',
        cancelUrl: 'https://hot-store.example/cart',
      }),
    }),
    onResponse: (status, answer, context) => {
      if (status !== 200) tallyAnswer(tally, status, answer);
      else (context as { paymentId?: string }).paymentId = (JSON.parse(answer) as { data?: { paymentId?: string } }).data?.paymentId;
    },
  };
}

/** Two requests per operation: create a payment (web-pay), then pay it by card. */
function cardOptions(load: CardLoad, tally: Tally): Options {
  return createThenPay(load, tally, (request, context) => ({
    ...request,
    path: `/v1/payment/complete/${(context as { paymentId?: string }).paymentId ?? 'none'}`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'card', number: '4242424242424242', expiresIn: '12/34', cvc: '123' }),
  }));
}

/**
 * Two requests per operation: create a payment (web-pay), then pay it from a wallet of one of
 * the first `concurrency` payers, each of their accounts lent to one pay at a time.
 */
function walletOptions(load: WalletLoad, tally: Tally): Options {
  const payers = load.payers.slice(0, load.concurrency);
  if (payers.length < load.concurrency) throw new Error(`${load.concurrency} payers asked for, ${load.payers.length} available`);
  type Payer = { token: string; accountNumber: string };
  const lent = new LentAccounts<Payer>(payers.flatMap((payer) => payer.accountNumbers.map((accountNumber) => ({ token: payer.token, accountNumber }))));
  return createThenPay(
    load,
    tally,
    (request, context) => {
      const ctx = context as { paymentId?: string; payer?: Payer };
      ctx.payer = lent.take();
      return {
        ...request,
        path: `/v1/payment/complete/kestrel/${ctx.paymentId ?? 'none'}`,
        headers: { 'content-type': 'application/json', authorization: ctx.payer.token },
        body: JSON.stringify({ accountNumber: ctx.payer.accountNumber, tpin: load.tpin }),
      };
    },
    (context) => {
      const payer = (context as { payer?: Payer }).payer;
      if (payer) lent.giveBack(payer);
    },
  );
}

/** A gateway payment per operation: the store creates it (web-pay), then the request `pay` sets up pays it. */
function createThenPay(
  load: CardLoad | WalletLoad,
  tally: Tally,
  pay: NonNullable<autocannon.Request['setupRequest']>,
  paid: (context: unknown) => void = () => {},
): Options {
  return {
    url: load.baseUrl,
    connections: load.concurrency,
    duration: load.durationMs / 1000,
    requests: [
      createPaymentRequest(load, tally),
      {
        method: 'POST',
        setupRequest: pay,
        onResponse: (status, answer, context) => {
          paid(context);
          tallyAnswer(tally, status, answer);
        },
      },
    ],
  };
}

/** One request per operation: pay the link by card (its pay page's call). */
function linkOptions(load: LinkLoad, tally: Tally): Options {
  return {
    url: `${load.baseUrl}/v1/payment-request/card/complete-payment/${load.pRequestURLId}`,
    connections: load.concurrency,
    duration: load.durationMs / 1000,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => ({
          ...request,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            email: 'bench-payer@example.test',
            amount: 5,
            type: 'card',
            number: '4242424242424242',
            expiresIn: '12/34',
            cvc: '123',
            cardHolderName: 'Bench Payer',
          }),
        }),
        onResponse: (status, answer) => tallyAnswer(tally, status, answer),
      },
    ],
  };
}

async function run(request: LoadRequest): Promise<LoadResult> {
  const tally: Tally = { failures: {}, lastBodyBytes: 0, reusedSenders: 0 };
  const options =
    request.kind === 'transfer'
      ? transferOptions(request, tally)
      : request.kind === 'card'
        ? cardOptions(request, tally)
        : request.kind === 'wallet'
          ? walletOptions(request, tally)
          : request.kind === 'link'
            ? linkOptions(request, tally)
            : getOptions(request, tally);
  const started = performance.now();
  const result = await autocannon({ ...options, timeout: TIMEOUT_S });
  const elapsedMs = performance.now() - started;
  if (result.errors > 0) tally.failures['network error'] = result.errors;
  if (result.timeouts > 0) tally.failures.timeout = result.timeouts;
  // A gateway payment (card or wallet) is two requests; its count is the successful pays.
  const ok = result['2xx'];
  return {
    id: request.id,
    count: request.kind === 'card' || request.kind === 'wallet' ? Math.floor(ok / 2) : ok,
    p50: result.latency.p50,
    p99: result.latency.p99,
    elapsedMs,
    failures: tally.failures,
    lastBodyBytes: tally.lastBodyBytes,
    reusedSenders: tally.reusedSenders,
  };
}

process.on('message', (request: LoadRequest) => {
  run(request).then(
    (result) => process.send?.(result),
    (error: unknown) => process.send?.({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
