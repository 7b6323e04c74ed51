// One row of a comparison, as the Markdown, the terminal and report.html show it, and the words
// its figures are written in.
import type { ChangeOutcome } from '../../stats/changeOutcome.ts';
import type { RatioInterval } from '../../stats/ratioInterval.ts';
import { NO_FIGURE, ratioWithin } from '../../figures.ts';

/**
 * An interval's outcome (changeOutcome.ts); `ok`: held to its tolerance without an interval (a
 * counter with one run a side, a verdict that did not get worse); `not compared`: nothing to judge
 * (not recorded, no samples, no declared meaning).
 */
export type RowResult = ChangeOutcome | 'ok' | 'not compared';

export interface CompareRow {
  scenario: string;
  /** e.g. `resume_latency p95`, `answers_per_s`, `verdict`. */
  measure: string;
  baseline: string;
  current: string;
  /** current / baseline as measured. */
  ratio: number | null;
  /** The confidence interval on the ratio, when the row was judged by one. */
  interval?: RatioInterval;
  allowed: string;
  /** The tolerance `allowed` shows, as a signed fraction (Tolerances); absent when none applies. */
  tolerance?: number;
  result: RowResult;
  note?: string;
}

export interface IntervalSettings {
  /** Of every interval (default 0.95). */
  confidence: number;
  /** Interleaved A/B rounds: run i of the baseline with run i of the current. */
  paired: boolean;
  /**
   * The runs come from a dedicated, quiet machine: one run a side is judged by its own samples.
   * Off by default: on a shared machine the run-to-run spread is larger than a run's own, and one
   * run a side is not judged (compareLatency.ts ONE_RUN_A_SIDE).
   */
  quietMachine?: boolean;
}

/** `×1.42 [1.21, 1.70]`, or the bare ratio without an interval. */
export function ratioText(r: Pick<CompareRow, 'ratio' | 'interval'>): string {
  if (r.ratio === null) return NO_FIGURE;
  return ratioWithin(r.ratio, r.interval?.lo ?? NaN, r.interval?.hi ?? NaN);
}

/** Rows whose outcome the gate could not decide: inconclusive or not compared (exit 3). */
export const undecided = (r: CompareRow) => r.result === 'inconclusive' || r.result === 'not compared';
