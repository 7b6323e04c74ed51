// The headline block's rows of the terminal summary (terminalSummary.ts) that need working out:
// capacity (the highest offered rate that held the SLO), traffic and errors, thresholds, and the
// note under the title when the verdict alone would mislead.
import { sumTraffic, trafficOf } from '../merge/trafficTotals.ts';
import { geometricRates } from '../../load/arrivalSchedule.ts';
import { baseName } from '../../results/metricNames.ts';
import {
  notJudgedNote,
  nothingTested,
  type RunResult,
  type ScenarioResult,
  type SeriesPoint,
} from '../../results/runResult.ts';
import { percentileShown } from '../sampleSize.ts';
import { labelsOf } from '../scenarioHeadline.ts';
import { thresholdTally } from '../thresholds/thresholdEvaluation.ts';
import { bytes, count, millis, percent } from '../../figures.ts';

import { CAPACITY_SERIES, kneeOf } from '../../load/capacitySlo.ts';
import { rigLimitWhy } from '../../load/capacitySearch.ts';
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The profile's top offered rate, from capacity's own parameters; undefined when they are not there. */
function topRate(params: Record<string, unknown>): number | undefined {
  const [start, growth, max] = [num(params.startRate), num(params.growth), num(params.maxRate)];
  if (start === undefined || growth === undefined || max === undefined) return undefined;
  try {
    return geometricRates(start, growth, max).at(-1);
  } catch {
    return undefined;
  }
}

/** "p95 12.3 ms", marked when the step's samples are too few to carry a p95. */
function stepP95(s: ScenarioResult, point: SeriesPoint): string {
  const n = Object.entries(s.metrics).find(
    ([k]) => baseName(k) === 'round_trip' && labelsOf(k).rate === String(point.x),
  )?.[1]?.count;
  const value = `p95 ${millis(point.y)} ms`;
  return n !== undefined && !percentileShown(n, 95) ? `${value} (n=${n}: too few for a p95)` : value;
}

/** Why a step broke its SLO, from its point's fields. */
function breach(s: ScenarioResult, point: SeriesPoint): string {
  const parts = [stepP95(s, point)];
  const arrivals = num(point.arrivals);
  const of = arrivals !== undefined ? ` of ${count(arrivals)}` : '';
  for (const field of ['errors', 'dropped'] as const) {
    const n = num(point[field]);
    if (n) parts.push(`${count(n)}${of} ${field === 'errors' ? 'failed' : 'dropped'}`);
  }
  return parts.join(', ');
}

/** ", resolution 10 %" when the knee was refined to it (`resolutionPct`), else how far apart it is. */
function bracket(s: ScenarioResult, held: number, broke: number): string {
  const resolution = num(s.params.resolutionPct);
  const apart = Math.round(((broke - held) * 100) / held);
  const how =
    resolution !== undefined && resolution > 0 && apart <= resolution
      ? `resolution ${resolution} %`
      : `${apart} % apart`;
  return ` (between ${held} and ${broke}/s, ${how})`;
}

/**
 * The capacity line: the highest offered rate that held the SLO below the lowest that broke (by
 * rate: a bisection probes between the ramp's steps); "the load generator was the limit" when that
 * step was the rig's; "cap reached" when the profile's top step held, since the capacity is then
 * above anything tried; undefined without a capacity scenario in the run.
 */
export function capacityLine(run: RunResult): string | undefined {
  const s = run.scenarios.find((x) => x.series?.[CAPACITY_SERIES]) ?? run.scenarios.find((x) => x.name === 'capacity');
  if (!s) return undefined;
  const notMeasured = `not measured (capacity ${s.verdict}${s.reason ? `: ${s.reason}` : ''})`;
  const points = s.series?.[CAPACITY_SERIES] ?? [];
  if (points.length === 0) return notMeasured;
  const what = s.params.roundTrip === 'acceptance' ? 'acceptance round trips/s' : 'round trips/s';
  const slo = num(s.params.sloP95Ms) !== undefined ? ` (p95 ≤ ${s.params.sloP95Ms} ms)` : '';
  const { held: best, broke } = kneeOf(points);
  if (broke?.limit === 'rig' && best) {
    const why = rigLimitWhy(str(broke.rig_saturated), str(broke.rig_bounds) ?? '');
    return `≥ ${best.x} ${what}, not judged: the load generator was the limit at ${broke.x}/s (${why})`;
  }
  if (broke) {
    const end = `the SLO${slo} broke at ${broke.x}/s: ${breach(s, broke)}`;
    return best ? `${best.x} ${what}${bracket(s, best.x, broke.x)}, ${stepP95(s, best)}; ${end}` : `none: ${end}`;
  }
  if (!best) return notMeasured;
  const top = topRate(s.params);
  if (top !== undefined && best.x >= top) {
    const raise = `raise --param ${s.name}.maxRate`;
    return `cap reached: top offered rate ${best.x}/s held; capacity is above it (${stepP95(s, best)}; ${raise})`;
  }
  const topShown = top !== undefined ? ` (${top}/s)` : '';
  return `≥ ${best.x} ${what}, ${stepP95(s, best)}: the search stopped before the profile's top rate${topShown}`;
}

