/*
 * Ledger seals, as anyone outside Kestrel checks them. The server seals its ledger
 * transactions into periods: each period is a Merkle tree (RFC 9162's: a leaf is
 * SHA-256(0x00 ‖ text), a node SHA-256(0x01 ‖ left ‖ right)) over the canonical text of its
 * transactions in id order; each seal names the previous seal's hash (a chain, so no period can
 * be replaced without breaking every later one) and is signed with Kestrel's Ed25519 key.
 *
 * This file has no dependency but the platform's Web Crypto (Node.js 20+ and browsers), so
 * the CLI (`npm run ledger:prove`), the SDK and a browser can all verify a proof with no access
 * to Kestrel's database.
 */

/** What a ledger transaction is sealed as: every field a person sees on a statement. */
export interface SealedTransactionRecord {
  transactionId: string;
  kind: string;
  transactionFor: string;
  currency: string;
  /** Integer cents, as decimal text (exact beyond 2^53). */
  amountCents: string;
  feeCents: string;
  /** UTC with microseconds: `2026-11-25T12:00:00.123456Z`. */
  createdAt: string;
  /** In posting order: [account, amountCents], the account a wallet's number or `system:<code>`. */
  postings: string[][];
}

/** One published seal. Hashes are lower-case hex. */
export interface LedgerSeal {
  sealNo: number;
  /**
   * The ledger positions the seal covers: every transaction whose database transaction number
   * is at least `fromMark` and below `toMark` (decimal text). A seal starts where the one before
   * it ends, so no transaction can fall between two seals.
   */
  fromMark: string;
  toMark: string;
  /** When its first and last transactions were made (UTC, microseconds), and when it was sealed. */
  firstCreatedAt: string;
  lastCreatedAt: string;
  sealedAt: string;
  transactionCount: number;
  merkleRoot: string;
  previousSealHash: string;
  sealHash: string;
  /** Ed25519 over `sealMessage(seal)`, hex. */
  signature: string;
}

export interface LedgerProof {
  record: SealedTransactionRecord;
  leafIndex: number;
  treeSize: number;
  /** Sibling hashes from the leaf up (RFC 9162 inclusion proof), hex. */
  path: string[];
  seal: LedgerSeal;
}

export interface PublishedSeals {
  /** The raw 32-byte Ed25519 public key, hex. */
  publicKey: string;
  seals: LedgerSeal[];
}

export const GENESIS_SEAL_HASH = '0'.repeat(64);

/** The exact text that is hashed as a leaf: fixed field order, no whitespace. */
export function ledgerLeafText(record: SealedTransactionRecord): string {
  return JSON.stringify([
    'kestrel-ledger-transaction:v1',
    record.transactionId,
    record.kind,
    record.transactionFor,
    record.currency,
    record.amountCents,
    record.feeCents,
    record.createdAt,
    record.postings.map(([account, amount]) => [account, amount]),
  ]);
}

/** The exact text a seal's hash and signature are made over. */
export function sealMessage(seal: Omit<LedgerSeal, 'sealHash' | 'signature'>): string {
  return [
    'kestrel-ledger-seal:v1',
    seal.sealNo,
    seal.fromMark,
    seal.toMark,
    seal.firstCreatedAt,
    seal.lastCreatedAt,
    seal.sealedAt,
    seal.transactionCount,
    seal.merkleRoot,
    seal.previousSealHash,
  ].join('|');
}

const encoder = new TextEncoder();

/** Lower-case hex to bytes; throws on anything else. */
export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  if (!/^(?:[0-9a-f]{2})*$/.test(hex)) throw new Error('not lower-case hex');
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

async function sha256(...parts: Uint8Array[]): Promise<Uint8Array> {
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', joined));
}

const LEAF = Uint8Array.of(0);
const NODE = Uint8Array.of(1);

/** RFC 9162 §2.1.3.2: the root (hex) that an inclusion proof of `leafText` leads to, or null when the proof is malformed. */
export async function rootFromInclusionProof(leafIndex: number, treeSize: number, leafText: string, path: readonly string[]): Promise<string | null> {
  try {
    const root = await walkInclusionProof(leafIndex, treeSize, encoder.encode(leafText), path.map(hexToBytes));
    return root && bytesToHex(root);
  } catch {
    return null;
  }
}

