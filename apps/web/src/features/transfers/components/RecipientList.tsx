import { RECIPIENT_RESULTS_MAX_HEIGHT_PX } from '@kestrel/shared';
import { Link } from 'react-router';
import { accountDisplayName } from '../../accounts/account-name.ts';
import type { Recipient } from '../api.ts';
import { ChevronRightIcon } from '../../../components/icons.tsx';

function RecipientItem({ recipient, to }: { recipient: Recipient; to: string }) {
  const name = accountDisplayName({
    accountType: recipient.accountType === 'business' ? 'business' : 'personal',
    accountHolderName: recipient.accountHolderName,
    businessName: recipient.businessName,
  });
  const contact = recipient.accountEmail ?? recipient.accountPhone;
  return (
    <li>
      <Link
        to={to}
        className="group flex items-center gap-3 rounded-xl px-3 py-3 hover:bg-brand-50 focus-visible:bg-brand-50 focus-visible:outline-offset-[-2px]"
      >
        <span
          aria-hidden="true"
          className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-100 text-base font-bold text-brand-800"
        >
          {name.charAt(0).toUpperCase()}
        </span>
        {/* Names and numbers wrap rather than truncate: the sender must see whom they are paying. */}
        <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">
          <span className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
            <span className="font-semibold text-slate-900">{name}</span>
            {recipient.accountType === 'business' && (
              <span className="shrink-0 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">Business</span>
            )}
          </span>
          <span className="flex flex-wrap gap-x-1.5 text-sm text-slate-600">
            <span>@{recipient.userName} ·</span>
            <span className="tabular-nums">{recipient.accountNumber}</span>
          </span>
          {contact && <span className="block text-sm text-slate-600">{contact}</span>}
        </span>
        <ChevronRightIcon className="size-5 shrink-0 text-slate-400 group-hover:text-brand-700" />
      </Link>
    </li>
  );
}

/** Recipients as links to the transfer form; at most 300 px high, the rest scrolls (spec, section 9). */
export function RecipientList({ recipients, linkTo, label }: { recipients: readonly Recipient[]; linkTo: (recipient: Recipient) => string; label: string }) {
  return (
    <ul
      aria-label={label}
      style={{ maxHeight: RECIPIENT_RESULTS_MAX_HEIGHT_PX }}
      className="-mx-1 divide-y divide-slate-100 overflow-y-auto overscroll-contain px-1"
    >
      {recipients.map((recipient) => (
        <RecipientItem key={recipient._id} recipient={recipient} to={linkTo(recipient)} />
      ))}
    </ul>
  );
}
