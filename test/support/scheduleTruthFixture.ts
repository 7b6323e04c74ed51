// Hand-made schedule truths (rig/metrics/scheduleTruth.ts) for tests, fed through the executor's own
// recorder: start lags by step (ms), which of them waited for a slot, and drops.
import { ScheduleRecorder, type ScheduleTruth } from '../../rig/metrics/scheduleTruth.ts';
import type { EndedLoad } from '../../rig/metrics/scheduleHealth.ts';

export interface StepFeed {
  step?: number;
  /** Start lags, ms, of starts that found a slot free. */
  lags?: number[];
  /** Start lags, ms, of starts that waited for a slot. */
  waited?: number[];
  dropped?: number;
}

export function truthOf(steps: StepFeed[], lateAfterMs = 10): ScheduleTruth {
  const recorder = new ScheduleRecorder(lateAfterMs);
  steps.forEach((s, i) => {
    const step = s.step ?? i;
    const start = (lag: number, waited: boolean) => {
      recorder.due(step);
      recorder.started(step, lag, waited);
    };
    for (const lag of s.lags ?? []) start(lag, false);
    for (const lag of s.waited ?? []) start(lag, true);
    for (let n = 0; n < (s.dropped ?? 0); n++) {
      recorder.due(step);
      recorder.dropped(step);
    }
  });
  return recorder.finish();
}

/** A load as the executor ends it, as far as the scenario's health reads it. */
export function loadOf(steps: StepFeed[], loop = { p50: 0, p99: 1, max: 2 }): EndedLoad {
  const schedule = { ...truthOf(steps), eventLoopDelayMs: loop };
  const lags = steps.flatMap((s) => [...(s.lags ?? []), ...(s.waited ?? [])]);
  return { maxStartLagMs: Math.max(0, ...lags), schedule };
}
