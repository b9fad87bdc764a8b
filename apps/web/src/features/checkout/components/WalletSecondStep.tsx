import { checkoutMessages, passkeySignInText, type LoginSecondStep } from '@kestrel/shared';
import { useState } from 'react';
import { Button } from '../../../components/Button.tsx';
import { SecondFactorForm } from '../../../components/SecondFactorForm.tsx';
import { ApiError } from '../../../lib/http.ts';
import { isBrowserPasskeyError, passkeyAssertion } from '../../../lib/passkeys.ts';
import { walletLoginSecondStep } from '../api.ts';
import type { WalletAuth } from './WalletPay.tsx';

/**
 * The wallet login's second step on a pay page, for a payer with two-factor sign-in on: the
 * app's code or a recovery code, or one of their passkeys (the browser part is imported on
 * click). Its own chunk (WalletPay loads it lazily), so the pay pages' budget does not carry
 * what few payers need.
 */
export function WalletSecondStep({ challenge, onSignedIn, onExpired }: { challenge: LoginSecondStep; onSignedIn: (auth: WalletAuth) => void; onExpired: (message: string | undefined) => void }) {
  const [passkeyPending, setPasskeyPending] = useState(false);
  const [passkeyError, setPasskeyError] = useState<string>();
  const { challengeToken, passkey } = challenge;

  const answerWithPasskey = async () => {
    if (!passkey) return;
    setPasskeyPending(true);
    setPasskeyError(undefined);
    try {
      const result = await walletLoginSecondStep(challengeToken, { passkey: await passkeyAssertion(passkey) });
      onSignedIn({ userId: result._id, token: result.token });
    } catch (cause) {
      if (isBrowserPasskeyError(cause)) setPasskeyError(passkeySignInText.cancelled);
      // A passkey's challenge serves one answer: a refused one starts the sign-in again.
      else onExpired(cause instanceof ApiError && cause.fromServer ? cause.message : checkoutMessages.loginError);
    } finally {
      setPasskeyPending(false);
    }
  };

  const passkeyButton = passkey && (
    <div className="space-y-2">
      <Button variant="secondary" size="lg" className="w-full" loading={passkeyPending} onClick={() => void answerWithPasskey()}>
        {passkeySignInText.useInSecondStep}
      </Button>
      {passkeyError && (
        <p role="alert" className="text-sm text-danger-700">
          {passkeyError}
        </p>
      )}
    </div>
  );

  if (challenge.secondStep === 'passkey') {
    return (
      <div className="space-y-4">
        <p className="text-sm text-slate-600">{passkeySignInText.secondStepHint}</p>
        {passkeyButton}
        <button type="button" onClick={() => onExpired(undefined)} className="rounded text-sm font-medium text-slate-600 hover:text-slate-900 hover:underline">
          {passkeySignInText.startOver}
        </button>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <SecondFactorForm
        onStartOver={() => onExpired(undefined)}
        onSubmit={async (code) => {
          try {
            const result = await walletLoginSecondStep(challengeToken, { code });
            onSignedIn({ userId: result._id, token: result.token });
            return undefined;
          } catch (cause) {
            if (cause instanceof ApiError && cause.code === 'login_challenge_invalid') {
              onExpired(cause.message);
              return undefined;
            }
            return cause instanceof ApiError && cause.fromServer ? cause.message : checkoutMessages.loginError;
          }
        }}
      />
      {passkeyButton}
    </div>
  );
}