async function walkInclusionProof(leafIndex: number, treeSize: number, leaf: Uint8Array, path: Uint8Array[]): Promise<Uint8Array | null> {
  if (!Number.isSafeInteger(leafIndex) || !Number.isSafeInteger(treeSize) || leafIndex < 0 || leafIndex >= treeSize) return null;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let hash = await sha256(LEAF, leaf);
  for (const sibling of path) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      hash = await sha256(NODE, sibling, hash);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      hash = await sha256(NODE, hash, sibling);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? hash : null;
}

async function signatureValid(publicKeyHex: string, seal: LedgerSeal): Promise<boolean> {
  const key = await globalThis.crypto.subtle.importKey('raw', hexToBytes(publicKeyHex), { name: 'Ed25519' }, false, ['verify']);
  return globalThis.crypto.subtle.verify({ name: 'Ed25519' }, key, hexToBytes(seal.signature), encoder.encode(sealMessage(seal)));
}

/** Checks one seal on its own: its hash is the hash of its message and the signature is Kestrel's. */
export async function verifySeal(seal: LedgerSeal, publicKeyHex: string): Promise<string | null> {
  try {
    if (bytesToHex(await sha256(encoder.encode(sealMessage(seal)))) !== seal.sealHash) return `seal ${seal.sealNo}: its hash does not match its contents`;
    if (!(await signatureValid(publicKeyHex, seal))) return `seal ${seal.sealNo}: the signature is not Kestrel's`;
    return null;
  } catch {
    return `seal ${seal.sealNo}: malformed`;
  }
}

/** Checks a run of published seals: each valid and signed, numbered without gaps, each naming the one before. */
export async function verifySealChain(published: PublishedSeals): Promise<string[]> {
  const problems: string[] = [];
  let previous: LedgerSeal | undefined;
  for (const seal of [...published.seals].sort((a, b) => a.sealNo - b.sealNo)) {
    const problem = await verifySeal(seal, published.publicKey);
    if (problem) problems.push(problem);
    if (previous && seal.sealNo === previous.sealNo + 1) {
      if (seal.previousSealHash !== previous.sealHash) problems.push(`seal ${seal.sealNo}: does not follow seal ${previous.sealNo}`);
      if (seal.fromMark !== previous.toMark) problems.push(`seal ${seal.sealNo}: does not start where seal ${previous.sealNo} ends`);
    } else if (!previous && seal.sealNo === 1 && seal.previousSealHash !== GENESIS_SEAL_HASH) {
      problems.push('seal 1: does not start the chain');
    } else if (previous) {
      problems.push(`seals ${previous.sealNo + 1}–${seal.sealNo - 1} are missing`);
    }
    previous = seal;
  }
  return problems;
}

export type ProofVerdict = { ok: true; sealNo: number } | { ok: false; reason: string };

/**
 * Verifies that `proof.record` is exactly what Kestrel sealed: the record's leaf leads through
 * the inclusion path to the seal's Merkle root, the seal is the one published under that number,
 * and the published seal carries Kestrel's signature.
 */
export async function verifyLedgerProof(proof: LedgerProof, published: PublishedSeals): Promise<ProofVerdict> {
  const publishedSeal = published.seals.find((seal) => seal.sealNo === proof.seal.sealNo);
  if (!publishedSeal) return { ok: false, reason: `seal ${proof.seal.sealNo} is not among the published seals` };
  const fields: (keyof LedgerSeal)[] = ['fromMark', 'toMark', 'firstCreatedAt', 'lastCreatedAt', 'sealedAt', 'transactionCount', 'merkleRoot', 'previousSealHash', 'sealHash', 'signature'];
  if (fields.some((field) => publishedSeal[field] !== proof.seal[field])) return { ok: false, reason: `the proof's seal ${proof.seal.sealNo} differs from the published one` };
  const sealProblem = await verifySeal(publishedSeal, published.publicKey);
  if (sealProblem) return { ok: false, reason: sealProblem };
  if (proof.treeSize !== publishedSeal.transactionCount) return { ok: false, reason: 'the proof names another tree size than its seal' };
  const root = await rootFromInclusionProof(proof.leafIndex, proof.treeSize, ledgerLeafText(proof.record), proof.path);
  if (root !== publishedSeal.merkleRoot) return { ok: false, reason: 'the transaction is not the one sealed: its record or its path was changed' };
  return { ok: true, sealNo: publishedSeal.sealNo };
}
