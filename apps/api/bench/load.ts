import { Worker } from 'node:worker_threads';
import type { CardLoad, GetLoad, LoadResult, TransferLoad } from './load-protocol.ts';

type Pending = { resolve: (result: LoadResult) => void; reject: (error: Error) => void };

/** Drives the load-generator worker thread: one run at a time, answered by id. */
export class LoadGenerator {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | undefined;

  constructor() {
    // The worker is TypeScript too: a one-line bootstrap registers tsx in the worker, then loads it.
    const entry = new URL('./load-worker.ts', import.meta.url).href;
    const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
    this.worker = new Worker(bootstrap, { eval: true });
    this.worker.on('message', (message: LoadResult | { id: number; error: string }) => {
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      if ('error' in message) waiter.reject(new Error(message.error));
      else waiter.resolve(message);
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the load generator stopped (exit code ${code})`)));
  }

  run(load: TransferLoad | GetLoad | CardLoad): Promise<LoadResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.failure) {
        reject(this.failure);
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...load, id });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
