// When the iterations of an open-model load are meant to start: offsets in ms from the start of the
// run, for a constant rate or for a list of rate steps. Pure (no clock, no timers), so the math is
// tested exactly; the executor (openModelExecutor.ts) turns offsets into intended start times.
//
// Arrivals are evenly spaced (1000/rate ms apart, the first at the step's start), as wrk2 and k6's
// constant-arrival-rate do: a step of `durationMs` at `ratePerSec` holds every offset i·1000/rate
// that falls inside it, i.e. ceil(durationMs·rate/1000) arrivals.

export interface RateStep {
  /** Arrivals per second; 0 is a pause. */
  ratePerSec: number;
  durationMs: number;
}

export interface Arrival {
  /** Intended start, ms after the run's start. */
  atMs: number;
  /** Index of the step it belongs to. */
  step: number;
}

/** Floating point guard: 1000 ms at 3/s holds 3 arrivals, not 4 because 3.0000000004 rounds up. */
const EPSILON = 1e-9;

function checkStep(step: RateStep, index: number): void {
  if (!Number.isFinite(step.ratePerSec) || step.ratePerSec < 0)
    throw new RangeError(`step ${index}: ratePerSec must be a finite number ≥ 0, got ${step.ratePerSec}`);
  if (!Number.isFinite(step.durationMs) || step.durationMs < 0)
    throw new RangeError(`step ${index}: durationMs must be a finite number ≥ 0, got ${step.durationMs}`);
}

/** How many arrivals one step holds. */
export function stepArrivalCount(step: RateStep): number {
  checkStep(step, 0);
  return step.ratePerSec === 0 ? 0 : Math.max(0, Math.ceil((step.durationMs * step.ratePerSec) / 1000 - EPSILON));
}

/** The arrivals of consecutive steps, lazily (a long run never materializes its schedule). */
export function* steppedArrivals(steps: readonly RateStep[]): Generator<Arrival, void, undefined> {
  steps.forEach(checkStep);
  let offset = 0;
  for (const [index, step] of steps.entries()) {
    const count = stepArrivalCount(step);
    const interval = 1000 / step.ratePerSec;
    for (let i = 0; i < count; i++) yield { atMs: offset + i * interval, step: index };
    offset += step.durationMs;
  }
}

/** Arrivals at one constant rate. */
export function constantArrivals(ratePerSec: number, durationMs: number): Generator<Arrival, void, undefined> {
  return steppedArrivals([{ ratePerSec, durationMs }]);
}

/** Total arrivals and span of a list of steps. */
export function scheduleSize(steps: readonly RateStep[]): { arrivals: number; durationMs: number } {
  steps.forEach(checkStep);
  return {
    arrivals: steps.reduce((n, s) => n + stepArrivalCount(s), 0),
    durationMs: steps.reduce((t, s) => t + s.durationMs, 0),
  };
}

/**
 * Rates for a search that steps up until something breaks: `start`, then ×`factor` each step,
 * rounded to whole arrivals per second, strictly increasing, none above `max`.
 */
export function geometricRates(start: number, factor: number, max: number): number[] {
  if (!(Number.isFinite(start) && start > 0)) throw new RangeError(`start must be > 0, got ${start}`);
  if (!(Number.isFinite(factor) && factor > 1)) throw new RangeError(`factor must be > 1, got ${factor}`);
  if (!(Number.isFinite(max) && max >= start)) throw new RangeError(`max must be ≥ start (${start}), got ${max}`);
  const rates: number[] = [];
  for (let exact = start; ; exact *= factor) {
    const previous = rates.at(-1) ?? 0;
    const rate = Math.max(previous + 1, Math.round(exact));
    if (rate > max) break;
    rates.push(rate);
  }
  return rates;
}
