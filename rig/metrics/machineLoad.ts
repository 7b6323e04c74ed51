// The machine's side of "the rig watches itself" (issue 23): how many threads wanted a CPU (the
// run queue) and how much CPU time the hypervisor took (steal), read from Linux /proc. Anything
// else (macOS, Windows, a container without /proc) reads as undefined: the figures are then
// absent from results.json, never zero and never a crash.
import { readFileSync } from 'node:fs';

/** One reading of /proc/loadavg and /proc/stat. */
export interface MachineSample {
  /** Runnable threads right now, the reader itself left out (/proc/stat procs_running, else /proc/loadavg). */
  runnable?: number;
  /** Cumulative CPU time of all cores in clock ticks: every column of /proc/stat's `cpu` line, guest excepted. */
  totalTicks?: number;
  /** Cumulative steal of all cores in clock ticks (the 8th column). */
  stealTicks?: number;
}

/** The running count of /proc/loadavg (`0.32 1.08 1.88 2/94 18178`: 2 runnable of 94). */
export function runnableFromLoadavg(text: string): number | undefined {
  const m = /^\S+ \S+ \S+ (\d+)\/\d+/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/**
 * procs_running and the aggregate `cpu` line of /proc/stat. The columns are user nice system idle
 * iowait irq softirq steal guest guest_nice; guest time is already inside user and nice, so the
 * total leaves the last two out (as top does).
 */
export function parseProcStat(text: string): { procsRunning?: number; totalTicks?: number; stealTicks?: number } {
  const running = /^procs_running (\d+)$/m.exec(text);
  const cpu = /^cpu +([\d ]+?) *$/m.exec(text);
  const ticks = cpu ? cpu[1]!.trim().split(/ +/).map(Number) : [];
  return {
    ...(running ? { procsRunning: Number(running[1]) } : {}),
    ...(ticks.length >= 8 ? { totalTicks: sum(ticks.slice(0, 8)), stealTicks: ticks[7]! } : {}),
  };
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Reads the machine now; undefined when neither file can be read (not Linux). */
export function readMachine(root = '/proc'): MachineSample | undefined {
  const stat = readOrUndefined(`${root}/stat`);
  const loadavg = stat === undefined ? readOrUndefined(`${root}/loadavg`) : undefined;
  if (stat === undefined && loadavg === undefined) return undefined;
  const parsed = stat === undefined ? {} : parseProcStat(stat);
  const running = parsed.procsRunning ?? (loadavg === undefined ? undefined : runnableFromLoadavg(loadavg));
  // The thread reading the file is runnable as it reads: it is the rig, not a neighbour.
  const runnable = running === undefined ? undefined : Math.max(0, running - 1);
  return {
    ...(runnable !== undefined ? { runnable } : {}),
    ...(parsed.totalTicks !== undefined ? { totalTicks: parsed.totalTicks, stealTicks: parsed.stealTicks! } : {}),
  };
}

/** Steal between two readings, as % of all cores' time; undefined when either lacks the cpu line. */
export function stealPct(before: MachineSample | undefined, after: MachineSample | undefined): number | undefined {
  if (before?.totalTicks === undefined || after?.totalTicks === undefined) return undefined;
  const total = after.totalTicks - before.totalTicks;
  if (total <= 0) return undefined;
  return (100 * Math.max(0, after.stealTicks! - before.stealTicks!)) / total;
}
