import { operatorOperations } from './operations-operator.ts';
import { authOperations } from './operations-auth.ts';
import { portalOperations } from './operations-portal.ts';
import { storeOperations } from './operations-store.ts';

/*
 * What the reference says about each operation, keyed by "METHOD /url" exactly as Fastify
 * registers the route (`GET /v1/payment/paymentId/:paymentId`). A new route gets an entry
 * here (openapi.test.ts fails otherwise); the route file itself keeps only its contract.
 */

export interface OperationDoc {
  operationId: string;
  tag: TagName;
  /** Replaces the route's own summary when set. */
  summary?: string;
  description: string;
  /** false: the operation never touches the database, so it cannot answer 503. */
  database?: false;
  /** The Idempotency-Key header: optional (recommended) or required. */
  idempotent?: 'optional' | 'required';
  requestExample?: unknown;
  responseExample?: unknown;
  errorExample?: Partial<Record<number, unknown>>;
  /** A binary success answer: its real media types. */
  binary?: { description: string; mediaTypes: string[] };
  /** A redirect success answer: what the Location header points at. */
  redirect?: string;
  /** A multipart/form-data body, as JSON Schema. */
  multipart?: Record<string, unknown>;
}

export const TAGS = [
  { name: 'Store API', description: "Called by a merchant's server with the store's storeId and storeKey headers (wrapped by `@kestrel/sdk`)." },
  { name: 'Hosted checkout', description: 'Called by the hosted checkout page the customer is sent to; public or the paying wallet user.' },
  { name: 'Payment links', description: 'Payment-request links: the owner manages them, anyone with the link pays by card or wallet.' },
  { name: 'Stores', description: "The portal's store pages: create a store, read it, its callback deliveries." },
  { name: 'Payments', description: "The portal's payment lists of an account or a store, and the CSV exports of payments and refunds." },
  { name: 'Auth', description: 'Signing in and out.' },
  { name: 'Users', description: 'Signing up, e-mail verification, the signed-in user.' },
  { name: 'Accounts', description: 'Personal and business accounts, identity documents, the dashboard counters, activities.' },
  { name: 'Transfers', description: 'Sending money between Kestrel wallets and finding recipients.' },
  { name: 'Transactions', description: "An account's transactions, and their CSV export." },
  { name: 'Ledger', description: "The ledger's published seals and a transaction's inclusion proof: check that a transaction was never rewritten." },
  { name: 'Withdrawals', description: 'Bank withdrawals from a wallet, cancelling one, and their CSV export.' },
  { name: 'Invoices', description: 'Invoices on the data host (/data/v1).' },
  { name: 'Data', description: 'Public reference data on the data host (/data/v1).' },
  { name: 'Platform', description: "The web app's settings." },
  { name: 'Operator', description: "The operator console's calls (operators only; anyone else gets 404)." },
] as const;

export type TagName = (typeof TAGS)[number]['name'];

export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is invalid: a field (named in `fields`), or a NUL character anywhere in it',
  401: 'No valid token or store key',
  402: 'The card was declined',
  403: 'Not allowed for this caller (e-mail not verified, store not Approved)',
  404: 'Not found, or not yours',
  409: 'Conflicts with the current state (duplicate, wrong state, insufficient funds)',
  410: 'Gone (expired or used up)',
  413: 'The body or a file is too large',
  415: 'Unsupported content type',
  422: 'Understood but cannot be processed',
  423: 'The account is locked',
  429: 'Too many requests; see Retry-After',
  500: 'Unexpected server error',
  502: 'A service Kestrel depends on (the mail server, the card processor) did not answer or failed',
  503: 'The database is unavailable; retry after Retry-After (money calls with the same Idempotency-Key)',
};

export const routeKey = (method: string, url: string) => `${method.toUpperCase()} ${url}`;

const table: Record<string, OperationDoc> = { ...storeOperations, ...authOperations, ...portalOperations, ...operatorOperations };

export function operationDoc(key: string): OperationDoc | undefined {
  return table[key];
}

export const documentedRouteKeys = (): string[] => Object.keys(table);
