import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPeriodicJob } from './periodic-job.ts';

function recordingLog() {
  const errors: { object: object; message: string }[] = [];
  return { errors, error: (object: object, message: string) => errors.push({ object, message }) };
}

/** A promise and the function that settles it, for a run that ends when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('startPeriodicJob', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs at once, then the interval after each run has ended', async () => {
    const log = recordingLog();
    let runs = 0;
    const job = startPeriodicJob('counter', 1000, async () => void (runs += 1), log);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(2);
    await vi.advanceTimersByTimeAsync(3000);
    expect(runs).toBe(5);
    await job.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toBe(5);
    expect(log.errors).toEqual([]);
  });

  it('never overlaps two runs: the interval counts from the end of a slow run', async () => {
    const slow = gate();
    let runs = 0;
    const job = startPeriodicJob('slow', 100, async () => {
      runs += 1;
      if (runs === 1) await slow.opened;
    }, recordingLog());
    await vi.advanceTimersByTimeAsync(500);
    expect(runs).toBe(1);
    slow.open();
    await vi.advanceTimersByTimeAsync(99);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(2);
    await job.stop();
  });

  it('logs a run that throws with its name and runs again at the next tick', async () => {
    const log = recordingLog();
    const failure = new Error('database unavailable');
    let runs = 0;
    const job = startPeriodicJob('refund recovery sweep', 1000, async () => {
      runs += 1;
      if (runs === 1) throw failure;
    }, log);
    await vi.advanceTimersByTimeAsync(0);
    expect(log.errors).toEqual([{ object: { err: failure, job: 'refund recovery sweep' }, message: 'refund recovery sweep failed; it runs again at its next tick' }]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(2);
    expect(log.errors).toHaveLength(1);
    await job.stop();
  });

  it('stop() waits for the run in progress, tells it it is stopped, and starts no other', async () => {
    const slow = gate();
    const seen: boolean[] = [];
    let finished = false;
    const job = startPeriodicJob('mails', 100, async (stopped) => {
      seen.push(stopped());
      await slow.opened;
      seen.push(stopped());
      finished = true;
    }, recordingLog());
    let stopResolved = false;
    const stopping = job.stop().then(() => (stopResolved = true));
    await vi.advanceTimersByTimeAsync(50);
    expect(stopResolved).toBe(false);
    slow.open();
    await stopping;
    expect(finished).toBe(true);
    expect(seen).toEqual([false, true]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(seen).toHaveLength(2);
  });

  it('stop() between runs resolves at once and clears the next run', async () => {
    let runs = 0;
    const job = startPeriodicJob('idle', 1000, async () => void (runs += 1), recordingLog());
    await vi.advanceTimersByTimeAsync(10);
    await job.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(runs).toBe(1);
  });
});
