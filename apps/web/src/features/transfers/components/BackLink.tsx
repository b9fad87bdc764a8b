import { Link } from 'react-router';
import { ArrowLeftIcon } from '../../../components/icons.tsx';

/** The "back one step" link above a transfer screen. */
export function BackLink({ to, children }: { to: string; children: string }) {
  return (
    <Link
      to={to}
      className="inline-flex h-9 items-center gap-1.5 rounded-lg pr-2 text-sm font-semibold text-brand-700 hover:text-brand-900 hover:underline"
    >
      <ArrowLeftIcon className="size-4" />
      {children}
    </Link>
  );
}
