// How many samples a percentile needs before a report shows it: one rule for every report (the
// HTML report, the terminal summary) and for every gate (thresholds, compare): a percentile is
// carried by its sample when its 95 % confidence interval (order statistics, no distribution
// assumed: rig/stats/quantileInterval.ts) is bounded above. p50 needs 6 samples, p90 36, p95 72,
// p99 368, p99.9 5,661. Below that its interval reaches past the largest sample: the figure is
// one of the largest few values, shown as a dash with the rule in a footnote, and a threshold on it
// is not judged. The max, min, mean and count are always shown.
import { samplesToBound } from '../stats/quantileInterval.ts';

/** The fewest samples that carry percentile `p` (0 < p < 100): its 95 % interval bounded above. */
export function minSamplesFor(p: number): number {
  if (!(p > 0 && p < 100)) return p <= 0 ? 1 : Infinity;
  let n = known.get(p);
  if (n === undefined) known.set(p, (n = samplesToBound(p / 100)));
  return n;
}
/** samplesToBound walks the binomial: once per percentile a process asks about. */
const known = new Map<number, number>();

/** Whether percentile `p` of `n` samples is worth showing (see the rule above). */
export function percentileShown(n: number, p: number): boolean {
  return n >= minSamplesFor(p);
}

/** The rule in one line, for a report's footnote. */
export const PERCENTILE_RULE =
  'a percentile is shown only when n bounds its 95 % interval: p50 needs n ≥ 6, p90 n ≥ 36, p95 n ≥ 72, p99 n ≥ 368';
