// Following the primary: libpq's multi-host connection strings for `pg`, which has none.
//
// `pg_autoctl show uri` (pg_auto_failover) prints
//   postgres://h1:5432,h2:5433/db?target_session_attrs=read-write&sslmode=prefer
// libpq tries the hosts in order and keeps the first whose session is writable; `pg` would
// read that as one host name containing a comma. This is the smallest factory around `pg` that
// does what libpq does (README "Several database hosts: following the primary" says why not a
// different driver): one `pg.Pool` for the host chosen now; every new connection's
// `SHOW transaction_read_only` is checked; a host that fails or turns read-only is dropped
// with its pool (its connections end as they are released), and the next connection request
// tries the hosts in order again, so a new primary is found without a restart. A single host
// with sslmode=allow or prefer comes here too: libpq's second try (plain, or TLS) needs a new
// pool, which a bare `pg.Pool` cannot make.
import pg from 'pg';
import { hostConnection, sslModeOf, wantsSecondTry, type ConnectionDefaults, type SslMode } from './connection-settings.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

export interface HostAddress {
  host: string;
  port: number;
}

export interface MultiHostUrl {
  hosts: HostAddress[];
  /** `target_session_attrs=read-write` (or `primary`): only a host whose session is writable will do. */
  readWrite: boolean;
  /** As written in the URL, else PGSSLMODE's; `allow` and `prefer` get their second try here. */
  sslmode: SslMode | undefined;
  /** PGUSER and PGSSLMODE, for what the URL does not say. */
  defaults: ConnectionDefaults;
  /** A single-host connection string: same user, database and parameters (connection-settings.ts reads it). */
  hostUrl(host: HostAddress): string;
}

