import { PARTNER_NAMES } from '@kestrel/shared';
import type { ReactNode } from 'react';

/** Simple geometric marks, one per partner, so the badges read as logos without remote images. */
const glyphs: ReactNode[] = [
  <circle key="circle" cx="10" cy="10" r="7" />,
  <path key="triangle" d="M10 3l7.5 13h-15z" />,
  <path key="diamond" d="M10 2.5l7.5 7.5-7.5 7.5L2.5 10z" />,
  <rect key="square" x="3" y="3" width="14" height="14" rx="4" />,
  <path key="hexagon" d="M10 2.5l6.5 3.75v7.5L10 17.5l-6.5-3.75v-7.5z" />,
  <path key="ring" d="M10 3a7 7 0 110 14 7 7 0 010-14zm0 4a3 3 0 100 6 3 3 0 000-6z" fillRule="evenodd" />,
  <path key="bars" d="M3 15h3V8H3zM8.5 15h3V4h-3zM14 15h3v-5h-3z" />,
];

/** The seven partner badges of the login marketing panel. */
export function PartnerLogos({ className = '' }: { className?: string }) {
  return (
    <ul className={`grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-4 ${className}`} aria-label="Partner sites">
      {PARTNER_NAMES.map((name, index) => (
        <li
          key={name}
          className="flex items-center gap-2 rounded-xl bg-white/10 px-3 py-2.5 text-sm font-semibold tracking-tight text-white ring-1 ring-white/15"
        >
          <svg viewBox="0 0 20 20" className="size-5 shrink-0 fill-accent-300" aria-hidden="true" focusable="false">
            {glyphs[index % glyphs.length]}
          </svg>
          {name}
        </li>
      ))}
    </ul>
  );
}
