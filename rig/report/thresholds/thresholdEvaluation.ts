// Evaluates thresholds against a finished run (or a merge). Without a scenario scope a threshold
// sees the whole run as one: the metric's histograms of every scenario that recorded it are added
// exactly (never percentiles averaged), counters are summed (a `measure` takes its highest
// value). A name without labels takes every labelled series of it (`round_trip` = every
// `round_trip{rate=…}`). A threshold that has nothing to measure breaks, so a typo or a skipped
// scenario cannot pass a gate silently (a scenario that ran records its declared counters, 0
// included; thresholdNames.ts refuses unknown names up front).
import { addPolled, LatencyHistogram, type PolledSamples } from '../../metrics/latencyHistogram.ts';
import type { RunResult, ScenarioResult, ThresholdResult } from '../../results/runResult.ts';
import { compare, type Threshold } from './thresholdExpression.ts';
import { COUNTER_MEANINGS, declaredCounterKind, keyMatches } from '../../results/metricNames.ts';
import { printableLine } from '../terminal/terminalText.ts';
import {
  judgeAgainstBound,
  quantileInterval,
  samplesToBound,
  type QuantileInterval,
} from '../../stats/quantileInterval.ts';

const keysOf = (record: Record<string, unknown>, name: string): string[] =>
  Object.keys(record).filter((key) => keyMatches(key, name));

interface Measured {
  /** In the threshold's comparison unit (µs for latency stats). */
  value: number;
  /** How it reads to a person, unit included. */
  shown: string;
  about: string;
  /** Measured in µs, reported in ms. */
  latency?: true;
  /** A percentile's 95 % interval (µs): the threshold is judged by it, not by the estimate alone. */
  interval?: QuantileInterval;
  /** Why the value, however it compares, is not the agent's to judge (a latency observed by polling). */
  notTheAgents?: string;
}

/**
 * A figure judged against a bound, with more digits than figures.ts's `millis`: near the bound the
 * digits decide which side it is on (9.996 ms against `p95<10`), and the bound reads as it was written.
 */
function fmtMs(us: number): string {
  const ms = us / 1000;
  return `${Number(ms.toFixed(ms < 10 ? 3 : ms < 1000 ? 1 : 0))} ms`;
}

function fmtNumber(n: number): string {
  return String(Number(n.toFixed(4)));
}

function scopeLabel(scenarios: ScenarioResult[], all: boolean): string {
  if (!all) return `in ${scenarios[0]!.name}`;
  return scenarios.length === 1 ? `in ${scenarios[0]!.name}` : `over ${scenarios.length} scenarios`;
}

function latency(t: Threshold, scenarios: ScenarioResult[], all: boolean): Measured | string {
  const holders = scenarios.filter((s) => keysOf(s.metrics, t.name).length > 0);
  if (holders.length === 0) {
    if (scenarios.some((s) => keysOf(s.counters, t.name).length > 0))
      return `${t.name} is a counter: drop the .${t.stat.kind === 'samples' ? 'count' : 'stat'} or use .rate`;
    return `no latency metric ${t.name} was recorded ${all ? 'by any scenario' : `in ${scenarios[0]!.name}`}`;
  }
  const union = new LatencyHistogram();
  const recorded = holders.flatMap((s) => keysOf(s.metrics, t.name).map((key) => s.metrics[key]!));
  for (const m of recorded) union.add(LatencyHistogram.decode(m.hdr));
  const about = `n=${union.count} ${scopeLabel(holders, all)}`;
  if (t.stat.kind === 'samples') return { value: union.count, shown: String(union.count), about };
  if (union.count === 0) return `${t.name} has no samples ${scopeLabel(holders, all)}`;
  const polled = recorded.reduce<PolledSamples | undefined>((sum, m) => addPolled(sum, m.polled), undefined);
  const marked = polled ? { notTheAgents: polledText(polled, union.count) } : {};
  if (t.stat.kind === 'percentile') {
    const interval = quantileInterval(union.sample(), t.stat.percentile / 100);
    const value = union.percentileUs(t.stat.percentile);
    return { value, shown: fmtMs(value), about, latency: true, interval, ...marked };
  }
  // min and max as recorded (the summaries), not as a decoded histogram rounds them to its bucket.
  const sampled = recorded.filter((m) => m.count > 0);
  const value =
    t.stat.kind === 'min'
      ? Math.min(...sampled.map((m) => m.min))
      : t.stat.kind === 'max'
        ? Math.max(...sampled.map((m) => m.max))
        : union.summary().mean;
  return { value, shown: fmtMs(value), about, latency: true, ...marked };
}

