// The regression gate: compares a current run with a baseline as ratios current / baseline, per
// scenario, latency metric and stat, plus throughput counters and verdicts, against tolerances.
//
// - Latency stats (p50 p90 p95 p99 max mean): a regression is a ratio above 1 + tolerance AND an
//   increase larger than the noise floor (default 5 ms: between two identical smoke runs on a
//   shared 2-core box, cf4's resume p50 went 1.9 → 3.3 ms; millisecond loopback latencies swing
//   like that without meaning anything). A percentile is compared only when both runs have at
//   least `minTailSamples` samples beyond it (p99 needs 500 samples at the default 5), because with
//   fewer the percentile is one or two samples and a ratio of it is noise; such rows say so.
// - Counters: compared by the meaning their scenario declared (results.json `records`, see
//   metricNames.ts), never guessed from their names. `throughput` is higher-is-better: a ratio
//   below 1 + tolerance (a negative tolerance, default −10 %) is a regression. `limit-or-never`
//   (capacity's `slo_broken_at_per_s`) is the rate at which a limit broke, 0 meaning it never
//   broke: never is the best value, so never → a rate is a regression, a rate → never is not, and
//   two rates compare like throughput. A `tally` (a count that follows the run's size) is not
//   compared; a counter without a declared meaning is listed as not compared.
// - Overload: a latency measured while the machine had more runnable work than cores (the 1-minute
//   load average per core above `maxLoadPerCore`, default 1, as either run started) measures the
//   queue for the CPU, not the agent: two smoke runs on a 2-core box at load 11 moved p50s by
//   ×0.2 to ×6 between identical runs. Such latencies are listed as not compared, saying why;
//   verdicts and counters are still compared.
// - Verdicts: a scenario that passed in the baseline and now failed or errored is a regression.
import { UserError } from '../protocol/userError.ts';
import type { RunResult, ScenarioResult } from '../results/runResult.ts';
import { COUNTER_MEANINGS, declaredCounterKind, type MeasureMeaning } from '../results/metricNames.ts';

export const LATENCY_STATS = ['p50', 'p90', 'p95', 'p99', 'max', 'mean'] as const;
export type LatencyStat = (typeof LATENCY_STATS)[number];
export type ToleranceKey = LatencyStat | 'throughput';

/** Allowed change as a fraction: +0.2 = 20 % slower allowed; throughput −0.1 = 10 % fewer allowed. */
export type Tolerances = Partial<Record<ToleranceKey, number>>;

export const DEFAULT_TOLERANCES: Tolerances = { p50: 0.2, p95: 0.3, p99: 0.3, throughput: -0.1 };

export interface CompareOptions {
  tolerances: Tolerances;
  noiseFloorMs: number;
  minTailSamples: number;
  /** Latencies are not compared when either run started with a higher load average per core. */
  maxLoadPerCore: number;
}

export const DEFAULT_COMPARE_OPTIONS: CompareOptions = {
  tolerances: DEFAULT_TOLERANCES,
  noiseFloorMs: 5,
  minTailSamples: 5,
  maxLoadPerCore: 1,
};

export type RowResult = 'ok' | 'REGRESSION' | 'not compared';

export interface CompareRow {
  scenario: string;
  /** e.g. `resume_latency p95`, `answers_per_s`, `verdict`. */
  measure: string;
  baseline: string;
  current: string;
  ratio: number | null;
  allowed: string;
  result: RowResult;
  note?: string;
}

