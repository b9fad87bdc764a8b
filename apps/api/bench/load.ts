import { fork, type ChildProcess } from 'node:child_process';
import type { CardLoad, GetLoad, LinkLoad, LoadResult, TransferLoad, WalletLoad } from './load-protocol.ts';

type Pending = { resolve: (result: LoadResult) => void; reject: (error: Error) => void };

/** Drives the load-generator process (load-process.ts, autocannon): one run at a time, answered by id. */
export class LoadGenerator {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | undefined;

  constructor() {
    // A separate Node process, with tsx registered so it can load the TypeScript entry.
    this.child = fork(new URL('./load-process.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (message: LoadResult | { id: number; error: string }) => {
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
    this.child.on('error', fail);
    this.child.on('exit', (code) => fail(new Error(`the load generator stopped (exit code ${code})`)));
  }

  /** The generator's process id (to read its CPU time or profile it from outside). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  run(load: TransferLoad | GetLoad | CardLoad | WalletLoad | LinkLoad): Promise<LoadResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.failure) {
        reject(this.failure);
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.child.send({ ...load, id });
    });
  }

  async close(): Promise<void> {
    this.failure ??= new Error('closed');
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill();
    await exited;
  }
}
