import { messages, uiText } from '@kestrel/shared';
import { useId, type ComponentType, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { BankIcon, ChevronRightIcon, HistoryIcon, PhoneIcon, type IconProps } from '../../../components/icons.tsx';
import { PageTitle } from '../../../components/PageTitle.tsx';

const cardClasses =
  'group flex h-full w-full items-start gap-4 rounded-2xl border border-slate-200 bg-white p-5 text-left shadow-xs transition-colors hover:border-brand-300 hover:bg-brand-50/40';

function OptionBody({ title, description, icon: Icon, titleId }: { title: string; description: ReactNode; icon: ComponentType<IconProps>; titleId: string }) {
  return (
    <>
      <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700 group-hover:bg-brand-100">
        <Icon className="size-6" />
      </span>
      <span className="min-w-0 flex-1">
        <span id={titleId} className="block text-base font-semibold text-slate-900">
          {title}
        </span>
        <span className="mt-1 block text-sm text-slate-600">{description}</span>
      </span>
      <ChevronRightIcon className="mt-3 size-5 shrink-0 text-slate-400 group-hover:text-brand-700" />
    </>
  );
}

const showComingSoon = () =>
  toast(messages.portal.comingSoon, { id: 'withdraw-coming-soon', icon: <HistoryIcon className="size-5 shrink-0 text-brand-700" /> });

/** /withdraw: where the money goes — a bank account, or (not yet) a mobile wallet. */
export function WithdrawHubPage() {
  const title = uiText.nav.withdraw;
  const bankTitleId = useId();
  const mobileTitleId = useId();
  return (
    <>
      <PageTitle title={title} />
      <div className="mb-6">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        <p className="mt-1 text-slate-600">Choose where to withdraw your money.</p>
      </div>
      <ul className="grid gap-4 md:grid-cols-2">
        <li>
          <Link to="/withdraw/bank" aria-labelledby={bankTitleId} className={cardClasses}>
            <OptionBody title="Bank" description="Withdraw to a bank account in the United States or Bangladesh." icon={BankIcon} titleId={bankTitleId} />
          </Link>
        </li>
        <li>
          <button type="button" onClick={showComingSoon} aria-labelledby={mobileTitleId} className={cardClasses}>
            <OptionBody title="Mobile Wallet" description="Withdraw to a mobile banking wallet." icon={PhoneIcon} titleId={mobileTitleId} />
          </button>
        </li>
      </ul>
    </>
  );
}
