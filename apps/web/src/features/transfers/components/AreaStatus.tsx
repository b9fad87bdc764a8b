import { messages, uiText } from '@kestrel/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/Button.tsx';
import { StatusCard } from '../../../components/StatusCard.tsx';
import { AlertCircleIcon, HistoryIcon } from '../../../components/icons.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { isTransferArea, WALLET_AREA, transferPaths, type TransferArea } from '../areas.ts';

const areaNames: Record<TransferArea, string> = {
  wallet: 'Wallet to wallet',
  bank: 'Bank',
  'mobile-bank': 'Mobile bank',
};

/** 'Comming Soon!' in the portal's content area: the bank and mobile-bank transfer types. */
export function ComingSoonArea({ area }: { area: TransferArea }) {
  return (
    <div className="flex justify-center py-6 sm:py-10">
      <PageTitle title={messages.portal.comingSoon} />
      <StatusCard
        icon={<HistoryIcon />}
        title={messages.portal.comingSoon}
        actions={
          <>
            <Link to={transferPaths.recipientSearch(WALLET_AREA)} className={buttonClasses('primary', 'lg')}>
              Send to a wallet
            </Link>
            <Link to={transferPaths.home} className={buttonClasses('secondary', 'lg')}>
              {uiText.nav.fundTransfer}
            </Link>
          </>
        }
      >
        <p>{areaNames[area]} transfers are not available yet. You can send money to another wallet now.</p>
      </StatusCard>
    </div>
  );
}

/** 'Page Not Found' inside the shell, for an {area} that is no transfer type. */
export function UnknownArea() {
  return (
    <div className="flex justify-center py-6 sm:py-10">
      <PageTitle title={messages.portal.notFound} />
      <StatusCard
        icon={<AlertCircleIcon />}
        tone="neutral"
        title={messages.portal.notFound}
        actions={
          // The spec's 'Page Not Found' goes back to /, wherever it shows.
          <Link to="/" className={buttonClasses('primary', 'lg')}>
            {uiText.portal.goBack}
          </Link>
        }
      >
        <p>There is no such transfer type. Choose one on the Fund Transfer page.</p>
      </StatusCard>
    </div>
  );
}

/**
 * Shows its children for the wallet area only: the other transfer types show 'Comming Soon!',
 * an unknown one 'Page Not Found'.
 */
export function WalletAreaOnly({ area, children }: { area: string | undefined; children: ReactNode }) {
  if (!isTransferArea(area)) return <UnknownArea />;
  if (area !== WALLET_AREA) return <ComingSoonArea area={area} />;
  return children;
}
