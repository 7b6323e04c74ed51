// The latency rows of a comparison: for each metric and toleranced stat, a 95 % bootstrap interval
// on current / baseline (rig/stats/ratioInterval.ts, from the HDR histograms results.json keeps),
// judged against the stat's tolerance as a practical-significance threshold (changeOutcome.ts). The
// interval replaces the fixed noise floor, the samples-beyond-the-tail rule and the load switch the
// gate had: a millisecond swing on a noisy box widens the interval instead of being waved through,
// and a real +3 ms on a 1.5 ms p50 is seen as soon as the samples separate.
//
// A percentile a side cannot bound from above with its sample (quantileInterval.ts: p95 needs 72
// values, p99 368 at 95 %) is inconclusive whatever the bootstrap says: a bootstrap of the tail of a
// thin sample only reshuffles its largest values and gives an interval that is too narrow.
import { LatencyHistogram } from '../../metrics/latencyHistogram.ts';
import type { MetricResult } from '../../results/runResult.ts';
import { changeOutcome, type ChangeOutcome, type WorseWhen } from '../../stats/changeOutcome.ts';
import { samplesToBound } from '../../stats/quantileInterval.ts';
import { ratioIntervals, type RatioInterval } from '../../stats/ratioInterval.ts';
import { coarsened, type SampleSet } from '../../stats/sampleSet.ts';
import type { IntervalSettings } from './compareRow.ts';

export const LATENCY_STATS = ['p50', 'p90', 'p95', 'p99', 'max', 'mean'] as const;
export type LatencyStat = (typeof LATENCY_STATS)[number];

export interface LatencyJudgement {
  stat: LatencyStat;
  outcome: ChangeOutcome;
  /** The interval on current / baseline; absent when a side's sample could not carry the stat. */
  interval?: RatioInterval;
  /** Why the outcome is inconclusive without an interval. */
  note?: string;
}

const QUANTILE_OF: Partial<Record<LatencyStat, number>> = { p50: 0.5, p90: 0.9, p95: 0.95, p99: 0.99 };

const decoded = new WeakMap<MetricResult, SampleSet>();

/** Values within this fraction of each other are one value to the bootstrap (sampleSet.ts coarsened). */
const GRID = 0.01;

/** A metric's histogram as a sample on the comparison's grid (decoded once per result object). */
export function metricSample(m: MetricResult): SampleSet {
  let s = decoded.get(m);
  if (!s) decoded.set(m, (s = coarsened(LatencyHistogram.decode(m.hdr).sample(), GRID)));
  return s;
}

/** Why the sides' samples cannot carry a percentile, or undefined when both can. */
function tooThin(
  stat: LatencyStat,
  sides: { baseline: readonly SampleSet[]; current: readonly SampleSet[] },
  confidence: number,
): string | undefined {
  const q = QUANTILE_OF[stat];
  if (q === undefined) return undefined;
  const needs = samplesToBound(q, confidence);
  for (const [which, side] of Object.entries(sides)) {
    // The side's runs pooled: one bound per run would ask every round of an A/B run for 368 values.
    const pooled = side.reduce((n, s) => n + s.n, 0);
    if (pooled < needs) return `too few samples to bound ${stat} (${which} n=${pooled}, needs ${needs})`;
  }
  return undefined;
}

/**
 * One run a side, on a shared machine. A run's values say how sure its own percentile is, not how
 * much the next run would differ, which on a shared box is the larger part: identical runs spread
 * by a factor near RUN_SPREAD, and one run against one flagged regressions between identical agents
 * where three against three flagged none (docs/cli.md, "One run a side"). So one run a side decides
 * only a change beyond RUN_SPREAD × its tolerance (a ×75 collapse still fails), and never "no
 * change"; the rest is inconclusive with this note. benchstat declines n=1+1 outright.
 */
export const RUN_SPREAD = 3;
export const ONE_RUN_A_SIDE =
  `one run a side: the run-to-run spread is unknown, so only a change beyond ×${RUN_SPREAD} the tolerance ` +
  'is judged (give each side several runs, --baseline A --baseline B …, measure with ab, or say --quiet-machine)';

/** The outcome of one run a side (see RUN_SPREAD): a gross change, else inconclusive. */
export function oneRunOutcome(interval: { lo: number; hi: number }, fraction: number, worse: WorseWhen): ChangeOutcome {
  const gross = changeOutcome(interval, { fraction: (1 + fraction) * RUN_SPREAD - 1, worse });
  return gross === 'regression' || gross === 'improvement' ? gross : 'inconclusive';
}

/** The judgement of each stat asked for; both sides non-empty. */
export function judgeLatency(
  baseline: readonly SampleSet[],
  current: readonly SampleSet[],
  stats: readonly LatencyStat[],
  tolerances: Partial<Record<LatencyStat, number>>,
  o: IntervalSettings,
): LatencyJudgement[] {
  const single = baseline.length === 1 && current.length === 1 && o.quietMachine !== true;
  const thin = new Map(stats.map((st) => [st, tooThin(st, { baseline, current }, o.confidence)]));
  const judged = stats.filter((st) => thin.get(st) === undefined);
  const intervals = judged.length ? ratioIntervals(baseline, current, judged, o) : [];
  return stats.map((stat): LatencyJudgement => {
    const k = judged.indexOf(stat);
    if (k < 0) return { stat, outcome: 'inconclusive', note: thin.get(stat) };
    const interval = intervals[k]!;
    if (!single)
      return { stat, interval, outcome: changeOutcome(interval, { fraction: tolerances[stat]!, worse: 'higher' }) };
    const outcome = oneRunOutcome(interval, tolerances[stat]!, 'higher');
    return { stat, interval, outcome, ...(outcome === 'inconclusive' ? { note: ONE_RUN_A_SIDE } : {}) };
  });
}
