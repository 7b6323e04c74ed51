// How sure one run's percentile is: the distribution-free confidence interval of a quantile from
// order statistics (the rank of the q-quantile among n values is binomial(n, q)), so no shape of the
// latency distribution is assumed. This is the one rule for "enough samples": a percentile is
// carried by its sample when the interval is bounded on the side a judgement needs, and a judgement
// against a bound holds only when the whole interval lies on one side of it.
import { quantileOfCounts, type SampleSet } from './sampleSet.ts';

export const DEFAULT_CONFIDENCE = 0.95;

export interface QuantileInterval {
  q: number;
  n: number;
  estimate: number;
  /** The lower end, or null when the sample cannot bound the quantile from below (too few values). */
  lo: number | null;
  /** The upper end, or null when the sample cannot bound it from above (p99 needs about 300 values). */
  hi: number | null;
  confidence: number;
}

/** Normal quantile for a two-sided confidence (0.95 → 1.96), by Acklam's rational approximation. */
export function zFor(confidence: number): number {
  const p = 1 - (1 - confidence) / 2;
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (r: number) =>
    (((((c[0]! * r + c[1]!) * r + c[2]!) * r + c[3]!) * r + c[4]!) * r + c[5]!) /
    ((((d[0]! * r + d[1]!) * r + d[2]!) * r + d[3]!) * r + 1);
  if (p > 0.97575) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

/**
 * 1-based ranks [l, u] of the order statistics that bracket the q-quantile with at least the given
 * confidence; l < 1 or u > n mean the sample cannot bound that side. Exact binomial sums up to
 * n = 2000, the normal approximation beyond (where they agree to a rank).
 */
export function quantileRanks(n: number, q: number, confidence = DEFAULT_CONFIDENCE): { l: number; u: number } {
  const alpha = (1 - confidence) / 2;
  if (n > 2000) {
    const z = zFor(confidence);
    const sd = Math.sqrt(n * q * (1 - q));
    return { l: Math.floor(n * q - z * sd), u: Math.ceil(n * q + z * sd) + 1 };
  }
  // pmf of binomial(n, q) in log space, then the largest l with P(B < l) <= alpha and the
  // smallest u with P(B >= u) <= alpha.
  const logPmf: number[] = [];
  let logC = 0;
  for (let k = 0; k <= n; k++) {
    if (k > 0) logC += Math.log(n - k + 1) - Math.log(k);
    logPmf.push(
      logC +
        (q > 0 ? k * Math.log(q) : k === 0 ? 0 : -Infinity) +
        (q < 1 ? (n - k) * Math.log(1 - q) : k === n ? 0 : -Infinity),
    );
  }
  const pmf = logPmf.map(Math.exp);
  let below = 0;
  let l = 0;
  while (l <= n && below + pmf[l]! <= alpha) below += pmf[l++]!;
  let above = 0;
  let u = n + 1;
  while (u - 1 >= 0 && above + pmf[u - 1]! <= alpha) above += pmf[--u]!;
  return { l, u };
}

/** The value of the r-th smallest (1-based) of the sample. */
function orderStatistic(s: SampleSet, r: number): number {
  let seen = 0;
  for (let i = 0; i < s.values.length; i++) {
    seen += s.counts[i]!;
    if (seen >= r) return s.values[i]!;
  }
  return s.values[s.values.length - 1]!;
}

/** The confidence interval of the q-quantile (0..1) of one sample. */
export function quantileInterval(s: SampleSet, q: number, confidence = DEFAULT_CONFIDENCE): QuantileInterval {
  const estimate = quantileOfCounts(s.values, s.counts, s.n, q);
  if (s.n === 0) return { q, n: 0, estimate, lo: null, hi: null, confidence };
  const { l, u } = quantileRanks(s.n, q, confidence);
  return {
    q,
    n: s.n,
    estimate,
    lo: l >= 1 ? orderStatistic(s, l) : null,
    hi: u <= s.n ? orderStatistic(s, u) : null,
    confidence,
  };
}

/** The smallest n whose q-quantile interval is bounded above (at 95 %: p50 6, p95 72, p99 368). */
export function samplesToBound(q: number, confidence = DEFAULT_CONFIDENCE): number {
  let n = 1;
  while (quantileRanks(n, q, confidence).u > n) n = n < 64 ? n + 1 : Math.ceil(n * 1.02);
  // back off to the exact smallest n once past it
  while (n > 1 && quantileRanks(n - 1, q, confidence).u <= n - 1) n--;
  return n;
}

export type BoundJudgement = 'holds' | 'broken' | 'not judged';

/**
 * A percentile judged against a bound (`p99 < 1000`): holds when the whole interval is on the good
 * side, broken when the whole interval is on the bad side, otherwise not judged: the sample
 * cannot say, and saying "held" or "broken" would be a guess.
 */
export function judgeAgainstBound(
  interval: QuantileInterval,
  op: '<' | '<=' | '>' | '>=',
  bound: number,
): BoundJudgement {
  const good = (v: number) => (op === '<' ? v < bound : op === '<=' ? v <= bound : op === '>' ? v > bound : v >= bound);
  const { lo, hi } = interval;
  const upperSide = op === '<' || op === '<=';
  // For an upper bound the decisive end for "holds" is hi, for "broken" lo; mirrored for a lower bound.
  const forHolds = upperSide ? hi : lo;
  const forBroken = upperSide ? lo : hi;
  if (forHolds !== null && good(forHolds)) return 'holds';
  if (forBroken !== null && !good(forBroken)) return 'broken';
  return 'not judged';
}
