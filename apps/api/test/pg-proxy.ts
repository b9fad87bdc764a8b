import net from 'node:net';

interface Pair {
  client: net.Socket;
  upstream: net.Socket | undefined;
  /** Blackholed: bytes in both directions are dropped. */
  silent: boolean;
}

/**
 * A TCP proxy between the server and PostgreSQL for the outage tests. It can reset every
 * connection, refuse new ones, go silent (a network partition: nothing arrives, nothing is
 * refused), and break one connection right after a COMMIT has reached the server.
 */
export class PgProxy {
  private readonly server = net.createServer((socket) => this.accept(socket));
  private readonly pairs = new Set<Pair>();
  private mode: 'pass' | 'refuse' | 'blackhole' = 'pass';
  private commitTrap = false;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  /** The connection string `url` with the proxy in place of the server. */
  urlFor(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(this.port);
    return proxied.toString();
  }

  get connections(): number {
    return this.pairs.size;
  }

  /** Every open connection is reset (RST), as when PostgreSQL stops or a backend dies. */
  resetAll(): void {
    for (const pair of this.pairs) this.drop(pair);
  }

  /** New connections are reset at once (the database is down); open ones are untouched. */
  refuse(): void {
    this.mode = 'refuse';
  }

  /** Nothing passes in either direction, on open and new connections, and nothing is refused. */
  blackhole(): void {
    this.mode = 'blackhole';
    for (const pair of this.pairs) pair.silent = true;
  }

  /** Back to normal. Connections that were silent lost bytes, so they are reset, as a partition's peers would find them dead. */
  heal(): void {
    this.mode = 'pass';
    for (const pair of this.pairs) if (pair.silent) this.drop(pair);
  }

  /**
   * The next COMMIT is delivered to PostgreSQL, but its answer never comes back: the connection is reset instead.
   * A transfer is one autocommitted call of the ledger's `ledger_transfer` function, so that call counts as its COMMIT:
   * its named prepared statement (`ledger_transfer_v2`; the match is on the prefix, so a later version's name still
   * matches) is in the Parse message of its first call on a connection and in the Bind message of every call.
   */
  breakAfterNextCommit(): void {
    this.commitTrap = true;
  }

  async close(): Promise<void> {
    this.resetAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private drop(pair: Pair): void {
    this.pairs.delete(pair);
    pair.client.resetAndDestroy();
    pair.upstream?.destroy();
  }

  private accept(client: net.Socket): void {
    client.on('error', () => {});
    if (this.mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    const pair: Pair = { client, upstream: undefined, silent: this.mode === 'blackhole' };
    this.pairs.add(pair);
    client.on('close', () => {
      this.pairs.delete(pair);
      pair.upstream?.destroy();
    });
    if (pair.silent) return;
    const upstream = net.connect(this.target);
    pair.upstream = upstream;
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
    let answering = true;
    upstream.on('data', (chunk: Buffer) => {
      if (!pair.silent && answering) client.write(chunk);
    });
    client.on('data', (chunk: Buffer) => {
      if (pair.silent) return;
      upstream.write(chunk);
      if (this.commitTrap && (isCommit(chunk) || chunk.includes('ledger_transfer', 0, 'latin1'))) {
        this.commitTrap = false;
        answering = false;
        // Give PostgreSQL time to run the COMMIT it has received, then break the connection.
        setTimeout(() => this.drop(pair), 200);
      }
    });
  }
}

/** A simple-protocol Query message ('Q', int32 length, text) whose text is COMMIT. */
function isCommit(chunk: Buffer): boolean {
  const at = chunk.indexOf('commit\0', 0, 'latin1');
  return at >= 5 && chunk[at - 5] === 0x51;
}
