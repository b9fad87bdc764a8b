import { format } from 'date-fns';

/** The spec's display format: long month, ordinal day, year, then 12-hour time ("November 22nd, 2026 2:30 PM"). */
export function formatDateTime(value: string | number | Date): string {
  return format(new Date(value), 'MMMM do, yyyy h:mm a');
}

/** Long month, ordinal day and year only ("November 22nd, 2026"). */
export function formatDate(value: string | number | Date): string {
  return format(new Date(value), 'MMMM do, yyyy');
}

/** Whole years between a date of birth (YYYY-MM-DD) and now. */
export function ageInYears(dateOfBirth: string, now: Date = new Date()): number {
  const born = new Date(`${dateOfBirth.slice(0, 10)}T00:00:00Z`);
  let age = now.getUTCFullYear() - born.getUTCFullYear();
  const beforeBirthday =
    now.getUTCMonth() < born.getUTCMonth() ||
    (now.getUTCMonth() === born.getUTCMonth() && now.getUTCDate() < born.getUTCDate());
  if (beforeBirthday) age -= 1;
  return age;
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A UTC month 'YYYY-MM' as words ("October 2026"), the same in every time zone. */
export function formatMonth(month: string): string {
  const [year, number] = month.split('-');
  return `${MONTH_NAMES[Number(number) - 1] ?? '?'} ${year}`;
}
