import { messages, PRODUCT_NAME, uiText } from '@kestrel/shared';
import toast from 'react-hot-toast';
import { BankIcon, HistoryIcon, PhoneIcon, WalletIcon } from '../../../components/icons.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';
import { WALLET_AREA, transferPaths } from '../areas.ts';
import { TransferOptionButton, TransferOptionLink } from '../components/TransferOptionCard.tsx';

const showComingSoon = () =>
  toast(messages.portal.comingSoon, { id: 'transfer-coming-soon', icon: <HistoryIcon className="size-5 shrink-0 text-brand-700" /> });

/** /fund-transfer: the three transfer types, each with its fee. */
export function FundTransferHomePage() {
  const title = uiText.nav.fundTransfer;
  return (
    <>
      <PageTitle title={title} />
      <div className="mb-6">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        <p className="mt-1 text-slate-600">Choose where the money goes.</p>
      </div>
      <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        <li>
          <TransferOptionLink
            to={transferPaths.recipientSearch(WALLET_AREA)}
            title={`${PRODUCT_NAME} to ${PRODUCT_NAME}`}
            description={`Send money instantly to any ${PRODUCT_NAME} wallet by account number, e-mail, phone or name.`}
            icon={WalletIcon}
          />
        </li>
        <li>
          <TransferOptionButton
            onClick={showComingSoon}
            title={`${PRODUCT_NAME} to Bank`}
            description="Send money from your wallet to a bank account."
            icon={BankIcon}
          />
        </li>
        <li>
          <TransferOptionButton
            onClick={showComingSoon}
            title={`${PRODUCT_NAME} to Mobile Bank`}
            description="Send money from your wallet to a mobile banking wallet."
            icon={PhoneIcon}
          />
        </li>
      </ul>
    </>
  );
}
