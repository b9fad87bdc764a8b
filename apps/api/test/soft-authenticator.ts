import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

/*
 * A test-only WebAuthn authenticator in software (issue 25, passkeys): a P-256 key from
 * node:crypto, 'none' attestation, CBOR by @simplewebauthn's own helpers. It answers what a
 * browser's navigator.credentials.create/get would hand @simplewebauthn/browser, in WebAuthn's
 * JSON form, so the API tests drive the real server checks (signature, challenge, origin, rpID,
 * counter) without a browser. Each knob a test needs to make a refusal is an option.
 */

const b64 = (bytes: Uint8Array | string) => isoBase64URL.fromBuffer(typeof bytes === 'string' ? new TextEncoder().encode(bytes) : new Uint8Array(bytes));
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface AssertOptions {
  /** Sign with another origin than the authenticator's (a phishing page). */
  origin?: string;
  /** false: the person was not verified (no fingerprint, no PIN). */
  userVerified?: boolean;
  /** Send this counter instead of the next one (a cloned authenticator). */
  counter?: number;
  /** Another user handle than the one the passkey was made with. */
  userHandle?: string;
}

export class SoftAuthenticator {
  readonly credentialId = new Uint8Array(randomBytes(32));
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The signature counter; an authenticator that keeps none (countsUses false) always sends 0. */
  counter = 0;
  userHandle: string | undefined;

  constructor(
    readonly origin: string,
    readonly rpID: string = new URL(origin).hostname,
    private readonly countsUses = true,
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64(this.credentialId);
  }

  private authenticatorData(flags: number, counter: number, attested?: Uint8Array): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(this.rpID), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  private coseKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' });
    if (!jwk.x || !jwk.y) throw new Error('no EC point');
    // COSE_Key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, isoBase64URL.toBuffer(jwk.x)],
        [-3, isoBase64URL.toBuffer(jwk.y)],
      ]),
    );
  }

  /** navigator.credentials.create over the server's options: a new resident key, 'none' attestation. */
  attest(options: { challenge: string; user: { id: string } }, override: { origin?: string } = {}) {
    this.userHandle = options.user.id;
    const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin: override.origin ?? this.origin, crossOrigin: false });
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.coseKey()]);
    const authData = this.authenticatorData(FLAG_UP | FLAG_UV | FLAG_AT, this.counter, attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: { clientDataJSON: b64(clientDataJSON), attestationObject: b64(attestationObject), transports: ['internal' as const] },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get over a challenge: the counter moves on (when it counts), signed with the passkey's key. */
  assert(challenge: string, options: AssertOptions = {}) {
    if (this.countsUses && options.counter === undefined) this.counter += 1;
    const counter = options.counter ?? this.counter;
    const authData = this.authenticatorData(FLAG_UP | (options.userVerified === false ? 0 : FLAG_UV), counter);
    const clientDataJSON = JSON.stringify({ type: 'webauthn.get', challenge, origin: options.origin ?? this.origin, crossOrigin: false });
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    const userHandle = options.userHandle ?? this.userHandle;
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(new Uint8Array(authData)),
        signature: b64(new Uint8Array(signature)),
        ...(userHandle ? { userHandle } : {}),
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }
}
