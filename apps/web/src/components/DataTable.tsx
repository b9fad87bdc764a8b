import type { ReactNode } from 'react';

/**
 * The portal's wide-screen table: a captioned table with a header row of column names and
 * the rows given as children (`<tr>` elements). Phones get each list's cards instead.
 */
const scrollRegionTabIndex = 0;

export function DataTable({ caption, columns, alignRight, children }: { caption: string; columns: readonly string[]; alignRight?: ReadonlySet<string>; children: ReactNode }) {
  return (
    // A region the keyboard can reach: when the table is wider than the page it scrolls, and a
    // list whose rows hold no link (unpaid payments only) would leave it unscrollable by keyboard.
    <div
      role="region"
      aria-label={caption}
      tabIndex={scrollRegionTabIndex}
      className="hidden overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-xs focus-visible:outline-2 focus-visible:outline-brand-600 md:block"
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className={`px-4 py-3 whitespace-nowrap ${alignRight?.has(column) ? 'text-right' : ''}`}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}