/** Why a polled latency is not gated as the agent's (the mark reports carry, in words). */
export function polledText(p: PolledSamples, n: number): string {
  return (
    `${p.count} of ${n} samples observed by GetTask polling (resolution up to ${fmtMs(p.resolutionMaxUs)}, ` +
    `mean ${fmtMs(p.resolutionMeanUs)}): the rig's polling as much as the agent's latency`
  );
}

/**
 * The scenario declares `name` (a base or one labelled series) as a counter whose parts are judged
 * by the worst, not summed (a `measure`).
 */
function isMeasure(s: ScenarioResult, name: string): boolean {
  const kind = declaredCounterKind(s.records, name);
  return kind !== undefined && COUNTER_MEANINGS[kind].combined === 'worst';
}

function counter(t: Threshold, scenarios: ScenarioResult[], all: boolean): Measured | string {
  const holders = scenarios.filter((s) => keysOf(s.counters, t.name).length > 0);
  if (holders.length === 0) {
    if (scenarios.some((s) => keysOf(s.metrics, t.name).length > 0))
      return `${t.name} is a latency metric: add a stat such as .p95`;
    // A scenario that ran records its declared counters (0 included): none here means none ran that counts it.
    return `no counter ${t.name} was recorded ${all ? 'by any scenario' : `in ${scenarios[0]!.name}`}`;
  }
  const where = scopeLabel(holders, all);
  // A measure (the attack tax, MB, seconds) does not add up: several series or scenarios give their worst (highest).
  if (holders.some((s) => isMeasure(s, t.name))) {
    if (t.stat.kind !== 'counter')
      return `${t.name} is a measure (a value, not a count): .rate means nothing; compare it as it is`;
    const values = holders.flatMap((s) => keysOf(s.counters, t.name).map((key) => s.counters[key]!));
    const worst = Math.max(...values);
    return { value: worst, shown: fmtNumber(worst), about: `the highest of ${values.length} ${where}` };
  }
  const total = holders.reduce(
    (sum, s) => sum + keysOf(s.counters, t.name).reduce((n, key) => n + s.counters[key]!, 0),
    0,
  );
  if (t.stat.kind === 'counter') return { value: total, shown: fmtNumber(total), about: where };
  const seconds = holders.reduce((sum, s) => sum + s.durationMs, 0) / 1000;
  if (seconds <= 0) return `${t.name}.rate has no scenario time to divide by`;
  const rate = total / seconds;
  return {
    value: rate,
    shown: `${fmtNumber(rate)}/s`,
    about: `${fmtNumber(total)} in ${fmtNumber(seconds)} s ${where}`,
  };
}

function checkRate(scenarios: ScenarioResult[], all: boolean): Measured | string {
  const checks = scenarios.flatMap((s) => s.checks);
  if (checks.length === 0) return `no checks were made ${all ? 'in this run' : `in ${scenarios[0]!.name}`}`;
  const passed = checks.filter((c) => c.ok).length;
  const rate = passed / checks.length;
  return { value: rate, shown: fmtNumber(rate), about: `${passed}/${checks.length} passed` };
}

function boundText(t: Threshold): string {
  const latencyStat =
    t.stat.kind === 'percentile' || t.stat.kind === 'min' || t.stat.kind === 'max' || t.stat.kind === 'mean';
  return `${t.op} ${latencyStat ? fmtMs(t.bound) : fmtNumber(t.bound)}`;
}

/** Why a scenario in scope said the measure must not be judged (scenario `notJudged`), if one did. */
function notJudgedWhy(t: Threshold, scenarios: ScenarioResult[]): string | undefined {
  for (const s of scenarios)
    for (const [key, why] of Object.entries(s.notJudged ?? {})) if (keyMatches(key, t.name)) return `${s.name}: ${why}`;
  return undefined;
}

