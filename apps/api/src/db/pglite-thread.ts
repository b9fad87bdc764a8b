import { Worker } from 'node:worker_threads';
import type { BackendMessage } from 'pg-protocol/dist/messages.js';
import { Parser } from 'pg-protocol/dist/parser.js';

/**
 * Embedded PGlite on a thread of its own. PGlite is PostgreSQL compiled to WebAssembly; run in
 * the server's thread, every query's engine work held up the event loop (the server and the
 * database shared one core's worth of one thread). Here the engine runs in a worker thread
 * (`pglite-worker.mjs`) and this object stands in for it where PGlite's `pg` adapter
 * (`@electric-sql/pglite/node-postgres`, `createPgConfig`) expects a PGlite: the adapter hands
 * over the wire protocol's bytes that `pg` wrote, the worker runs them through the engine and
 * answers its bytes, parsed here with `pg`'s own protocol parser. So the rest of the code path
 * is unchanged: Kysely's PostgresDialect over a `pg` pool of one connection.
 *
 * If the thread dies, every request in flight and every later one fails with a "Connection
 * terminated" error, which `isDatabaseUnavailable` reads as the database being unreachable.
 */
export class PGliteThread {
  readonly waitReady: Promise<void>;
  readonly #worker: Worker;
  readonly #waiting = new Map<number, { resolve: (messages: BackendMessage[]) => void; reject: (error: Error) => void }>();
  #nextId = 1;
  #stopped: Error | undefined;
  #closed: Promise<void> | undefined;

  constructor(dataDir: string | undefined) {
    this.#worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dataDir } });
    this.waitReady = new Promise<void>((resolve, reject) => {
      const onMessage = (message: WorkerMessage) => {
        if (message.type === 'ready') resolve();
        else if (message.type === 'failed') reject(new Error(`PGlite did not start: ${message.message}`));
        else if (message.type === 'answer') this.#answer(message);
      };
      this.#worker.on('message', onMessage);
      this.#worker.on('error', (error) => {
        this.#stop(error);
        reject(error);
      });
      this.#worker.on('exit', (code) => {
        const error = new Error(`Connection terminated: the PGlite thread stopped (exit code ${code})`);
        this.#stop(error);
        reject(error);
      });
    });
  }

  /** What PGlite's `pg` adapter calls for each batch of protocol messages. */
  execProtocolStream(bytes: Uint8Array): Promise<BackendMessage[]> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise<BackendMessage[]>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#worker.postMessage({ type: 'exec', id, bytes });
    });
  }

  close(): Promise<void> {
    this.#closed ??= new Promise<void>((resolve) => {
      if (this.#stopped) return resolve();
      this.#worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'closed') void this.#worker.terminate().then(() => resolve());
      });
      this.#worker.on('exit', () => resolve());
      this.#worker.postMessage({ type: 'close' });
    });
    return this.#closed;
  }

  #answer(message: Extract<WorkerMessage, { type: 'answer' }>): void {
    const waiting = this.#waiting.get(message.id);
    if (!waiting) return;
    this.#waiting.delete(message.id);
    if (message.error !== undefined || !message.bytes) {
      waiting.reject(new Error(message.error ?? 'PGlite answered nothing'));
      return;
    }
    const messages: BackendMessage[] = [];
    // Each answer holds whole messages, so a parser per answer never keeps a partial one.
    new Parser().parse(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength), (parsed) => messages.push(parsed));
    waiting.resolve(messages);
  }

  #stop(error: Error): void {
    this.#stopped ??= error;
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
  }
}

type WorkerMessage =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'answer'; id: number; bytes?: Uint8Array; error?: string }
  | { type: 'closed' };
