// A single-host PostgreSQL URL turned into `pg`'s settings, with libpq's meanings.
//
// `pg` 8 reads `sslmode=prefer`, `require` and `verify-ca` as verify-full (it checks the
// certificate's chain and host name); libpq, and so `pg_autoctl show uri` and every DBA, mean
// less by them: `require` encrypts without verifying. A formation made with `--ssl-self-signed`
// prints `sslmode=require`, which `pg`'s reading would refuse. pg-connection-string (the parser
// `pg` itself uses) has libpq's meanings behind `useLibpqCompat`; this file asks for them and
// adds what that mode leaves out: `allow` (pg-connection-string would verify), the second try
// of `allow` and `prefer` (made by the pool: multi-host.ts), the role from PGUSER when the URL
// names none, and PGSSLMODE when the URL has no sslmode. README "TLS and the role: libpq's meanings".
import type pg from 'pg';
import { parse, toClientConfig } from 'pg-connection-string';

export const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

/** What libpq takes from its environment when the URL does not say (config.ts reads them). */
export interface ConnectionDefaults {
  /** PGUSER: the role when the URL names none (`pg_autoctl show uri` names none). */
  user?: string | undefined;
  /** PGSSLMODE: the sslmode when the URL has none. */
  sslmode?: SslMode | undefined;
}

/** `pg`'s settings for one host: where, who, and TLS. */
export type HostConnection = Pick<pg.ClientConfig, 'host' | 'port' | 'user' | 'password' | 'database' | 'ssl'> & Record<string, unknown>;

export function isSslMode(value: string): value is SslMode {
  return (SSL_MODES as readonly string[]).includes(value);
}

/** The URL's sslmode, else the default's; refuses values libpq does not know (e.g. `pg`'s own `no-verify`). */
export function sslModeOf(query: URLSearchParams, defaults: ConnectionDefaults): SslMode | undefined {
  const given = query.get('sslmode');
  if (given === null) return defaults.sslmode;
  if (!isSslMode(given)) throw new Error(`DATABASE_URL: sslmode=${given} is not one of ${SSL_MODES.join(', ')}`);
  return given;
}

/**
 * `pg`'s settings for a single-host URL. `secondTry` is libpq's second attempt for the two modes
 * that have one: `allow` tries plain first, then TLS (without verifying) when the server refuses
 * plain; `prefer` tries TLS (without verifying) first, then plain when the server has no TLS.
 * Without an sslmode (in the URL or PGSSLMODE) the connection is plain, as `pg` has always made
 * it (libpq would try TLS first: write `sslmode=prefer` for that).
 */
export function hostConnection(url: string, defaults: ConnectionDefaults = {}, secondTry = false): HostConnection {
  const queryAt = url.indexOf('?');
  const base = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1));
  const sslmode = sslModeOf(query, defaults);
  // We always ask for libpq's meanings; pg-connection-string refuses the option given twice.
  query.delete('uselibpqcompat');
  query.delete('sslmode');
  // allow's plain try and prefer's second one are `disable`; allow's TLS try is prefer's first.
  const asked = sslmode === 'allow' ? (secondTry ? 'prefer' : 'disable') : sslmode === 'prefer' && secondTry ? 'disable' : sslmode;
  if (asked !== undefined) query.set('sslmode', asked);
  const text = query.size ? `${base}?${query.toString()}` : base;
  const parsed = toClientConfig(parse(text, { useLibpqCompat: true })) as HostConnection;
  // libpq uses no TLS on a Unix-domain socket, whatever the sslmode.
  if (typeof parsed.host === 'string' && parsed.host.startsWith('/')) parsed.ssl = false;
  // Not a connection setting of `pg`'s; left out so it is never sent on.
  delete parsed.sslmode;
  delete parsed.uselibpqcompat;
  // A URL without a user parses as user "" (and password ""): the role then comes from
  // PGUSER (config.ts), else `pg`'s own default (its PGUSER, then the operating-system user).
  if (!parsed.user) {
    delete parsed.user;
    if (defaults.user) parsed.user = defaults.user;
  }
  if (!parsed.password) delete parsed.password;
  return parsed;
}

/** Node's codes for a server certificate that failed verification (chain, dates or host name). */
const CERTIFICATE_REFUSED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * A refused server certificate, said with what to do about it (Node's own message, e.g.
 * "self-signed certificate", does not name the setting). Any other error is answered as it is.
 * The code is kept and the cause is Node's error; neither counts as "unavailable", so start-up
 * ends at once instead of waiting for a database that will never be accepted.
 */
export function explainCertificateRefusal(error: unknown): unknown {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (!(error instanceof Error) || typeof code !== 'string' || !CERTIFICATE_REFUSED.has(code)) return error;
  // Node's reason only: Node 24 appends a hint after a ';' ("try running Node.js with
  // --use-system-ca"), which is not this setting's answer and differs between Node versions.
  const reason = error.message.split(';')[0]?.trim() || error.message;
  return Object.assign(
    new Error(
      `PostgreSQL's TLS certificate was refused: ${reason}. sslmode=verify-full checks its chain and host name, verify-ca its chain: ` +
        'give the certificate of its CA as sslrootcert=<file>, or use sslmode=require to encrypt without checking it.',
      { cause: error },
    ),
    { code },
  );
}

/** The mode's second try, when it has one and `error` is the refusal that calls for it. */
export function wantsSecondTry(sslmode: SslMode | undefined, error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // prefer: the server answered the TLS request with "no".
  if (sslmode === 'prefer') return error.message.includes('The server does not support SSL connections');
  // allow: pg_hba.conf has no line for a plain connection (hostssl only); PostgreSQL 14+ says
  // "no encryption", earlier versions "SSL off".
  if (sslmode === 'allow') {
    return (error as { code?: unknown }).code === '28000' && /no encryption|SSL off/.test(error.message);
  }
  return false;
}
