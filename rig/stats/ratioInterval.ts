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

/** A standard normal draw (Box–Muller). */
function normal(random: Random): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/**
 * A Binomial(n, p) draw: by inversion while the mean is small (exact), by the normal approximation
 * once n·p and n·(1 − p) both pass 30 (where it is within a count or two, far below what moves a
 * bootstrap percentile).
 */
function binomial(n: number, p: number, random: Random): number {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  if (n * p >= 30 && n * (1 - p) >= 30)
    return Math.min(n, Math.max(0, Math.round(n * p + Math.sqrt(n * p * (1 - p)) * normal(random))));
  if (p > 0.5) return n - binomial(n, 1 - p, random);
  const odds = p / (1 - p);
  let pk = Math.pow(1 - p, n);
  let u = random();
  let k = 0;
  while (u > pk && k < n) {
    u -= pk;
    k++;
    pk *= (odds * (n - k + 1)) / k;
  }
  return k;
}

/**
 * n draws with replacement from one sample, as counts over its values: a multinomial draw made of
 * one binomial per distinct value, so a replicate costs the number of HDR buckets (hundreds), not
 * the number of samples (a capacity run keeps 10⁵).
 */
function resampleCounts(s: SampleSet, random: Random): Float64Array {
  const counts = new Float64Array(s.values.length);
  let left = s.n;
  let rest = s.n;
  for (let i = 0; i < s.values.length && left > 0; i++) {
    const c = s.counts[i]!;
    counts[i] = i === s.values.length - 1 ? left : binomial(left, c / rest, random);
    left -= counts[i]!;
    rest -= c;
  }
  return counts;
}

/**
 * Resamples one side. Its runs' values are laid on one sorted axis once, so a replicate adds each
 * drawn run's counts into one array over that axis instead of merging maps and sorting (which cost
 * 90 % of a comparison's time before).
 */
class SideResampler {
  private readonly axis: Float64Array;
  /** For run r, the axis index of each of its values. */
  private readonly at: Int32Array[];
  constructor(readonly side: readonly SampleSet[]) {
    const union = [...new Set(side.flatMap((s) => Array.from(s.values)))].sort((a, b) => a - b);
    this.axis = Float64Array.from(union);
    const index = new Map(union.map((v, i) => [v, i]));
    this.at = side.map((s) => Int32Array.from(s.values, (v) => index.get(v)!));
  }
  /** One bootstrap replicate of the side given which runs were drawn. */
  replicate(runs: readonly number[], random: Random): SampleSet {
    const counts = new Float64Array(this.axis.length);
    let n = 0;
    for (const r of runs) {
      const drawn = resampleCounts(this.side[r]!, random);
      const at = this.at[r]!;
      for (let i = 0; i < drawn.length; i++) counts[at[i]!]! += drawn[i]!;
      n += this.side[r]!.n;
    }
    return { values: this.axis, counts, n };
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
  return ratioIntervals(baseline, current, [stat], options)[0]!;
}

/** ratioInterval for several stats of the same samples, from one set of replicates (in the order asked). */
export function ratioIntervals(
  baseline: readonly SampleSet[],
  current: readonly SampleSet[],
  stats: readonly StatName[],
  options: RatioOptions = {},
): RatioInterval[] {
  const base = baseline.filter((s) => s.n > 0);
  const cur = current.filter((s) => s.n > 0);
  if (base.length === 0 || cur.length === 0) throw new Error('ratioInterval: a side has no samples');
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  const random = mulberry32(options.seed ?? 1);
  const reads = stats.map(statReader);
  const paired = options.paired === true && base.length === cur.length && base.length > 1;
  const multi = base.length > 1 || cur.length > 1;
  const b = new SideResampler(base);
  const c = new SideResampler(cur);
  const pickRuns = (k: number) => Array.from({ length: k }, () => Math.floor(random() * k));
  const everyRun = (k: number) => Array.from({ length: k }, (_, i) => i);
  const ratios = stats.map((): number[] => []);
  for (let i = 0; i < (options.replicates ?? 2000); i++) {
    const bRuns = multi ? pickRuns(base.length) : everyRun(1);
    const cRuns = paired ? bRuns : multi ? pickRuns(cur.length) : everyRun(1);
    const bs = b.replicate(bRuns, random);
    const cs = c.replicate(cRuns, random);
    reads.forEach((read, k) => {
      const denominator = read(bs.values, bs.counts, bs.n);
      if (denominator > 0) ratios[k]!.push(read(cs.values, cs.counts, cs.n) / denominator);
    });
  }
  const tail = (1 - confidence) / 2;
  const method = paired ? 'paired runs and values' : multi ? 'runs and values' : 'values';
  return stats.map((stat, k) => {
    const sorted = ratios[k]!.sort((x, y) => x - y);
    const baseStat = statOf(base, stat);
    return {
      estimate: baseStat > 0 ? statOf(cur, stat) / baseStat : Number.NaN,
      lo: sorted.length ? percentileOf(sorted, tail) : Number.NaN,
      hi: sorted.length ? percentileOf(sorted, 1 - tail) : Number.NaN,
      confidence,
      replicates: sorted.length,
      method,
    };
  });
}
