// The search for the open model's sustainable rate, shared by the generator benchmarks
// (bench/generator.ts, bench/generatorWorkers.ts): the rate steps up from 20 % of a baseline in 10 %
// steps (then one 5 % step back; below 20 %, halving to 2 %) until a step falls behind schedule:
// more than 1 % of its iterations start over 10 ms late, its p99 from the intended start passes
// 10 ms (a queue is building), or any iteration is dropped, fails or is left unfinished. A step that
// falls behind is tried up to `attempts` times (one stray pause of a neighbour should not end the
// search). The last step kept is the sustainable rate. What a step runs is the caller's.
import type { OpenModelResult } from '../rig/load/openModelExecutor.ts';
import { scheduleTotals } from '../rig/metrics/scheduleTruth.ts';

const LATE_SHARE = 0.01;
const MAX_P99_MS = 10;

export interface StepOutcome {
  result: OpenModelResult;
  /** CPU of this process per succeeded request (µs). */
  cpuUs: number;
  /** The longest event-loop stall seen during the step (ms). */
  stallMs: number;
  /** More to print on the step's line (e.g. its GC pauses). */
  note?: string;
}

/** Runs one step of the search at `rate` arrivals/s. */
export type RateStep = (rate: number) => Promise<StepOutcome>;

export interface RateSearch {
  /** Names the peer in the log lines. */
  label: string;
  step: RateStep;
  /** How many times a step that falls behind is tried. */
  attempts: number;
  /** Told the CPU per request of every rate tried (its last attempt). */
  onCpu?: (cpuUs: number) => void;
}

/** Whether a step kept its schedule (the criteria above). */
export function keptSchedule(result: OpenModelResult): boolean {
  return (
    result.dropped === 0 &&
    result.failed === 0 &&
    result.unfinished === 0 &&
    result.late <= result.scheduled * LATE_SHARE &&
    result.latency.percentileMs(99) <= MAX_P99_MS
  );
}

export async function tryRate(
  search: RateSearch,
  share: number,
  baseline: number,
): Promise<{ rate: number; kept: boolean }> {
  const rate = Math.round(baseline * share);
  let attempt = await search.step(rate);
  let kept = keptSchedule(attempt.result);
  for (let retry = 1; retry < search.attempts && !kept; retry++) {
    attempt = await search.step(rate);
    kept = keptSchedule(attempt.result);
  }
  const { result, cpuUs, stallMs, note } = attempt;
  search.onCpu?.(cpuUs);
  // Which side a late start is on: with a slot free it is the generator's own delay; the rest
  // waited for one of the slots in flight (the target, or the exchanges' own cost, not finishing).
  const freeSlot = scheduleTotals(result.schedule).lateWithFreeSlot;
  const late = `${result.late} late (${freeSlot} with a slot free, peak ${result.peakInFlight} in flight)`;
  const counts = `${result.succeeded}/${result.scheduled} ok, ${late}`;
  const lag = `max lag ${result.maxStartLagMs.toFixed(1)} ms, ${result.dropped} dropped`;
  const p99 = `p99 ${result.latency.percentileMs(99).toFixed(2)} ms from intended start`;
  const stall = `longest event-loop stall ${stallMs.toFixed(0)} ms${note ? `, ${note}` : ''}`;
  const costs = `${cpuUs.toFixed(0)} µs CPU/request, ${stall}`;
  const outcome = kept ? 'kept its schedule' : 'fell behind';
  console.log(
    `  ${search.label} @ ${rate}/s (${(share * 100).toFixed(0)} %): ${counts}, ${lag}, ${p99}, ${costs} — ${outcome}`,
  );
  if (!kept && result.firstFailure)
    console.log(`    failures: ${JSON.stringify(result.failures)}, first: ${result.firstFailure}`);
  return { rate, kept };
}

/** The highest rate kept, in shares of `baseline` (0 when not even 2 % kept). */
export async function sustainable(search: RateSearch, baseline: number): Promise<number> {
  let best = 0;
  let share = 0.2;
  for (; share <= 2 + 1e-9; share += 0.1) {
    const { rate, kept } = await tryRate(search, share, baseline);
    if (!kept) break;
    best = rate;
  }
  if (share <= 2 + 1e-9) {
    const { rate, kept } = await tryRate(search, share - 0.05, baseline);
    if (kept) best = rate;
  }
  // Not even the first step kept: halve down to 2 % so the row says how far off it is, not just 0.
  for (let low = 0.075; best === 0 && low >= 0.02 - 1e-9; low /= 2) {
    const { rate, kept } = await tryRate(search, low, baseline);
    if (kept) best = rate;
  }
  return best;
}
