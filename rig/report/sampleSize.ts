// How many samples a percentile needs before a report shows it: one rule for every report (the
// HTML report, the terminal summary), so a p99 hidden in one is not printed in the other.
//
// The rule: a percentile p is shown only when at least one sample lies beyond it, i.e.
// n ≥ 100 / (100 − p): p50 needs 2 samples, p90 10, p95 20, p99 100, p99.9 1,000. Below that the
// "percentile" is the largest sample (p95 = p99 = max at n = 10) and says nothing the max does not.
// The max, min, mean and count are always shown.

/** The fewest samples that carry percentile `p` (0 < p < 100): 100 / (100 − p), rounded up. */
export function minSamplesFor(p: number): number {
  if (!(p > 0 && p < 100)) return p <= 0 ? 1 : Infinity;
  return Math.ceil(100 / (100 - p) - 1e-9);
}

/** Whether percentile `p` of `n` samples is worth showing (see the rule above). */
export function percentileShown(n: number, p: number): boolean {
  return n >= minSamplesFor(p);
}

/** The rule in one line, for a report's footnote. */
export const PERCENTILE_RULE =
  'a percentile is shown only with at least one sample beyond it: p50 needs n ≥ 2, p90 n ≥ 10, p95 n ≥ 20, p99 n ≥ 100';
