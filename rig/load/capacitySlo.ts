// When one step of a capacity search breaks its SLO. One rule for the capacity scenario, which
// judges each step as it runs, and for `merge`, which judges the steps of N workers again on their
// combined counts and histograms (a distributed run's capacity is never the sum of the workers').
import type { SeriesPoint } from '../results/runResult.ts';
import { millis } from '../figures.ts';

export interface CapacitySlo {
  /** The round trip's p95 bound, from its intended start (ms). */
  sloP95Ms: number;
  /** Failed or unfinished round trips allowed, % of the step's arrivals. */
  sloMaxErrorPct: number;
  /** Round trips the rig had no slot for, % of the step's arrivals. */
  sloMaxDroppedPct: number;
}

export interface StepOutcome {
  /** Arrivals offered in the step. */
  scheduled: number;
  /** Failed or unfinished round trips. */
  errors: number;
  dropped: number;
  /** Round trips whose latency was recorded. */
  completed: number;
  p95Ms: number;
  /** What the errors were, for the reason (e.g. "3 timeout, 1 unfinished; first: ..."). */
  errorDetail?: string;
}

/** Why a step breaks the SLO; empty when it holds. */
export function sloBreaches(step: StepOutcome, slo: CapacitySlo): string[] {
  const reasons: string[] = [];
  if (step.completed === 0) reasons.push('no round trip completed');
  else if (step.p95Ms > slo.sloP95Ms) reasons.push(`p95 ${millis(step.p95Ms)} ms > ${slo.sloP95Ms} ms`);
  if (step.errors > (step.scheduled * slo.sloMaxErrorPct) / 100) {
    const detail = step.errorDetail ? `: ${step.errorDetail}` : '';
    reasons.push(`${step.errors} of ${step.scheduled} failed (> ${slo.sloMaxErrorPct} %${detail})`);
  }
  if (step.dropped > (step.scheduled * slo.sloMaxDroppedPct) / 100)
    reasons.push(`${step.dropped} of ${step.scheduled} dropped (> ${slo.sloMaxDroppedPct} %)`);
  return reasons;
}

/** The SLO in words, as the capacity check's name carries it. */
export function sloText(slo: CapacitySlo): string {
  return `p95 ≤ ${slo.sloP95Ms} ms, errors ≤ ${slo.sloMaxErrorPct} %, dropped ≤ ${slo.sloMaxDroppedPct} %`;
}

/** The name of the capacity scenario's one check, which merge judges again for a shard set. */
export function capacityCheckName(slo: CapacitySlo): string {
  return `a sustainable rate exists under the SLO (${sloText(slo)})`;
}

/** The curve capacity plots, one point per step; merge combines a shard set's by rate. */
export const CAPACITY_SERIES = 'round_trip_p95_ms_vs_rate_per_s';

/**
 * The knee of a capacity curve: the first step that broke the SLO by rate (not by the order run:
 * a bisection probes between the ramp's steps) and the highest that held below it, with the
 * points sorted by rate. Every reader of the curve takes the capacity from here.
 */
export function kneeOf(points: readonly SeriesPoint[]): {
  sorted: SeriesPoint[];
  held?: SeriesPoint;
  broke?: SeriesPoint;
} {
  const sorted = [...points].sort((a, b) => a.x - b.x);
  const broke = sorted.find((p) => p.sustainable === false);
  const below = sorted.filter((p) => p.sustainable !== false && (broke === undefined || p.x < broke.x));
  const held = below.at(-1);
  return { sorted, ...(held ? { held } : {}), ...(broke ? { broke } : {}) };
}
