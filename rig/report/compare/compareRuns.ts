// The regression gate: compares current runs with baseline runs as ratios current / baseline, per
// scenario, latency metric and stat, plus throughput counters and verdicts, against tolerances.
// Each side is one run or several (repeated runs, A/B rounds), so that the spread between runs on
// a shared machine shows in the intervals instead of being read as a change.
//
// - Latency stats: a 95 % bootstrap interval on the ratio, judged against the stat's tolerance as a
//   practical-significance threshold: regression / improvement when the whole interval is beyond
//   it, no change when the whole interval is within ±it, inconclusive otherwise (compareLatency.ts).
// - Counters: by their declared meaning (compareCounters.ts).
// - Verdicts: a scenario that passed in the baseline and now failed or errored is a regression.
// - The machine: each run's load per core as it started is shown in a note. It no longer switches
//   latencies off: the intervals carry what the load did to the samples, and a run too noisy to
//   judge comes out inconclusive (exit 3), never as a pass. A scenario whose rig was saturated on
//   one side only is inconclusive too: the difference may be the rig's (compareSaturation.ts).
import { UserError } from '../../protocol/userError.ts';
import type { RunResult, ScenarioResult } from '../../results/runResult.ts';
import { DEFAULT_CONFIDENCE } from '../../stats/quantileInterval.ts';
import { statOf as pooledStat } from '../../stats/ratioInterval.ts';
import type { SampleSet } from '../../stats/sampleSet.ts';
import { counterRows } from './compareCounters.ts';
import { withSaturation } from './compareSaturation.ts';
import { judgeLatency, LATENCY_STATS, metricSample, type LatencyStat } from './compareLatency.ts';
import { undecided, type CompareRow, type IntervalSettings } from './compareRow.ts';
import { change, microsAsMillis } from '../../figures.ts';
import { polledText } from '../thresholds/thresholdEvaluation.ts';

export { LATENCY_STATS, type LatencyStat } from './compareLatency.ts';
export { ratioText, type CompareRow, type RowResult } from './compareRow.ts';
export type ToleranceKey = LatencyStat | 'throughput';

/** Allowed change as a fraction: +0.2 = 20 % slower allowed; throughput −0.1 = 10 % fewer allowed. */
export type Tolerances = Partial<Record<ToleranceKey, number>>;

export const DEFAULT_TOLERANCES: Tolerances = { p50: 0.2, p95: 0.3, p99: 0.3, throughput: -0.1 };

export interface CompareOptions extends IntervalSettings {
  tolerances: Tolerances;
}

export const DEFAULT_COMPARE_OPTIONS: CompareOptions = {
  tolerances: DEFAULT_TOLERANCES,
  confidence: DEFAULT_CONFIDENCE,
  paired: false,
};

export interface Comparison {
  rows: CompareRow[];
  regressions: CompareRow[];
  /** Rows the gate could not decide (inconclusive intervals, too few samples, not recorded…): exit 3. */
  notJudged: CompareRow[];
  /** Scenario-level remarks: missing scenarios, different profiles. */
  notes: string[];
}

const KEY = /^(p50|p90|p95|p99|max|mean|throughput)=(?:(off)|([+-]?)(\d+(?:\.\d+)?)%)$/;

/** Parses `p95=+20%,throughput=-10%,p99=off` (several flags allowed) over the defaults. */
export function parseTolerances(specs: string[], base: Tolerances = DEFAULT_TOLERANCES): Tolerances {
  const tolerances: Tolerances = { ...base };
  for (const part of specs
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = KEY.exec(part);
    if (!m)
      throw new UserError(
        `bad --tolerance "${part}": use STAT=+N% (p50 p90 p95 p99 max mean), throughput=-N%, or STAT=off`,
      );
    const key = m[1] as ToleranceKey;
    if (m[2]) {
      delete tolerances[key];
      continue;
    }
    const sign = m[3];
    const fraction = Number(m[4]) / 100;
    if (key === 'throughput' && sign === '+')
      throw new UserError(`bad --tolerance "${part}": throughput tolerance is an allowed drop, e.g. throughput=-10%`);
    if (key !== 'throughput' && sign === '-')
      throw new UserError(`bad --tolerance "${part}": latency tolerance is an allowed increase, e.g. ${key}=+20%`);
    tolerances[key] = key === 'throughput' ? -fraction : fraction;
  }
  return tolerances;
}

