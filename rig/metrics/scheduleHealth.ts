// The open model's schedule truth (scheduleTruth.ts) as a scenario's health keeps it
// (results.json `health.schedule`): its loads' starts, drops and start lag summed, in k6's names
// (`dropped_iterations`, `schedule_lag`), and every step of a load where the generator fell behind,
// with by how much. Several parts (a merge of workers, a run's scenarios) add up exactly.
import { LatencyHistogram, type LatencySummary } from './latencyHistogram.ts';
import { fellBehind, scheduleTotals, type ScheduleTruth } from './scheduleTruth.ts';

/** A step of an open-model load where the generator fell behind (drops, or start lag p99 over its late bound). */
export interface BehindStep {
  /** Which open-model load of the scenario (1-based, in the order run), and how many steps it had. */
  load: number;
  loads: number;
  step: number;
  steps: number;
  scheduled: number;
  started: number;
  dropped_iterations: number;
  late: number;
  /** Of `late`, those that found a slot free: the generator's own lateness, not a wait for a slot. */
  lateWithFreeSlot: number;
  /** The step's start lag p99, ms. */
  lagP99Ms: number;
  /** The load's worst event-loop delay, ms. */
  loopDelayMaxMs: number;
}

export interface ScheduleHealth {
  /** Starts, starts later than their executor's lateAfterMs, and the largest start lag, ms. */
  started: number;
  late: number;
  maxStartLagMs: number;
  /** Arrivals that came due. Absent in results written before schedule truth (so are the fields below). */
  scheduled?: number;
  /** Never started: every slot and the backlog were full (k6's name). */
  dropped_iterations?: number;
  lateWithFreeSlot?: number;
  /** Intended → actual start of every started iteration, µs, with its HDR histogram (k6-style name). */
  schedule_lag?: LatencySummary & { hdr: string };
  /** Where the generator fell behind; absent when it kept up everywhere. */
  behind?: BehindStep[];
}

/** A load as the scenario's health is told of it. */
export interface EndedLoad {
  maxStartLagMs: number;
  schedule: ScheduleTruth;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** The steps of one load where the generator fell behind. */
function behindSteps(load: EndedLoad, index: number): BehindStep[] {
  const t = load.schedule;
  return t.steps
    .filter((s) => fellBehind(s, t.lateAfterMs))
    .map((s) => ({
      load: index + 1,
      loads: 0, // set when the scenario's loads are known
      step: s.step,
      steps: t.steps.length,
      scheduled: s.scheduled,
      started: s.started,
      dropped_iterations: s.dropped,
      late: s.late,
      lateWithFreeSlot: s.lateWithFreeSlot,
      lagP99Ms: round1(s.startLag.percentileMs(99)),
      loopDelayMaxMs: t.eventLoopDelayMs.max,
    }));
}

/** The open-model loads of a scenario (or of a span of it), as `health.schedule`; undefined when none ran. */
export function scheduleHealthOf(loads: EndedLoad[]): ScheduleHealth | undefined {
  if (loads.length === 0) return undefined;
  const lag = new LatencyHistogram();
  const sum = { scheduled: 0, started: 0, dropped: 0, late: 0, lateWithFreeSlot: 0 };
  for (const load of loads) {
    lag.add(load.schedule.startLag);
    const t = scheduleTotals(load.schedule);
    for (const k of Object.keys(sum) as Array<keyof typeof sum>) sum[k] += t[k];
  }
  const behind = loads.flatMap(behindSteps).map((b) => ({ ...b, loads: loads.length }));
  return {
    started: sum.started,
    late: sum.late,
    maxStartLagMs: round1(Math.max(...loads.map((l) => l.maxStartLagMs))),
    scheduled: sum.scheduled,
    dropped_iterations: sum.dropped,
    lateWithFreeSlot: sum.lateWithFreeSlot,
    schedule_lag: { ...lag.summary(), hdr: lag.encode() },
    ...(behind.length ? { behind } : {}),
  };
}

/** Several parts' schedules as one: counts summed, lags added exactly; truth fields only when every part has them. */
export function mergeScheduleHealth(parts: ScheduleHealth[]): ScheduleHealth | undefined {
  if (parts.length === 0) return undefined;
  const sum = (f: (s: ScheduleHealth) => number | undefined) => parts.reduce((n, s) => n + (f(s) ?? 0), 0);
  const merged: ScheduleHealth = {
    started: sum((s) => s.started),
    late: sum((s) => s.late),
    maxStartLagMs: Math.max(...parts.map((s) => s.maxStartLagMs)),
  };
  if (!parts.every((s) => s.scheduled !== undefined && s.schedule_lag)) return merged;
  const lag = new LatencyHistogram();
  for (const s of parts) lag.add(LatencyHistogram.decode(s.schedule_lag!.hdr));
  const behind = parts.flatMap((s) => s.behind ?? []);
  return {
    ...merged,
    scheduled: sum((s) => s.scheduled),
    dropped_iterations: sum((s) => s.dropped_iterations),
    lateWithFreeSlot: sum((s) => s.lateWithFreeSlot),
    schedule_lag: { ...lag.summary(), hdr: lag.encode() },
    ...(behind.length ? { behind } : {}),
  };
}
