import { useSyncExternalStore } from 'react';

const noSubscription = () => () => undefined;

/**
 * A moment in the visitor's locale and time zone, by the platform's formatter (date-fns would
 * be a twentieth of the pay page's download). The server does not know them: its rendering
 * (and the browser's hydration of it) shows UTC, and the browser then shows the visitor's own
 * time, so the hydrated markup matches the server's.
 */
export function LocalDate({ value, dateStyle = 'medium' }: { value: string | Date; dateStyle?: 'medium' | 'long' }) {
  const text = (locale?: string, timeZone?: string) => new Intl.DateTimeFormat(locale, { dateStyle, timeStyle: 'short', timeZone }).format(new Date(value));
  return useSyncExternalStore(noSubscription, () => text(), () => `${text('en', 'UTC')} UTC`);
}
