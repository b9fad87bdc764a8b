import { PageTitle } from '../../../components/PageTitle.tsx';
import { BackLink } from '../../transfers/components/BackLink.tsx';
import { NewWithdrawForm } from '../components/NewWithdrawForm.tsx';

const title = 'New Bank Withdraw';

/** /bank/withdraw/new: the new bank withdraw form. */
export function NewBankWithdrawPage() {
  return (
    <>
      <PageTitle title={title} />
      <BackLink to="/withdraw/bank">Bank withdrawals</BackLink>
      <div className="mt-2 max-w-3xl">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        <p className="mt-1 mb-6 text-slate-600">Where should we send the money? Enter the bank details, the amount and your 4-digit TPIN.</p>
        <NewWithdrawForm />
      </div>
    </>
  );
}
