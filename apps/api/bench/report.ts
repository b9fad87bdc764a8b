/** Percentiles, rows and the markdown table the bench prints. */
import { readFileSync } from 'node:fs';

export interface Row {
  workload: string;
  clients: number | string;
  /** Successful operations. */
  count: number;
  seconds: number;
  p50: number;
  p99: number;
  /** Unsuccessful operations by kind. */
  failures: Record<string, number>;
  /** Free text for the last column (e.g. "41% of bare SQL"). */
  note?: string;
  /** Share of the time the main thread's event loop was busy (the server, or the bare-SQL client). */
  mainLoopBusy?: number;
  /** Machine-wide CPU use over the phase (both cores), and the share stolen by the hypervisor. */
  cpu?: CpuShare;
  /** The bench process's (the server's) largest resident set size during the phase, MiB. */
  rssMiB?: number;
}

export interface CpuShare {
  busy: number;
  steal: number;
}

type CpuTicks = { busy: number; steal: number; total: number };

/** Machine-wide CPU tick counters from /proc/stat (Linux); undefined elsewhere. */
export function readCpuTicks(): CpuTicks | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const [, user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
    if (steal === undefined || Number.isNaN(steal)) return undefined;
    const busy = (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0);
    return { busy, steal, total: busy + steal + (idle ?? 0) + (iowait ?? 0) };
  } catch {
    return undefined;
  }
}

export function cpuShare(before: CpuTicks | undefined, after: CpuTicks | undefined): CpuShare | undefined {
  if (!before || !after || after.total <= before.total) return undefined;
  const total = after.total - before.total;
  return { busy: (after.busy - before.busy) / total, steal: (after.steal - before.steal) / total };
}

/** Nearest-rank percentile of an unsorted list of milliseconds; NaN when empty. */
export function percentile(values: ArrayLike<number>, p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function rowFrom(workload: string, clients: number | string, latenciesMs: ArrayLike<number>, elapsedMs: number, failures: Record<string, number>): Row {
  return {
    workload,
    clients,
    count: latenciesMs.length,
    seconds: elapsedMs / 1000,
    p50: percentile(latenciesMs, 50),
    p99: percentile(latenciesMs, 99),
    failures,
  };
}

export function rate(row: Row): number {
  return row.seconds > 0 ? row.count / row.seconds : 0;
}

function ms(value: number): string {
  if (Number.isNaN(value)) return '–';
  return value < 10 ? value.toFixed(1) : value.toFixed(0);
}

/** How much of the main thread one operation took: busy share × duration ÷ operations. */
export function threadMsPerOp(row: Row): string {
  if (row.mainLoopBusy === undefined || row.count === 0) return '–';
  return ((row.mainLoopBusy * row.seconds * 1000) / row.count).toFixed(2);
}

function share(value: number | undefined): string {
  return value === undefined ? '–' : `${Math.round(value * 100)}%`;
}

function failuresText(failures: Record<string, number>): string {
  const entries = Object.entries(failures);
  return entries.length ? entries.map(([kind, n]) => `${n}× ${kind}`).join(', ') : '0';
}

export function table(rows: Row[], unit = 'ops/s'): string {
  const lines = [
    `| workload | clients | ok | ${unit} | p50 ms | p99 ms | failed | main thread busy | main-thread ms per op | CPU busy (steal) | server RSS MiB | note |`,
    '|---|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|---|',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.workload} | ${row.clients} | ${row.count} | ${rate(row).toFixed(0)} | ${ms(row.p50)} | ${ms(row.p99)} | ${failuresText(row.failures)} | ${share(row.mainLoopBusy)} | ${threadMsPerOp(row)} | ${row.cpu ? `${share(row.cpu.busy)} (${share(row.cpu.steal)})` : '–'} | ${row.rssMiB === undefined ? '–' : row.rssMiB.toFixed(0)} | ${row.note ?? ''} |`,
    );
  }
  return lines.join('\n');
}