export interface Comparison {
  rows: CompareRow[];
  regressions: CompareRow[];
  /** Rows the gate could not judge (too few samples, an overloaded machine, not recorded…): exit 3. */
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

export const pct = (f: number) => `${f >= 0 ? '+' : '−'}${Number((Math.abs(f) * 100).toFixed(1))} %`;
const ms = (us: number) => `${Number((us / 1000).toFixed(us < 10_000 ? 3 : 1))} ms`;
const num = (n: number) => String(Number(n.toFixed(3)));

function latencyRows(
  name: string,
  base: ScenarioResult,
  cur: ScenarioResult,
  o: CompareOptions,
  overloaded?: string,
): CompareRow[] {
  const rows: CompareRow[] = [];
  for (const [metric, b] of Object.entries(base.metrics)) {
    const c = cur.metrics[metric];
    const stats = LATENCY_STATS.filter((stat) => o.tolerances[stat] !== undefined);
    const notCompared = (what: string, note: string): CompareRow => ({
      scenario: name,
      measure: `${metric} ${what}`,
      baseline: `n=${b.count}`,
      current: c ? `n=${c.count}` : '—',
      ratio: null,
      allowed: '',
      result: 'not compared',
      note,
    });
    if (stats.length === 0) continue;
    if (overloaded) {
      rows.push(notCompared(stats.join(' '), overloaded));
      continue;
    }
    if (!c) {
      rows.push(notCompared(stats.join(' '), 'not recorded in the current run'));
      continue;
    }
    if (b.count === 0 || c.count === 0) {
      rows.push(notCompared(stats.join(' '), 'no samples'));
      continue;
    }
    // With fewer samples beyond a percentile than minTailSamples, the percentile is one or two samples.
    const tail = (n: number, stat: LatencyStat) =>
      stat.startsWith('p') ? n * (1 - Number(stat.slice(1)) / 100) : Infinity;
    const thin = stats.filter(
      (stat) => tail(b.count, stat) < o.minTailSamples || tail(c.count, stat) < o.minTailSamples,
    );
    for (const stat of stats.filter((s) => !thin.includes(s))) {
      const tolerance = o.tolerances[stat]!;
      const ratio = b[stat] > 0 ? c[stat] / b[stat] : c[stat] > 0 ? Infinity : 1;
      const beyond = ratio > 1 + tolerance;
      const noise = c[stat] - b[stat] <= o.noiseFloorMs * 1000;
      rows.push({
        scenario: name,
        measure: `${metric} ${stat}`,
        baseline: ms(b[stat]),
        current: ms(c[stat]),
        ratio,
        allowed: pct(tolerance),
        result: beyond && !noise ? 'REGRESSION' : 'ok',
        ...(beyond && noise ? { note: `within the ${o.noiseFloorMs} ms noise floor` } : {}),
      });
    }
    if (thin.length) rows.push(notCompared(thin.join(' '), `too few samples for a stable ${thin.join('/')}`));
  }
  return rows;
}

/** What a recorded counter means, from the current run's declaration (else the baseline's). */
function counterMeaning(key: string, base: ScenarioResult, cur: ScenarioResult): MeasureMeaning | undefined {
  const kind = declaredCounterKind(cur.records ?? base.records, key);
  return kind === undefined ? undefined : COUNTER_MEANINGS[kind];
}

/** 0 of a limit-or-never counter reads "never broke"; anything else is a rate. */
const limitText = (n: number) => (n === 0 ? 'never broke' : `${num(n)}/s`);

function counterRows(name: string, base: ScenarioResult, cur: ScenarioResult, o: CompareOptions): CompareRow[] {
  const tolerance = o.tolerances.throughput;
  const rows: CompareRow[] = [];
  for (const [counter, b] of Object.entries(base.counters)) {
    const meaning = counterMeaning(counter, base, cur);
    const c = cur.counters[counter];
    // A tally follows the run's size; a measure is judged by its own gate (metricNames.ts): neither is compared.
    if (meaning && !meaning.compared) continue;
    const shown = meaning?.zeroIsNever ? limitText : num;
    const row: CompareRow = {
      scenario: name,
      measure: counter,
      baseline: shown(b),
      current: c === undefined ? '—' : shown(c),
      ratio: null,
      allowed: tolerance === undefined ? '' : pct(tolerance),
      result: 'not compared',
    };
    if (meaning === undefined)
      row.note = 'its scenario declares no meaning for it (a results.json written before counters were declared?)';
    else if (tolerance === undefined) continue;
    else if (c === undefined) row.note = 'not counted in the current run';
    else if (meaning.zeroIsNever && (b === 0 || c === 0)) {
      // Never broke is better than any rate: only never → a rate is worse.
      row.result = b === 0 && c > 0 ? 'REGRESSION' : 'ok';
      if (b === 0 && c > 0) row.note = 'the baseline never broke';
    } else if (b <= 0) {
      row.result = 'ok';
      row.note = 'baseline is 0';
    } else {
      // Every counter compared is higher-is-better (COUNTER_MEANINGS): fewer by more than the tolerance is worse.
      row.ratio = c / b;
      row.result = row.ratio < 1 + tolerance ? 'REGRESSION' : 'ok';
    }
    rows.push(row);
  }
  return rows;
}

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
  if (base.verdict === 'passed') row.result = 'REGRESSION';
  else if (cur.verdict !== 'passed' && cur.verdict !== 'failed' && cur.verdict !== 'errored')
    row.result = 'not compared';
  if (cur.reason) row.note = cur.reason;
  return row;
}

export function compareRuns(
  baseline: RunResult,
  current: RunResult,
  options: CompareOptions = DEFAULT_COMPARE_OPTIONS,
): Comparison {
  const rows: CompareRow[] = [];
  const notes: string[] = [];
  if (baseline.profile !== current.profile)
    notes.push(
      `profiles differ (baseline ${baseline.profile}, current ${current.profile}): the runs were sized differently`,
    );
  const runs: Array<[string, RunResult]> = [
    ['baseline', baseline],
    ['current', current],
  ];
  const busy = runs
    .filter(([, r]) => (r.rig.loadPerCore ?? 0) > options.maxLoadPerCore)
    .map(([which, r]) => `${which} ${r.rig.loadPerCore}`);
  const overloaded = busy.length
    ? `the machine was overloaded (load per core ${busy.join(', ')} > ${options.maxLoadPerCore})`
    : undefined;
  if (overloaded)
    notes.push(`latencies not compared: ${overloaded}; run on a quieter machine or raise --max-load-per-core`);
  let shared = 0;
  for (const base of baseline.scenarios) {
    const cur = current.scenarios.find((s) => s.name === base.name);
    if (!cur) {
      notes.push(`${base.name} is not in the current run`);
      continue;
    }
    shared++;
    const verdict = verdictRow(base.name, base, cur);
    if (verdict) rows.push(verdict);
    rows.push(...latencyRows(base.name, base, cur, options, overloaded), ...counterRows(base.name, base, cur, options));
  }
  for (const cur of current.scenarios)
    if (!baseline.scenarios.some((s) => s.name === cur.name)) notes.push(`${cur.name} is new (not in the baseline)`);
  if (shared === 0)
    throw new UserError('the baseline and the current run share no scenario: compare runs of the same suite');
  return {
    rows,
    regressions: rows.filter((r) => r.result === 'REGRESSION'),
    notJudged: rows.filter((r) => r.result === 'not compared'),
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
    return `not judged: ${notJudged.length} row${notJudged.length > 1 ? 's' : ''} not compared, no regression among the rest`;
  return 'no regression';
}
