import { hash, verify } from '@node-rs/argon2';

// argon2id (the library's default algorithm) with OWASP's recommended minimum cost.
const options = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashSecret(secret: string): Promise<string> {
  return hash(secret, options);
}

export async function verifySecret(secretHash: string, secret: string): Promise<boolean> {
  try {
    return await verify(secretHash, secret);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Verifies against a throw-away hash so an unknown e-mail costs as much time as a wrong password. */
export async function burnVerificationTime(secret: string): Promise<void> {
  dummyHash ??= hashSecret('kestrel-timing-equaliser');
  await verifySecret(await dummyHash, secret);
}
