/**
 * Messages between the bench (the process where the server runs) and the HTTP load
 * generator (a separate process running autocannon, so the clients' work never shares the
 * server's thread).
 */

export interface BenchClient {
  /** The session token of one client user. */
  token: string;
  /** User names of the accounts this client sends from (all owned by this client's user). */
  senders: string[];
}

export interface TransferLoad {
  kind: 'transfer';
  baseUrl: string;
  concurrency: number;
  /** One client per concurrent slot: slot i is client i, so each sends from its own accounts. */
  clients: BenchClient[];
  /**
   * `cycle`: loop over the senders until the time is up; `once`: one transfer from each sender, then stop;
   * `fresh`: until the time is up, every transfer from a sender that has not sent yet in this run, taken
   * from all clients' senders (any connection may send for any client: each sender carries its owner's token).
   */
  plan: 'cycle' | 'once' | 'fresh';
  /** User names to pick a recipient from at random (never the sender itself). */
  recipients: string[];
  /** When set, every transfer goes to this account instead (the hot recipient). */
  hotRecipient?: string;
  tpin: number;
  /** A fresh Idempotency-Key with every transfer (as a careful client does) unless false. */
  idempotencyKeys?: boolean;
  durationMs: number;
}

export interface GetLoad {
  kind: 'get';
  baseUrl: string;
  concurrency: number;
  path: string;
  token: string;
  durationMs: number;
}

/** Card payments into one store: each operation creates a payment (web-pay) and pays it with a test card. */
export interface CardLoad {
  kind: 'card';
  baseUrl: string;
  concurrency: number;
  storeId: string;
  storeKey: string;
  durationMs: number;
}

/**
 * Wallet payments into one store: each operation creates a payment (web-pay) and pays it from
 * a client's own wallet (POST /v1/payment/complete/kestrel/{id}): connection i is client i,
 * cycling over its accounts.
 */
export interface WalletLoad {
  kind: 'wallet';
  baseUrl: string;
  concurrency: number;
  storeId: string;
  storeKey: string;
  payers: { token: string; accountNumbers: string[] }[];
  tpin: number;
  durationMs: number;
}

/** Card payments of one payment-request link (no use limit): one request per operation. */
export interface LinkLoad {
  kind: 'link';
  baseUrl: string;
  concurrency: number;
  pRequestURLId: string;
  durationMs: number;
}

export type LoadRequest = (TransferLoad | GetLoad | CardLoad | WalletLoad | LinkLoad) & { id: number };

export interface LoadResult {
  id: number;
  /** Successful (2xx) operations. */
  count: number;
  /** Latency percentiles of all answers (autocannon's histogram, milliseconds). */
  p50: number;
  p99: number;
  elapsedMs: number;
  /** Unsuccessful answers, counted by `status code`. */
  failures: Record<string, number>;
  /** Bytes of the last successful body (to show what a GET returns). */
  lastBodyBytes: number;
  /** `fresh` runs: transfers that had to reuse a sender because every one had sent already (0 = none). */
  reusedSenders?: number;
}
