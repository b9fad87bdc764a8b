import { createHash } from 'node:crypto';

/*
 * The Merkle tree of RFC 9162 §2.1 (Certificate Transparency's), built on the server: a leaf
 * is SHA-256(0x00 ‖ text), a node SHA-256(0x01 ‖ left ‖ right), and a tree of n leaves splits
 * at the largest power of two below n. Its inclusion proofs are checked by
 * `verifyLedgerProof` in @kestrel/shared, which anyone can run without our database.
 */

const sha256 = (...parts: Buffer[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

export const leafHash = (text: string) => sha256(Buffer.of(0), Buffer.from(text, 'utf8'));
const nodeHash = (left: Buffer, right: Buffer) => sha256(Buffer.of(1), left, right);

/** The largest power of two strictly below n (n ≥ 2). */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[n]) over leaf hashes; the empty tree's root is SHA-256 of nothing. */
export function merkleRoot(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return leaves[0]!;
  const k = split(leaves.length);
  return nodeHash(merkleRoot(leaves.slice(0, k)), merkleRoot(leaves.slice(k)));
}

/** PATH(m, D[n]): the sibling hashes from leaf m up to the root. */
export function inclusionPath(index: number, leaves: readonly Buffer[]): Buffer[] {
  if (leaves.length <= 1) return [];
  const k = split(leaves.length);
  return index < k
    ? [...inclusionPath(index, leaves.slice(0, k)), merkleRoot(leaves.slice(k))]
    : [...inclusionPath(index - k, leaves.slice(k)), merkleRoot(leaves.slice(0, k))];
}
