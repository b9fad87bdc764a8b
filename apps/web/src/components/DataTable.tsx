import type { ReactNode } from 'react';

/**
 * The portal's wide-screen table: a captioned table with a header row of column names and
 * the rows given as children (`<tr>` elements). Phones get each list's cards instead.
 */
export function DataTable({ caption, columns, alignRight, children }: { caption: string; columns: readonly string[]; alignRight?: ReadonlySet<string>; children: ReactNode }) {
  return (
    <div className="hidden overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-xs md:block">
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
