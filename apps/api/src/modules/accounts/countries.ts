import countries from 'i18n-iso-countries';
import english from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

/*
 * The public countries list (GET /data/v1/countries) and the one form an account's country is
 * stored in: its ISO 3166-1 alpha-2 code. People read the country's English name.
 */

countries.registerLocale(english);

/** code -> { country }, sorted by name: the spec's public countries list. */
export function countryMap(): Record<string, { country: string }> {
  const names = countries.getNames('en', { select: 'official' });
  const entries = Object.entries(names).sort(([, a], [, b]) => a.localeCompare(b));
  return Object.fromEntries(entries.map(([code, country]) => [code, { country }]));
}

/**
 * The code of a country given as its code (any case) or by one of its English names (a
 * client that sends what the list shows); undefined when it names no country on the list.
 */
export function countryCodeOf(value: string): string | undefined {
  const trimmed = value.trim();
  if (/^[A-Za-z]{2}$/.test(trimmed)) return countries.isValid(trimmed.toUpperCase()) ? trimmed.toUpperCase() : undefined;
  return countries.getAlpha2Code(trimmed, 'en') ?? undefined;
}

/** The country's English name for a stored code; a value that is no code (an old row) is shown as stored. */
export function countryNameOf(stored: string): string {
  return (/^[A-Z]{2}$/.test(stored) ? countries.getName(stored, 'en', { select: 'official' }) : undefined) ?? stored;
}
