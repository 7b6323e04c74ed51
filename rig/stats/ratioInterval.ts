// How sure a comparison is: a bootstrap confidence interval on current / baseline for one statistic
// (a percentile or the mean), from the samples both sides kept. A side made of several runs (or A/B
// rounds) is resampled in two stages, runs first and values within each run after (the hierarchical
// bootstrap), so the spread between runs — which on a shared machine is larger than the spread
// within one — widens the interval instead of being mistaken for a change. When both sides have
// the same number of runs and `paired` is set (interleaved A/B rounds), run i of one side is drawn
// with run i of the other, so what hit both alike in a round cancels out.
import { mulberry32, type Random } from './random.ts';
import { meanOfCounts, quantileOfCounts, type SampleSet } from './sampleSet.ts';
import { DEFAULT_CONFIDENCE } from './quantileInterval.ts';

/** A statistic of a sample: `p50`..`p99.9` (any `pN`), or `mean`. */
export type StatName = string;

export interface RatioInterval {
  /** stat(current) / stat(baseline) on the samples as measured. */
  estimate: number;
  lo: number;
  hi: number;
  confidence: number;
  /** Bootstrap replicates drawn (those where the baseline's stat was 0 are left out). */
  replicates: number;
  /** How the sides were resampled. */
  method: 'values' | 'runs and values' | 'paired runs and values';
}

export interface RatioOptions {
  confidence?: number;
  replicates?: number;
  seed?: number;
  paired?: boolean;
}

const QUANTILE = /^p(\d+(?:\.\d+)?)$/;

/** The function that reads a stat from counts over a sample's values; throws on an unknown name. */
export function statReader(stat: StatName): (values: Float64Array, counts: ArrayLike<number>, n: number) => number {
  if (stat === 'mean') return meanOfCounts;
  const m = QUANTILE.exec(stat);
  if (!m || Number(m[1]) <= 0 || Number(m[1]) >= 100) throw new Error(`unknown statistic "${stat}"`);
  const q = Number(m[1]) / 100;
  return (values, counts, n) => quantileOfCounts(values, counts, n, q);
}

/** The stat of the union of a side's runs. */
export function statOf(side: readonly SampleSet[], stat: StatName): number {
  const read = statReader(stat);
  const merged = mergeCounts(
    side,
    side.map((s) => s.counts),
  );
  return read(merged.values, merged.counts, merged.n);
}

/** A side's runs with the given counts per run, as one sample over the union of their values. */
function mergeCounts(side: readonly SampleSet[], counts: readonly ArrayLike<number>[]): SampleSet {
  if (side.length === 1) return { values: side[0]!.values, counts: Float64Array.from(counts[0]!), n: sum(counts[0]!) };
  const byValue = new Map<number, number>();
  side.forEach((s, r) => {
    const c = counts[r]!;
    for (let i = 0; i < s.values.length; i++)
      if (c[i]! > 0) byValue.set(s.values[i]!, (byValue.get(s.values[i]!) ?? 0) + c[i]!);
  });
  const entries = [...byValue.entries()].sort((a, b) => a[0] - b[0]);
  return {
    values: Float64Array.from(entries.map((e) => e[0])),
    counts: Float64Array.from(entries.map((e) => e[1])),
    n: entries.reduce((t, e) => t + e[1], 0),
  };
}

function sum(xs: ArrayLike<number>): number {
  let t = 0;
  for (let i = 0; i < xs.length; i++) t += xs[i]!;
  return t;
}

/** Cumulative counts, for drawing a value with probability count / n by binary search. */
function cumulative(s: SampleSet): Float64Array {
  const cum = new Float64Array(s.counts.length);
  let t = 0;
  for (let i = 0; i < s.counts.length; i++) cum[i] = t += s.counts[i]!;
  return cum;
}

function drawIndex(cum: Float64Array, u: number): number {
  const target = u * cum[cum.length - 1]!;
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cum[mid]! > target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** n draws with replacement from one sample, as counts over its values. */
function resampleCounts(s: SampleSet, cum: Float64Array, random: Random): Float64Array {
  const counts = new Float64Array(s.values.length);
  for (let k = 0; k < s.n; k++) counts[drawIndex(cum, random())]! += 1;
  return counts;
}

class SideResampler {
  private readonly cums: Float64Array[];
  constructor(readonly side: readonly SampleSet[]) {
    this.cums = side.map(cumulative);
  }
  /** One bootstrap replicate of the side given which runs were drawn. */
  replicate(runs: readonly number[], random: Random): SampleSet {
    const picked = runs.map((r) => this.side[r]!);
    const counts = runs.map((r) => resampleCounts(this.side[r]!, this.cums[r]!, random));
    return mergeCounts(picked, counts);
  }
}

function percentileOf(sorted: readonly number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.round(p * (sorted.length - 1))));
  return sorted[i]!;
}

/**
 * The interval of stat(current) / stat(baseline). Each side is one or more runs' samples. Deterministic
 * for a seed. Throws when a side is empty; NaN bounds when the baseline's stat is 0 in every replicate.
 */
export function ratioInterval(
  baseline: readonly SampleSet[],
  current: readonly SampleSet[],
  stat: StatName,
  options: RatioOptions = {},
): RatioInterval {
  const base = baseline.filter((s) => s.n > 0);
  const cur = current.filter((s) => s.n > 0);
  if (base.length === 0 || cur.length === 0) throw new Error('ratioInterval: a side has no samples');
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  const replicates = options.replicates ?? 2000;
  const random = mulberry32(options.seed ?? 1);
  const read = statReader(stat);
  const paired = options.paired === true && base.length === cur.length && base.length > 1;
  const multi = base.length > 1 || cur.length > 1;
  const b = new SideResampler(base);
  const c = new SideResampler(cur);
  const pickRuns = (k: number) => Array.from({ length: k }, () => Math.floor(random() * k));
  const everyRun = (k: number) => Array.from({ length: k }, (_, i) => i);
  const ratios: number[] = [];
  for (let i = 0; i < replicates; i++) {
    const bRuns = multi ? pickRuns(base.length) : everyRun(1);
    const cRuns = paired ? bRuns : multi ? pickRuns(cur.length) : everyRun(1);
    const bs = b.replicate(bRuns, random);
    const cs = c.replicate(cRuns, random);
    const denominator = read(bs.values, bs.counts, bs.n);
    if (denominator > 0) ratios.push(read(cs.values, cs.counts, cs.n) / denominator);
  }
  ratios.sort((x, y) => x - y);
  const tail = (1 - confidence) / 2;
  const baseStat = statOf(base, stat);
  return {
    estimate: baseStat > 0 ? statOf(cur, stat) / baseStat : Number.NaN,
    lo: ratios.length ? percentileOf(ratios, tail) : Number.NaN,
    hi: ratios.length ? percentileOf(ratios, 1 - tail) : Number.NaN,
    confidence,
    replicates: ratios.length,
    method: paired ? 'paired runs and values' : multi ? 'runs and values' : 'values',
  };
}
