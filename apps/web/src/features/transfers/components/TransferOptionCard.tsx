import { messages, TRANSFER_FEE_PERCENT_LABEL } from '@kestrel/shared';
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
/** Not available yet: flat, dashed and muted, with no hover or chevron, so it does not look like a way in. */
const unavailableCardClasses =
  'flex h-full w-full cursor-default items-start gap-4 rounded-2xl border border-dashed border-slate-300 bg-slate-50 p-5 text-left';

function OptionBody({
  title,
  description,
  icon: Icon,
  titleId,
  descriptionId,
  available,
}: OptionContent & { titleId: string; descriptionId: string; available: boolean }) {
  return (
    <>
      <span
        className={`flex size-12 shrink-0 items-center justify-center rounded-xl ${available ? 'bg-brand-50 text-brand-700 group-hover:bg-brand-100' : 'bg-slate-200/70 text-slate-500'}`}
      >
        <Icon className="size-6" />
      </span>
      <span className="min-w-0 flex-1">
        <span id={titleId} className={`block text-base font-semibold ${available ? 'text-slate-900' : 'text-slate-600'}`}>
          {title}
        </span>
        <span id={descriptionId} className="block">
          <span className={`mt-1 block text-sm ${available ? 'text-slate-600' : 'text-slate-500'}`}>{description}</span>
          <span className="mt-3 flex flex-wrap gap-2">
            <span
              className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${available ? 'bg-success-50 text-success-700' : 'bg-slate-200/70 text-slate-600'}`}
            >
              Fee {TRANSFER_FEE_PERCENT_LABEL}
            </span>
            {!available && (
              <span className="inline-flex items-center rounded-full bg-warning-50 px-2.5 py-0.5 text-xs font-semibold text-warning-700">
                {messages.portal.comingSoon}
              </span>
            )}
          </span>
        </span>
      </span>
      {available && <ChevronRightIcon className="mt-3 size-5 shrink-0 text-slate-400 group-hover:text-brand-700" />}
    </>
  );
}

/** A transfer type on /fund-transfer that opens its next screen. */
export function TransferOptionLink({ to, ...content }: OptionContent & { to: string }) {
  const titleId = useId();
  const descriptionId = useId();
  return (
    <Link to={to} aria-labelledby={titleId} aria-describedby={descriptionId} className={cardClasses}>
      <OptionBody {...content} titleId={titleId} descriptionId={descriptionId} available />
    </Link>
  );
}

/**
 * A transfer type on /fund-transfer that is not available yet. It is drawn as unavailable,
 * with 'Comming Soon!' in its description, and a press only shows that as a toast (the spec).
 */
export function TransferOptionButton({ onClick, ...content }: OptionContent & { onClick: () => void }) {
  const titleId = useId();
  const descriptionId = useId();
  return (
    <button
      type="button"
      onClick={onClick}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      className={unavailableCardClasses}
    >
      <OptionBody {...content} titleId={titleId} descriptionId={descriptionId} available={false} />
    </button>
  );
}
