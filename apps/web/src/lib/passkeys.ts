import type { PasskeyCreationOptions, PasskeyRequestOptions } from '@kestrel/shared';
import type { startAuthentication as startAuthenticationType, startRegistration as startRegistrationType } from '@simplewebauthn/browser';

/*
 * The browser's passkey prompts, through @simplewebauthn/browser, which is imported on the
 * first call, never with a page: /login, the pay pages and My Account do not download it until
 * someone uses a passkey (README, Passkeys). Its option types are WebAuthn's JSON forms, which
 * the contracts describe loosely (the server is their author).
 */
type CreationJSON = Parameters<typeof startRegistrationType>[0]['optionsJSON'];
type RequestJSON = Parameters<typeof startAuthenticationType>[0]['optionsJSON'];
const webauthn = () => import('@simplewebauthn/browser');

/** navigator.credentials.get over the server's options: the person picks a passkey and unlocks it. */
export async function passkeyAssertion(options: PasskeyRequestOptions) {
  const { startAuthentication } = await webauthn();
  return startAuthentication({ optionsJSON: options as RequestJSON });
}

/** navigator.credentials.create over the server's options: the browser makes a new passkey. */
export async function passkeyAttestation(options: PasskeyCreationOptions) {
  const { startRegistration } = await webauthn();
  return startRegistration({ optionsJSON: options as CreationJSON });
}

/** Whether an error is the browser's (the person cancelled, it timed out, or it cannot use passkeys) rather than the server's. */
export function isBrowserPasskeyError(error: unknown): boolean {
  return error instanceof Error && ['NotAllowedError', 'AbortError', 'InvalidStateError', 'NotSupportedError', 'SecurityError'].includes(error.name);
}
