import { Navigate, useParams } from 'react-router';
import { transferPaths, WALLET_AREA } from '../areas.ts';
import { WalletAreaOnly } from '../components/AreaStatus.tsx';

/** /fund-transfer/:area: a wallet transfer starts with choosing the recipient. */
export function FundTransferAreaPage() {
  const { area } = useParams();
  return (
    <WalletAreaOnly area={area}>
      <Navigate to={transferPaths.recipientSearch(WALLET_AREA)} replace />
    </WalletAreaOnly>
  );
}
