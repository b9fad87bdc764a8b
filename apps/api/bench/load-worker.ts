import { randomUUID } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import type { CardLoad, GetLoad, LoadRequest, LoadResult, TransferLoad } from './load-protocol.ts';

/**
 * The HTTP load generator. It runs in a worker thread: requests go over real loopback HTTP
 * through Node's fetch (undici), which keeps connections alive, so after the first request
 * each client reuses its connection. Every request has a timeout, every run a time limit
 * and a request cap, so a run always ends.
 */

const REQUEST_TIMEOUT_MS = 30_000;

interface Tally {
  latencies: number[];
  failures: Record<string, number>;
  lastBodyBytes: number;
}

async function timed(tally: Tally, url: string, init: RequestInit): Promise<void> {
  const started = performance.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const text = await response.text();
    const elapsed = performance.now() - started;
    if (response.status === 200) {
      tally.latencies.push(elapsed);
      tally.lastBodyBytes = text.length;
      return;
    }
    let code = '';
    try {
      code = String((JSON.parse(text) as { code?: unknown }).code ?? '');
    } catch {
      // not JSON
    }
    const key = `${response.status} ${code}`.trim();
    tally.failures[key] = (tally.failures[key] ?? 0) + 1;
  } catch (error) {
    const key = `network ${(error as Error).name}`;
    tally.failures[key] = (tally.failures[key] ?? 0) + 1;
  }
}

function randomIndex(n: number): number {
  return Math.floor(Math.random() * n);
}

async function runTransfers(load: TransferLoad, tally: Tally, deadline: number): Promise<void> {
  let issued = 0;
  const url = `${load.baseUrl}/v1/account/transfer_balance`;
  const slot = async (client: { token: string; senders: string[] }) => {
    const rounds = load.plan === 'once' ? client.senders.length : Number.POSITIVE_INFINITY;
    for (let i = 0; i < rounds && performance.now() < deadline && issued < load.maxRequests; i++) {
      issued++;
      const sender = client.senders[i % client.senders.length] ?? '';
      let recipient = load.hotRecipient;
      if (recipient === undefined) {
        const pick = randomIndex(load.recipients.length);
        recipient = load.recipients[pick];
        if (recipient === sender) recipient = load.recipients[(pick + 1) % load.recipients.length];
      }
      const cents = 1 + randomIndex(100);
      await timed(tally, url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: client.token,
          ...(load.idempotencyKeys ? { 'idempotency-key': randomUUID() } : {}),
        },
        body: JSON.stringify({ debitAccountKey: sender, creditAccountKey: recipient, currency: 'USD', balance: cents / 100, tpin: load.tpin }),
      });
    }
  };
  const clients = load.clients.slice(0, load.concurrency);
  if (clients.length < load.concurrency) throw new Error(`${load.concurrency} clients asked for, ${load.clients.length} available`);
  await Promise.all(clients.map(slot));
}

async function runGets(load: GetLoad, tally: Tally, deadline: number): Promise<void> {
  let issued = 0;
  const url = `${load.baseUrl}${load.path}`;
  const slot = async () => {
    while (performance.now() < deadline && issued < load.maxRequests) {
      issued++;
      await timed(tally, url, { headers: { authorization: load.token } });
    }
  };
  await Promise.all(Array.from({ length: load.concurrency }, slot));
}

/** One operation = create a payment, then pay it by card; its latency is the two calls together. */
async function runCards(load: CardLoad, tally: Tally, deadline: number): Promise<void> {
  let issued = 0;
  const headers = { 'content-type': 'application/json', storeId: load.storeId, storeKey: load.storeKey };
  const slot = async () => {
    while (performance.now() < deadline && issued < load.maxRequests) {
      issued++;
      const started = performance.now();
      const cents = 100 + randomIndex(10_000);
      try {
        const created = await fetch(`${load.baseUrl}/v1/payment/web-pay`, {
          method: 'POST',
          headers,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          body: JSON.stringify({
            orderId: randomUUID(),
            currency: 'USD',
            amount: cents / 100,
            customerName: 'Bench Customer',
            customerEmail: 'bench@example.test',
            customerPhone: '+15550000000',
            customerAddress: '1 Bench Street',
            productName: 'Bench item',
            cancelUrl: 'https://hot-store.example/cart',
          }),
        });
        const createdBody = (await created.json()) as { data?: { paymentId?: string }; code?: string };
        if (created.status !== 200 || !createdBody.data?.paymentId) {
          const key = `web-pay ${created.status} ${createdBody.code ?? ''}`.trim();
          tally.failures[key] = (tally.failures[key] ?? 0) + 1;
          continue;
        }
        const before = tally.latencies.length;
        await timed(tally, `${load.baseUrl}/v1/payment/complete/${createdBody.data.paymentId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'card', number: '4242424242424242', expiresIn: '12/34', cvc: '123' }),
        });
        // Count the whole operation (create + pay), not only the pay call.
        if (tally.latencies.length > before) tally.latencies[tally.latencies.length - 1] = performance.now() - started;
      } catch (error) {
        const key = `network ${(error as Error).name}`;
        tally.failures[key] = (tally.failures[key] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: load.concurrency }, slot));
}

async function run(request: LoadRequest): Promise<LoadResult> {
  const tally: Tally = { latencies: [], failures: {}, lastBodyBytes: 0 };
  const started = performance.now();
  const deadline = started + request.durationMs;
  if (request.kind === 'transfer') await runTransfers(request, tally, deadline);
  else if (request.kind === 'card') await runCards(request, tally, deadline);
  else await runGets(request, tally, deadline);
  return {
    id: request.id,
    latenciesMs: Float64Array.from(tally.latencies),
    elapsedMs: performance.now() - started,
    failures: tally.failures,
    lastBodyBytes: tally.lastBodyBytes,
  };
}

const port = parentPort;
if (!port) throw new Error('load-worker.ts runs as a worker thread');
port.on('message', (request: LoadRequest) => {
  run(request).then(
    (result) => port.postMessage(result, [result.latenciesMs.buffer]),
    (error: unknown) => port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