/** The latency rows of one metric, every toleranced stat. */
function metricRows(
  name: string,
  metric: string,
  sides: { base: ScenarioResult[]; cur: ScenarioResult[] },
  o: CompareOptions,
): CompareRow[] {
  const stats = LATENCY_STATS.filter((stat) => o.tolerances[stat] !== undefined);
  if (stats.length === 0) return [];
  const base = sides.base.flatMap((s) => (s.metrics[metric] ? [s.metrics[metric]] : []));
  const cur = sides.cur.flatMap((s) => (s.metrics[metric] ? [s.metrics[metric]] : []));
  const count = (ms: typeof base) => `n=${ms.reduce((n, m) => n + m.count, 0)}`;
  const notCompared = (note: string): CompareRow[] => [
    {
      scenario: name,
      measure: `${metric} ${stats.join(' ')}`,
      baseline: count(base),
      current: cur.length ? count(cur) : '—',
      ratio: null,
      allowed: '',
      result: 'not compared',
      note,
    },
  ];
  if (cur.length === 0) return notCompared('not recorded in the current run');
  // A latency seen by polling moves with the rig's polling, not only with the agent: not a gate.
  const polled = [...base, ...cur].find((m) => m.polled);
  if (polled) return notCompared(polledText(polled.polled!, polled.count));
  const b = base.map(metricSample).filter((s) => s.n > 0);
  const c = cur.map(metricSample).filter((s) => s.n > 0);
  if (b.length === 0 || c.length === 0) return notCompared('no samples');
  // One run: its recorded stat. Several: the stat of their pooled samples, the same figure the
  // interval is centred on (a mean of per-run percentiles can lie outside the pooled interval).
  const statOf = (side: typeof base, samples: SampleSet[], stat: LatencyStat) =>
    side.length > 1 ? pooledStat(samples, stat) : side[0]![stat];
  const shown = (side: typeof base, samples: SampleSet[], stat: LatencyStat) =>
    `${microsAsMillis(statOf(side, samples, stat))} ms${side.length > 1 ? ` (${side.length} runs pooled)` : ''}`;
  const ratio = (stat: LatencyStat) => {
    const [x, y] = [statOf(base, b, stat), statOf(cur, c, stat)];
    return x > 0 ? y / x : null;
  };
  return judgeLatency(b, c, stats, o.tolerances, o).map((j) => ({
    scenario: name,
    measure: `${metric} ${j.stat}`,
    baseline: shown(base, b, j.stat),
    current: shown(cur, c, j.stat),
    ratio: ratio(j.stat),
    ...(j.interval ? { interval: j.interval } : {}),
    allowed: change(o.tolerances[j.stat]!),
    tolerance: o.tolerances[j.stat]!,
    result: j.outcome,
    ...(j.note ? { note: j.note } : {}),
  }));
}

function latencyRows(name: string, sides: { base: ScenarioResult[]; cur: ScenarioResult[] }, o: CompareOptions) {
  const metrics = new Set(sides.base.flatMap((s) => Object.keys(s.metrics)));
  return [...metrics].flatMap((metric) => metricRows(name, metric, sides, o));
}

/** A side's verdict: passed only when every run of it passed, else the first other verdict. */
const sideVerdict = (side: ScenarioResult[]) => side.find((s) => s.verdict !== 'passed') ?? side[0]!;

function verdictRow(name: string, base: ScenarioResult, cur: ScenarioResult): CompareRow | undefined {
  if (base.verdict === cur.verdict) return undefined;
  const row: CompareRow = {
    scenario: name,
    measure: 'verdict',
    baseline: base.verdict,
    current: cur.verdict,
    ratio: null,
    allowed: 'passed stays passed',
    result: 'ok',
  };
  // A scenario the baseline vouched for and this run did not (failed, errored, or was skipped,
  // interrupted or never run) is a regression: a gate that quietly measures less must not pass.
  // A run that could not judge a check (inconclusive: a tax whose interval straddles its bound on a
  // busy box) neither passed nor failed it: undecided, exit 3 — not a regression the agent made.
  if (base.verdict === 'passed' && cur.verdict === 'inconclusive') row.result = 'inconclusive';
  else if (base.verdict === 'passed') row.result = 'regression';
  else if (cur.verdict === 'passed') row.result = 'improvement';
  else if (cur.verdict !== 'failed' && cur.verdict !== 'errored') row.result = 'not compared';
  if (cur.reason) row.note = cur.reason;
  return row;
}

