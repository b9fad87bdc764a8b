import { TRANSFER_FEE_PERCENT_LABEL } from '@kestrel/shared';
import { useId, type ComponentType } from 'react';
import { Link } from 'react-router';
import type { IconProps } from '../../../components/icons.tsx';
import { ChevronRightIcon } from '../../../components/icons.tsx';

interface OptionContent {
  title: string;
  description: string;
  icon: ComponentType<IconProps>;
}

const cardClasses =
  'group flex h-full w-full items-start gap-4 rounded-2xl border border-slate-200 bg-white p-5 text-left shadow-xs transition-colors hover:border-brand-300 hover:bg-brand-50/40';

function OptionBody({ title, description, icon: Icon, titleId, descriptionId }: OptionContent & { titleId: string; descriptionId: string }) {
  return (
    <>
      <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700 group-hover:bg-brand-100">
        <Icon className="size-6" />
      </span>
      <span className="min-w-0 flex-1">
        <span id={titleId} className="block text-base font-semibold text-slate-900">
          {title}
        </span>
        <span id={descriptionId} className="block">
          <span className="mt-1 block text-sm text-slate-600">{description}</span>
          <span className="mt-3 inline-flex items-center rounded-full bg-success-50 px-2.5 py-0.5 text-xs font-semibold text-success-700">
            Fee {TRANSFER_FEE_PERCENT_LABEL}
          </span>
        </span>
      </span>
      <ChevronRightIcon className="mt-3 size-5 shrink-0 text-slate-400 group-hover:text-brand-700" />
    </>
  );
}

/** A transfer type on /fund-transfer that opens its next screen. */
export function TransferOptionLink({ to, ...content }: OptionContent & { to: string }) {
  const titleId = useId();
  const descriptionId = useId();
  return (
    <Link to={to} aria-labelledby={titleId} aria-describedby={descriptionId} className={cardClasses}>
      <OptionBody {...content} titleId={titleId} descriptionId={descriptionId} />
    </Link>
  );
}

/** A transfer type on /fund-transfer that is not available yet: it only tells the user so. */
export function TransferOptionButton({ onClick, ...content }: OptionContent & { onClick: () => void }) {
  const titleId = useId();
  const descriptionId = useId();
  return (
    <button type="button" onClick={onClick} aria-labelledby={titleId} aria-describedby={descriptionId} className={cardClasses}>
      <OptionBody {...content} titleId={titleId} descriptionId={descriptionId} />
    </button>
  );
}
