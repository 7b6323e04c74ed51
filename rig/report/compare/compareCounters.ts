// The counter rows of a comparison. A counter is compared by the meaning its scenario declared
// (results.json `records`, see metricNames.ts), never guessed from its name: `throughput` is
// higher-is-better; `limit-or-never` (capacity's `slo_broken_at_per_s`) is the rate at which a limit
// broke, 0 meaning it never broke, so never → a rate is a regression and a rate → never is not; a
// `tally` follows the run's size and is not compared.
//
// A run keeps one figure per counter, so an interval needs several runs a side (A/B rounds, or
// --baseline/--current given more than once): then the interval is the bootstrap over the runs'
// figures, judged as latencies are. With one run a side there is no interval, and on a shared
// machine no judgement (inconclusive); on a machine said to be quiet the point ratio is held to the
// tolerance and the row says so ("one run a side: no interval").
import type { ScenarioResult } from '../../results/runResult.ts';
import { COUNTER_MEANINGS, declaredCounterKind, type MeasureMeaning } from '../../results/metricNames.ts';
import { changeOutcome } from '../../stats/changeOutcome.ts';
import { ratioInterval } from '../../stats/ratioInterval.ts';
import { sampleOf } from '../../stats/sampleSet.ts';
import type { CompareRow, IntervalSettings } from './compareRow.ts';
import { ONE_RUN_A_SIDE, oneRunOutcome } from './compareLatency.ts';
import { change, quantity, rate } from '../../figures.ts';

/** What a recorded counter means, from the current run's declaration (else the baseline's). */
function counterMeaning(key: string, base: ScenarioResult, cur: ScenarioResult): MeasureMeaning | undefined {
  const kind = declaredCounterKind(cur.records ?? base.records, key);
  return kind === undefined ? undefined : COUNTER_MEANINGS[kind];
}

/** 0 of a limit-or-never counter reads "never broke"; anything else is a rate. */
const limitText = (n: number) => (n === 0 ? 'never broke' : rate(n));

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** A side's figure for the table: the one run's, or the mean of several with their count. */
function shownSide(values: readonly number[], shown: (n: number) => string): string {
  return values.length === 1 ? shown(values[0]!) : `${shown(mean(values))} (mean of ${values.length})`;
}

function judgeThroughput(row: CompareRow, b: number[], c: number[], tolerance: number, o: IntervalSettings): void {
  if (mean(b) <= 0) {
    row.result = 'ok';
    row.note = 'baseline is 0';
    return;
  }
  row.ratio = mean(c) / mean(b);
  if (b.length < 2 && c.length < 2) {
    // One figure a side says nothing of the run-to-run spread (compareLatency.ts ONE_RUN_A_SIDE),
    // unless the machine is said to be quiet. Every counter compared is higher-is-better
    // (COUNTER_MEANINGS): fewer by more than the tolerance is worse.
    if (o.quietMachine) {
      row.result = row.ratio < 1 + tolerance ? 'regression' : 'ok';
      row.note = 'one run a side: no interval';
    } else {
      const point = { lo: row.ratio, hi: row.ratio };
      row.result = oneRunOutcome(point, 1 / (1 + tolerance) - 1, 'lower');
      if (row.result === 'inconclusive') row.note = ONE_RUN_A_SIDE;
    }
    return;
  }
  const interval = ratioInterval([sampleOf(b)], [sampleOf(c)], 'mean', { confidence: o.confidence });
  row.interval = interval;
  row.result = changeOutcome(interval, { fraction: 1 / (1 + tolerance) - 1, worse: 'lower' });
}

function counterRow(
  name: string,
  counter: string,
  sides: { base: ScenarioResult[]; cur: ScenarioResult[] },
  tolerance: number | undefined,
  o: IntervalSettings,
): CompareRow | undefined {
  const meaning = counterMeaning(counter, sides.base[0]!, sides.cur[0]!);
  // A tally follows the run's size; a measure is judged by its own gate (metricNames.ts): neither is compared.
  if (meaning && !meaning.compared) return undefined;
  const figures = (side: ScenarioResult[]) =>
    side.flatMap((s) => (s.counters[counter] === undefined ? [] : [s.counters[counter]]));
  const [b, c] = [figures(sides.base), figures(sides.cur)];
  const shown = meaning?.zeroIsNever ? limitText : quantity;
  const row: CompareRow = {
    scenario: name,
    measure: counter,
    baseline: shownSide(b, shown),
    current: c.length ? shownSide(c, shown) : '—',
    ratio: null,
    allowed: tolerance === undefined ? '' : change(tolerance),
    ...(tolerance === undefined ? {} : { tolerance }),
    result: 'not compared',
  };
  if (meaning === undefined)
    row.note = 'its scenario declares no meaning for it (a results.json written before counters were declared?)';
  else if (tolerance === undefined) return undefined;
  else if (c.length === 0) row.note = 'not counted in the current run';
  else if (meaning.zeroIsNever && (b.some((v) => v === 0) || c.some((v) => v === 0))) judgeNever(row, b, c);
  else judgeThroughput(row, b, c, tolerance, o);
  return row;
}

/** A limit-or-never counter some run never broke: never beats any rate, so only never → a rate is worse. */
function judgeNever(row: CompareRow, b: number[], c: number[]): void {
  const baseNever = b.every((v) => v === 0);
  const broke = c.some((v) => v > 0);
  row.result = baseNever && broke ? 'regression' : baseNever || !broke ? 'ok' : 'inconclusive';
  if (baseNever && broke) row.note = 'the baseline never broke';
  else if (row.result === 'inconclusive') row.note = 'some runs of a side broke and some never did';
}

export function counterRows(
  name: string,
  sides: { base: ScenarioResult[]; cur: ScenarioResult[] },
  tolerance: number | undefined,
  o: IntervalSettings,
): CompareRow[] {
  const counters = new Set(sides.base.flatMap((s) => Object.keys(s.counters)));
  return [...counters].flatMap((counter) => counterRow(name, counter, sides, tolerance, o) ?? []);
}
