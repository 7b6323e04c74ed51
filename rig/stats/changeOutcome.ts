// What an interval on current / baseline says against a practical-significance threshold (the
// tolerance): a change counts only when the whole interval lies beyond the threshold, "no change"
// only when the whole interval lies inside ±threshold (equivalence, as a TOST does), and anything
// else is inconclusive — never a pass. The threshold is relative: +20 % means a ratio of 1.2 is the
// smallest change that matters, and its mirror 1 / 1.2 the smallest improvement.

export type ChangeOutcome = 'regression' | 'improvement' | 'no change' | 'inconclusive';

/** Which way is worse for the metric: latencies get worse upwards, throughput downwards. */
export type WorseWhen = 'higher' | 'lower';

export interface ChangeThreshold {
  /** The smallest relative change that matters, as a fraction > 0 (0.2 = 20 %). */
  fraction: number;
  worse: WorseWhen;
}

export function changeOutcome(interval: { lo: number; hi: number }, threshold: ChangeThreshold): ChangeOutcome {
  const { lo, hi } = interval;
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return 'inconclusive';
  const up = 1 + threshold.fraction;
  const down = 1 / up;
  const worseUp = threshold.worse === 'higher';
  if (lo > up) return worseUp ? 'regression' : 'improvement';
  if (hi < down) return worseUp ? 'improvement' : 'regression';
  if (lo >= down && hi <= up) return 'no change';
  return 'inconclusive';
}