const loadText = (runs: RunResult[]) =>
  runs.map((r) => (r.rig.loadPerCore === undefined ? '?' : String(r.rig.loadPerCore))).join(', ');

function sideNotes(baseline: RunResult[], current: RunResult[]): string[] {
  const notes: string[] = [];
  const profiles = (runs: RunResult[]) => [...new Set(runs.map((r) => r.profile))].join('/');
  if (profiles(baseline) !== profiles(current) || profiles([...baseline, ...current]).includes('/'))
    notes.push(
      `profiles differ (baseline ${profiles(baseline)}, current ${profiles(current)}): the runs were sized differently`,
    );
  notes.push(
    `load per core as the runs started: baseline ${loadText(baseline)}; current ${loadText(current)}` +
      ' (what it did to the samples is in the intervals)',
  );
  return notes;
}

/**
 * Compares one or several current runs with one or several baseline runs. With `paired` (A/B
 * rounds) both sides must have as many runs, run i of each measured in the same round.
 */
export function compareRuns(
  baselineRuns: RunResult | RunResult[],
  currentRuns: RunResult | RunResult[],
  options: CompareOptions = DEFAULT_COMPARE_OPTIONS,
): Comparison {
  const baseline = [baselineRuns].flat();
  const current = [currentRuns].flat();
  if (baseline.length === 0 || current.length === 0) throw new UserError('compare needs at least one run a side');
  if (options.paired && baseline.length !== current.length)
    throw new UserError(`paired rounds need as many baseline runs as current (${baseline.length} ≠ ${current.length})`);
  const rows: CompareRow[] = [];
  const notes = sideNotes(baseline, current);
  const names = [...new Set(baseline.flatMap((r) => r.scenarios.map((s) => s.name)))];
  const of = (runs: RunResult[], name: string) => runs.flatMap((r) => r.scenarios.filter((s) => s.name === name));
  let shared = 0;
  for (const name of names) {
    const sides = { base: of(baseline, name), cur: of(current, name) };
    if (sides.cur.length === 0) {
      notes.push(`${name} is not in the current run`);
      continue;
    }
    if (sides.base.length < baseline.length || sides.cur.length < current.length)
      notes.push(
        `${name} is missing from some runs: compared over the ${sides.base.length} + ${sides.cur.length} that have it`,
      );
    shared++;
    const verdict = verdictRow(name, sideVerdict(sides.base), sideVerdict(sides.cur));
    if (verdict) rows.push(verdict);
    const measured = [
      ...latencyRows(name, sides, options),
      ...counterRows(name, sides, options.tolerances.throughput, options),
    ];
    rows.push(...withSaturation(measured, sides));
  }
  for (const name of new Set(current.flatMap((r) => r.scenarios.map((s) => s.name))))
    if (!names.includes(name)) notes.push(`${name} is new (not in the baseline)`);
  if (shared === 0)
    throw new UserError('the baseline and the current run share no scenario: compare runs of the same suite');
  return {
    rows,
    regressions: rows.filter((r) => r.result === 'regression'),
    notJudged: rows.filter(undecided),
    notes,
  };
}

/**
 * What the gate says, in words: the regressions, else whether every row was judged. A gate that
 * could not judge a row must not read as a pass (compare exits 3, as for "nothing tested").
 */
export function comparisonVerdict({ regressions, notJudged }: Comparison): string {
  if (regressions.length) return `${regressions.length} REGRESSION${regressions.length > 1 ? 'S' : ''}`;
  if (notJudged.length)
    return `not judged: ${notJudged.length} row${notJudged.length > 1 ? 's' : ''} inconclusive or not compared, no regression among the rest`;
  return 'no regression';
}

/** How a row's result is written: a regression stands out; the rest as the outcome reads. */
export const resultText = (r: CompareRow) => (r.result === 'regression' ? 'REGRESSION' : r.result);
