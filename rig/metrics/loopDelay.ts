// How late the event loop ran a timer: perf_hooks' monitorEventLoopDelay asks for a timer every
// RESOLUTION_MS and records when it fired; what is beyond the resolution is the delay. One reading
// for the scenario's health (rigHealthMonitor.ts) and the open model's schedule (scheduleTruth.ts).
import { monitorEventLoopDelay, type IntervalHistogram, type RecordableHistogram } from 'node:perf_hooks';

/** The timer the monitors ask for, ms; what they report beyond it is the delay. */
export const LOOP_RESOLUTION_MS = 10;

/** Event-loop delay, ms beyond the resolution, one decimal. */
export interface LoopDelayMs {
  p50: number;
  p99: number;
  max: number;
}

/** A monitor, not yet enabled. */
export function loopMonitor(): ReturnType<typeof monitorEventLoopDelay> {
  return monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
}

/** The delay at percentile `p` (100: the largest), ms beyond the resolution; 0 before any sample. */
export function loopDelayMs(h: IntervalHistogram | RecordableHistogram, p: number): number {
  return h.count === 0 ? 0 : Math.max(0, (p === 100 ? h.max : h.percentile(p)) / 1e6 - LOOP_RESOLUTION_MS);
}

export function loopDelaySummary(h: IntervalHistogram): LoopDelayMs {
  return { p50: round1(loopDelayMs(h, 50)), p99: round1(loopDelayMs(h, 99)), max: round1(loopDelayMs(h, 100)) };
}

/** The worse of each figure: a stall is per thread, so merged workers keep the worst one's. */
export function worstLoopDelay(list: LoopDelayMs[]): LoopDelayMs {
  const worst = (f: (d: LoopDelayMs) => number) => Math.max(0, ...list.map(f));
  return { p50: worst((d) => d.p50), p99: worst((d) => d.p99), max: worst((d) => d.max) };
}

export function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
