import { z } from 'zod';
import { withExample } from '../contract-examples.ts';

/*
 * The ledger's public seals and a transaction's inclusion proof (issue 26). The types they
 * carry, and the checker, are in ledger-proof.ts (no zod, so any client can use it).
 */

export const SEALS_PAGE_LIMIT = 500;

const hex = z.string().regex(/^[0-9a-f]*$/);
/** A SHA-256 hash or an Ed25519 key (32 bytes), and an Ed25519 signature (64 bytes), as hex. */
const hex32 = (description = 'SHA-256, hex') => withExample(hex.length(64).describe(description), '3b7f0e2c9a41d5b8e6f0c2a4d8b1e3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7');
const hex64 = (description: string) => withExample(hex.length(128).describe(description), '9f2c'.repeat(32));
const mark = withExample(z.string().regex(/^\d+$/).describe('A position in the ledger (decimal text)'), '1042');

export const ledgerSeal = z.object({
  sealNo: z.number().int().positive(),
  fromMark: mark,
  toMark: mark,
  firstCreatedAt: z.string().describe('UTC, microseconds'),
  lastCreatedAt: z.string().describe('UTC, microseconds'),
  sealedAt: z.string().describe('UTC, microseconds'),
  transactionCount: z.number().int().positive(),
  merkleRoot: hex32(),
  previousSealHash: hex32(),
  sealHash: hex32(),
  signature: hex64('Ed25519 over the seal message, hex'),
});

export const ledgerSealsQuery = z.object({
  after: z.coerce.number().int().min(0).optional().describe('Only seals numbered above this'),
  limit: z.coerce.number().int().min(1).max(SEALS_PAGE_LIMIT).optional(),
});

export const publishedSeals = z.object({
  algorithm: z.literal('Ed25519'),
  publicKey: hex32("Kestrel's raw 32-byte Ed25519 seal key, hex"),
  seals: z.array(ledgerSeal),
});

export const sealedTransactionRecord = z.object({
  transactionId: z.string(),
  kind: z.string(),
  transactionFor: z.string(),
  currency: z.string(),
  amountCents: z.string(),
  feeCents: z.string(),
  createdAt: z.string(),
  postings: z.array(z.array(z.string()).length(2)).describe('In posting order: [account, amountCents]'),
});

export const ledgerProofParams = z.object({ transactionId: z.string().min(1).max(64) });

export const ledgerProof = z.object({
  record: sealedTransactionRecord,
  leafIndex: z.number().int().min(0),
  treeSize: z.number().int().positive(),
  path: z.array(hex32()),
  seal: ledgerSeal,
});
