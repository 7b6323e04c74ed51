// A sample as the statistics read it: distinct values in ascending order with how often each was
// seen. An HDR histogram (rig/metrics/latencyHistogram.ts) is already this shape, so a run's kept
// histograms feed the intervals without their raw values, and a resample is a vector of counts.

export interface SampleSet {
  /** Distinct values, ascending. */
  readonly values: Float64Array;
  /** How many times each value was seen (same length as `values`), all > 0. */
  readonly counts: Float64Array;
  /** The sum of `counts`. */
  readonly n: number;
}

/** A sample from raw values (any order). */
export function sampleOf(raw: readonly number[]): SampleSet {
  const sorted = [...raw].filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const values: number[] = [];
  const counts: number[] = [];
  for (const v of sorted) {
    if (values.length > 0 && values[values.length - 1] === v) counts[counts.length - 1]! += 1;
    else {
      values.push(v);
      counts.push(1);
    }
  }
  return { values: Float64Array.from(values), counts: Float64Array.from(counts), n: sorted.length };
}

/** A sample from (value, count) pairs in ascending value order, as a histogram iterates them. */
export function sampleOfCounts(pairs: Iterable<readonly [number, number]>): SampleSet {
  const values: number[] = [];
  const counts: number[] = [];
  let n = 0;
  for (const [v, c] of pairs) {
    if (c <= 0) continue;
    values.push(v);
    counts.push(c);
    n += c;
  }
  return { values: Float64Array.from(values), counts: Float64Array.from(counts), n };
}

/**
 * The value at quantile q (0..1) of the counts over `values`: the smallest value with at least
 * ceil(q·n) values at or below it (the HDR histogram's own rule, so a stat here agrees with the
 * run's table); NaN when empty.
 */
export function quantileOfCounts(values: Float64Array, counts: ArrayLike<number>, n: number, q: number): number {
  if (n <= 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil(q * n));
  let seen = 0;
  for (let i = 0; i < values.length; i++) {
    seen += counts[i]!;
    if (seen >= rank) return values[i]!;
  }
  return values[values.length - 1]!;
}

export function meanOfCounts(values: Float64Array, counts: ArrayLike<number>, n: number): number {
  if (n <= 0) return Number.NaN;
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]! * counts[i]!;
  return sum / n;
}

/**
 * The sample on a log grid of the given relative width (0.01: values within 1 % share a bucket,
 * shown as the bucket's largest, as an HDR bucket is). A bootstrap replicate costs one draw per
 * distinct value, so 2,000 latencies over 20–400 ms drop from ~1,900 distinct values to ~300,
 * and no percentile moves by more than the width — far below any tolerance a gate would set.
 */
export function coarsened(s: SampleSet, width: number): SampleSet {
  const step = Math.log1p(width);
  const values: number[] = [];
  const counts: number[] = [];
  let key = Number.NaN;
  for (let i = 0; i < s.values.length; i++) {
    const v = s.values[i]!;
    const k = v > 0 ? Math.floor(Math.log(v) / step) : -Infinity;
    if (k === key) {
      values[values.length - 1] = v;
      counts[counts.length - 1]! += s.counts[i]!;
    } else {
      values.push(v);
      counts.push(s.counts[i]!);
      key = k;
    }
  }
  return { values: Float64Array.from(values), counts: Float64Array.from(counts), n: s.n };
}
