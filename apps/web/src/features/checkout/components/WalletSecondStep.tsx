import { checkoutMessages } from '@kestrel/shared';
import { SecondFactorForm } from '../../../components/SecondFactorForm.tsx';
import { ApiError } from '../../../lib/http.ts';
import { walletLoginSecondStep } from '../api.ts';
import type { WalletAuth } from './WalletPay.tsx';

/**
 * The wallet login's second step on a pay page, for a payer with two-factor sign-in on: the
 * app's code or a recovery code. Its own chunk (WalletPay loads it lazily), so the pay pages'
 * budget does not carry what few payers need.
 */
export function WalletSecondStep({ challenge, onSignedIn, onExpired }: { challenge: string; onSignedIn: (auth: WalletAuth) => void; onExpired: (message: string | undefined) => void }) {
  return (
    <SecondFactorForm
      onStartOver={() => onExpired(undefined)}
      onSubmit={async (code) => {
        try {
          const result = await walletLoginSecondStep(challenge, code);
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
  );
}