export function evaluateThreshold(t: Threshold, run: RunResult): ThresholdResult {
  const all = t.scenario === undefined;
  const scenarios = all ? run.scenarios : run.scenarios.filter((s) => s.name === t.scenario);
  if (scenarios.length === 0) {
    const detail = all ? 'the run has no scenarios' : `scenario ${t.scenario} is not in this run`;
    return { expression: t.expression, ok: false, actual: null, detail };
  }
  const measured =
    t.stat.kind === 'checkRate'
      ? checkRate(scenarios, all)
      : t.stat.kind === 'counter' || t.stat.kind === 'counterRate'
        ? counter(t, scenarios, all)
        : latency(t, scenarios, all);
  if (typeof measured === 'string') return { expression: t.expression, ok: false, actual: null, detail: measured };
  const actual = measured.latency ? measured.value / 1000 : measured.value;
  const detail = `${measured.shown} (${measured.about}), needs ${boundText(t)}`;
  const said = notJudgedWhy(t, scenarios);
  if (said)
    return { expression: t.expression, ok: false, notJudged: true, actual, detail: `not judged: ${said}; ${detail}` };
  if (measured.notTheAgents) {
    const why = `${detail}: not judged — ${measured.notTheAgents}`;
    return { expression: t.expression, ok: false, notJudged: true, actual, detail: why };
  }
  if (measured.interval && t.op !== '==') {
    const judged = judgeAgainstBound(measured.interval, t.op, t.bound);
    const why = judged === 'not judged' ? `: not judged — ${undecided(measured.interval)}` : '';
    return {
      expression: t.expression,
      ok: judged === 'holds',
      ...(judged === 'not judged' ? { notJudged: true as const } : {}),
      actual,
      detail: `${detail}${why}`,
    };
  }
  return { expression: t.expression, ok: compare(measured.value, t.op, t.bound), actual, detail };
}

/** Why a percentile's interval decided nothing: its ends, and the samples that would bound it. */
function undecided(i: QuantileInterval): string {
  const end = (v: number | null) => (v === null ? 'unbounded' : fmtMs(v));
  const p = `p${Number((i.q * 100).toFixed(3))}`;
  return (
    `its 95 % interval [${end(i.lo)}, ${end(i.hi)}] from n=${i.n} reaches both sides of the bound ` +
    `(${p} is bounded from above from n ≥ ${samplesToBound(i.q)}; a bound further from it decides sooner)`
  );
}

/** held, broken, or not judged (the sample could not decide): the one reading of a threshold's result. */
export type ThresholdState = 'held' | 'broken' | 'not judged';
export const thresholdState = (r: ThresholdResult): ThresholdState =>
  r.ok ? 'held' : r.notJudged ? 'not judged' : 'broken';

/** How many thresholds are in each state. */
export function thresholdTally(results: readonly ThresholdResult[]): Record<ThresholdState, number> {
  const tally: Record<ThresholdState, number> = { held: 0, broken: 0, 'not judged': 0 };
  for (const r of results) tally[thresholdState(r)]++;
  return tally;
}

/**
 * The run with its thresholds evaluated and recorded; a broken threshold makes the verdict
 * `failed`. Any thresholds recorded before (a merge's sources) are replaced.
 */
export function applyThresholds(run: RunResult, thresholds: Threshold[]): RunResult {
  const { thresholds: _previous, ...rest } = run;
  if (thresholds.length === 0) return rest;
  const results = thresholds.map((t) => evaluateThreshold(t, run));
  // Not judged is neither broken nor held: a passed run becomes inconclusive (exit 3), never 0 or 1.
  const broken = results.some((r) => thresholdState(r) === 'broken');
  const undecided = results.some((r) => thresholdState(r) === 'not judged');
  const verdict = broken ? 'failed' : undecided && run.verdict === 'passed' ? 'inconclusive' : run.verdict;
  return { ...rest, thresholds: results, verdict };
}

/**
 * One line per broken or not-judged threshold, for stderr (a merged results.json may say anything:
 * printableLine).
 */
export function brokenThresholdLines(run: RunResult): string[] {
  return (run.thresholds ?? [])
    .filter((r) => !r.ok)
    .map((r) => printableLine(`threshold ${thresholdState(r)}: ${r.expression} — ${r.detail}`));
}

/** Why the run cannot exit 0 for its thresholds (some were not judged), or undefined. */
export function thresholdsNotJudged(run: RunResult): string | undefined {
  const n = thresholdTally(run.thresholds ?? [])['not judged'];
  if (n === 0) return undefined;
  return `${n} threshold${n === 1 ? ' was' : 's were'} not judged (each says why)`;
}
