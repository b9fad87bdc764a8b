/** Logs a tick that threw; the job goes on at its next tick. */
export interface PeriodicJobLog {
  error(object: object, message: string): void;
}

export interface PeriodicJob {
  /** No tick starts after this; resolves once a tick running now has finished. */
  stop(): Promise<void>;
}

/**
 * One background loop of the API process: `work` runs now (the server's start), then
 * `intervalMs` after each run has ended, so two runs of one job never overlap. A run that
 * throws is logged as `<name> failed` and the loop goes on. `work` is given `stopped()` to
 * end a long run early. `stop()` clears the next run and waits for the current one.
 */
export function startPeriodicJob(
  name: string,
  intervalMs: number,
  work: (stopped: () => boolean) => Promise<unknown>,
  log: PeriodicJobLog,
): PeriodicJob {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const isStopped = () => stopped;
  const tick = async () => {
    try {
      await work(isStopped);
    } catch (error) {
      log.error({ err: error, job: name }, `${name} failed; it runs again at its next tick`);
    } finally {
      running = undefined;
      if (!stopped) timer = setTimeout(run, intervalMs);
    }
  };
  const run = () => {
    timer = undefined;
    running = tick();
  };
  run();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