const URL_SHAPE = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(?:\?([^#]*))?$/;
const SESSION_ATTRS = new Set(['any', 'read-write', 'primary']);

function parseHost(entry: string): HostAddress {
  // [v6]:port, [v6], name:port, name
  const match = /^(\[[^\]]+\]|[^:]*)(?::(\d+))?$/.exec(entry);
  if (!match || !match[1]) throw new Error(`DATABASE_URL: cannot read the host "${entry}"`);
  return { host: match[1], port: match[2] === undefined ? 5432 : Number(match[2]) };
}

/**
 * Reads a libpq URL with one or several hosts. Answers undefined for a single-host URL without
 * `target_session_attrs` whose sslmode has no second try (all but `allow` and `prefer`): one
 * `pg.Pool` on connection-settings.ts's reading does for that.
 */
export function parseMultiHostUrl(url: string, defaults: ConnectionDefaults = {}): MultiHostUrl | undefined {
  const match = URL_SHAPE.exec(url);
  if (!match) return undefined;
  const [, scheme = '', userinfo, hostList = '', path = '', query = ''] = match;
  const params = new URLSearchParams(query);
  const attrs = params.get('target_session_attrs');
  const sslmode = sslModeOf(params, defaults);
  // A Unix-domain socket (no host in the URL) never uses TLS: nothing to try twice.
  const twoTries = (sslmode === 'allow' || sslmode === 'prefer') && hostList !== '';
  if (!hostList.includes(',') && attrs === null && !twoTries) return undefined;
  if (attrs !== null && !SESSION_ATTRS.has(attrs)) {
    throw new Error(`DATABASE_URL: target_session_attrs=${attrs} is not supported (use read-write, primary or any)`);
  }
  const hosts = hostList.split(',').map(parseHost);
  params.delete('target_session_attrs');
  const rest = params.toString();
  return {
    hosts,
    readWrite: attrs === 'read-write' || attrs === 'primary',
    sslmode,
    defaults,
    hostUrl: ({ host, port }) => `${scheme}${userinfo === undefined ? '' : `${userinfo}@`}${host}:${port}${path}${rest ? `?${rest}` : ''}`,
  };
}

/** What `pg.Pool` takes besides the connection settings (timeouts, size, application name). */
export type PoolSettings = Omit<pg.PoolConfig, 'connectionString' | 'ssl'>;

interface HostPool {
  host: HostAddress;
  pool: pg.Pool;
}

export class MultiHostPool {
  private current: HostPool | undefined;
  private choosing: Promise<HostPool> | undefined;
  /** Connections already checked for being writable (checked once, when first handed out). */
  private readonly checked = new WeakSet<pg.PoolClient>();
  private readonly hostOf = new WeakMap<pg.PoolClient, HostPool>();
  /** Hosts (by "host:port") that refused the first try of sslmode=allow or prefer: the second is used there. */
  private readonly secondTryHosts = new Set<string>();
  private ended = false;

  constructor(
    private readonly url: MultiHostUrl,
    private readonly settings: PoolSettings,
    /** Called on each new pool, e.g. to attach the connection-lost listeners. */
    private readonly onPool: (pool: pg.Pool) => void = () => {},
  ) {}

  /** A connection to the host that is the (writable) primary now; rejects when none is reachable. */
  async connect(): Promise<pg.PoolClient> {
    // Twice at most: the current host, then a fresh choice when it has gone away.
    for (let attempt = 0; ; attempt++) {
      if (this.ended) throw new Error('Client was closed');
      const entry = this.current ?? (await (this.choosing ??= this.choose().finally(() => (this.choosing = undefined))));
      let client: pg.PoolClient;
      try {
        client = await entry.pool.connect();
      } catch (error) {
        if (!isDatabaseUnavailable(error) || attempt > 0) throw error;
        this.retire(entry);
        continue;
      }
      if (this.checked.has(client) || (await this.usable(client))) {
        this.hostOf.set(client, entry);
        return client;
      }
      client.release(true);
      this.retire(entry);
      if (attempt > 0) throw notWritable();
    }
  }

  /**
   * A connection of ours failed with `error` (the caller discards it). When it says the host
   * went away or is read-only now, the whole host is dropped, so its idle connections are not
   * handed out again and the next request looks for the primary.
   */
  reportBroken(client: pg.PoolClient, error: unknown): void {
    const entry = this.hostOf.get(client);
    const code = (error as { code?: unknown }).code;
    if (entry && code !== '57014' && code !== '25P03') this.retire(entry);
  }

  async end(): Promise<void> {
    this.ended = true;
    const entry = this.current;
    this.current = undefined;
    await entry?.pool.end();
  }

  /** The host in use now, for logs and tests. */
  get currentHost(): HostAddress | undefined {
    return this.current?.host;
  }

  private async usable(client: pg.PoolClient): Promise<boolean> {
    if (this.url.readWrite) {
      const { rows } = await client.query<{ transaction_read_only: string }>('SHOW transaction_read_only');
      if (rows[0]?.transaction_read_only !== 'off') return false;
    }
    this.checked.add(client);
    return true;
  }

  private retire(entry: HostPool): void {
    if (this.current === entry) this.current = undefined;
    // Idle connections close now; those in use close when released (pg-pool, once ending).
    entry.pool.end().catch(() => {});
  }

  private openPool(host: HostAddress): pg.Pool {
    const secondTry = this.secondTryHosts.has(`${host.host}:${host.port}`);
    const pool = new pg.Pool({ ...this.settings, ...hostConnection(this.url.hostUrl(host), this.url.defaults, secondTry) });
    this.onPool(pool);
    return pool;
  }

  /** Tries the hosts in order; the first reachable (and writable, when asked) one becomes current. */
  private async choose(): Promise<HostPool> {
    let lastError: unknown = notWritable();
    for (const host of this.url.hosts) {
      for (let tlsTry = 0; tlsTry < 2; tlsTry++) {
        const entry: HostPool = { host, pool: this.openPool(host) };
        try {
          const client = await entry.pool.connect();
          const ok = await this.usable(client).catch((error: unknown) => {
            client.release(true);
            throw error;
          });
          if (ok) {
            client.release();
            if (this.ended) await entry.pool.end();
            else this.current = entry;
            return entry;
          }
          client.release(true);
          await entry.pool.end();
          break;
        } catch (error) {
          await entry.pool.end().catch(() => {});
          // libpq's second try: prefer's plain after a server without TLS, allow's TLS after a server that refuses plain.
          if (tlsTry === 0 && wantsSecondTry(this.url.sslmode, error)) {
            this.secondTryHosts.add(`${host.host}:${host.port}`);
            continue;
          }
          lastError = error;
          break;
        }
      }
    }
    throw lastError;
  }
}

/** Every host answered, none writable: the same as unreachable for a request (503, try again). */
function notWritable(): Error {
  return Object.assign(new Error('No database host is a writable primary now (target_session_attrs=read-write)'), { code: '08001' });
}
