import { DOWNLOAD_URL_LIFETIME_MS } from '@kestrel/shared';
import { http } from './http.ts';

/*
 * Downloads that need the session: the API wants the bearer token in the Authorization header,
 * so a plain link (which would need the token in its URL) cannot fetch them. The file is
 * fetched with the token as a blob and saved through a temporary object URL.
 */

/** Saves `blob` as `filename` through the browser's download. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later, not at once: some browsers read the URL after click() has returned.
  setTimeout(() => URL.revokeObjectURL(url), DOWNLOAD_URL_LIFETIME_MS);
}

/** A day range as the exports take it (YYYY-MM-DD, both optional). */
export interface DayRange {
  from?: string | undefined;
  to?: string | undefined;
}

/** The file name of an export for a range: `transactions-A100.csv` → `transactions-A100_2026-11-01_2026-11-30.csv`. */
export function rangedFilename(filename: string, range: DayRange): string {
  if (!range.from && !range.to) return filename;
  const dot = filename.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [filename.slice(0, dot), filename.slice(dot)] : [filename, ''];
  return `${stem}_${range.from ?? 'start'}_${range.to ?? 'today'}${extension}`;
}

/** Downloads an export (`path` without a query) for `range` and saves it as `filename` with the range in its name. */
export async function downloadExport(path: string, filename: string, range: DayRange): Promise<string> {
  const query = new URLSearchParams();
  if (range.from) query.set('from', range.from);
  if (range.to) query.set('to', range.to);
  const search = query.toString();
  const blob = await http.blob(search ? `${path}?${search}` : path);
  const name = rangedFilename(filename, range);
  saveBlob(blob, name);
  return name;
}