const isRoundTrip = (key: string) => /(^|_)round_trip$/.test(baseName(key));

/**
 * The traffic row (round trips timed; requests and bytes of the scenarios that recorded their
 * traffic) and the errors row (error % of those requests, and of what kind: a refusal a scenario
 * provokes on purpose, duplicate-flood's 409s, is said beside the failures, not counted as one).
 * Either undefined when there is nothing to say.
 */
export function trafficLines(run: RunResult): { traffic?: string; errors?: string } {
  const roundTrips = run.scenarios.reduce(
    (sum, s) =>
      sum +
      Object.entries(s.metrics)
        .filter(([k]) => isRoundTrip(k))
        .reduce((n, [, m]) => n + m.count, 0),
    0,
  );
  const recorded = run.scenarios.filter((s) => s.traffic);
  const parts: string[] = [];
  if (roundTrips > 0) parts.push(`${count(roundTrips)} round trips timed`);
  if (recorded.length === 0) {
    if (roundTrips > 0) parts.push('requests not recorded in these results');
    return parts.length ? { traffic: parts.join(' · ') } : {};
  }
  const t = sumTraffic(trafficOf(recorded));
  parts.push(`${count(t.requests)} requests`, `${bytes(t.bytesSent)} sent, ${bytes(t.bytesReceived)} received`);
  // Failed: no usable reply (a transport error, a timeout), what a red figure means. Refused: the
  // agent answered with an error, often because the scenario provoked it (duplicate-flood's 409s).
  const failed = t.failed;
  type Recorded = (typeof recorded)[number];
  const most = (by: (s: Recorded) => number) => recorded.reduce((a, b) => (by(b) > by(a) ? b : a));
  const refusedBy = (s: Recorded) => sumTraffic([s.traffic!]).refused;
  const failedBy = (s: Recorded) => sumTraffic([s.traffic!]).failed;
  const noReply = `${count(failed)} of ${count(t.requests)} requests got no usable reply`;
  let errors = `${percent(failed, t.requests)} failed (${noReply})`;
  if (failed > 0) errors += `, most in ${most(failedBy).name} (${count(failedBy(most(failedBy)))})`;
  if (t.refused > 0) {
    const mostRefused = `${most(refusedBy).name} (${count(refusedBy(most(refusedBy)))})`;
    errors += `; ${count(t.refused)} refused by the agent (most provoked on purpose), most in ${mostRefused}`;
  }
  return { traffic: parts.join(' · '), errors };
}

export function thresholdsLine(run: RunResult): string | undefined {
  const all = run.thresholds ?? [];
  if (all.length === 0) return undefined;
  const broken = all.filter((t) => !t.ok);
  const tally = thresholdTally(all);
  const undecided = tally['not judged'] ? ` · ${tally['not judged']} not judged` : '';
  const head = `${tally.held} held · ${tally.broken} broken${undecided}`;
  const first = broken.find((t) => !t.notJudged) ?? broken[0];
  return first ? `${head}: ${first.expression} — ${first.detail}` : head;
}

/** Under the title when the verdict alone would mislead: stopped early, nothing tested, some skipped. */
export function verdictNote(run: RunResult): string | undefined {
  if (run.verdict === 'interrupted') {
    const notRun = run.scenarios.filter((s) => s.verdict === 'not-run').length;
    const notRunShown = notRun ? `; ${notRun} scenario${notRun === 1 ? ' was' : 's were'} not run` : '';
    return `Interrupted by ${run.interruptedBy ?? 'a signal'}: these are the results so far${notRunShown}.`;
  }
  const notJudged = notJudgedNote(run);
  if (notJudged) return notJudged;
  const untested = run.verdict === 'skipped' ? nothingTested(run.scenarios) : undefined;
  if (untested) {
    const sentence = `${untested[0]!.toUpperCase()}${untested.slice(1)}.`;
    return `${sentence} Skipped is not passed: run and conform exit with code 3.`;
  }
  const skipped = run.scenarios.filter((s) => s.verdict === 'skipped').length;
  return skipped > 0
    ? `${skipped} of ${run.scenarios.length} scenarios skipped (the reasons are below); ` +
        '--fail-on-skip makes any skip fail the run.'
    : undefined;
}
