// A distributed run's capacity, judged again on the whole: N workers each offered 1/N of every step
// (their `round_trip{rate=R}` carries the total rate R), so a step's verdict is the SLO applied to
// the union of their round trips: arrivals, errors and drops summed, the p95 from the merged
// histogram. Adding the workers' capacities would be wrong twice over: each judged only its share,
// and their searches may have stopped at different steps. The whole is judged on the rates every
// merged worker ran, by rate (each worker's bisection may have probed rates the others did not:
// those are left out, and said), up to the first that breaks the SLO. A step broken while some
// worker's load generator was saturated, or only by the rig's own bounds, is the rig's limit: the
// capacity is then not judged (capacitySearch.ts judgeStep, the scenario's own rule).
import { LatencyHistogram } from '../../metrics/latencyHistogram.ts';
import { CAPACITY_SERIES, capacityCheckName, type CapacitySlo } from '../../load/capacitySlo.ts';
import { judgeStep, kneeText, type StepVerdict } from '../../load/capacitySearch.ts';
import type { ScenarioResult, SeriesPoint } from '../../results/runResult.ts';
import { millis } from '../../figures.ts';

const num = (p: SeriesPoint, field: string) => (typeof p[field] === 'number' ? (p[field] as number) : 0);

function sloOf(params: Record<string, unknown>): CapacitySlo | undefined {
  const { sloP95Ms, sloMaxErrorPct, sloMaxDroppedPct } = params;
  if (typeof sloP95Ms !== 'number' || typeof sloMaxErrorPct !== 'number' || typeof sloMaxDroppedPct !== 'number')
    return undefined;
  return { sloP95Ms, sloMaxErrorPct, sloMaxDroppedPct };
}

/** The rates every worker ran, by rate, and those only some did (left out of the judgement). */
function commonSteps(parts: ScenarioResult[]): { rates: number[]; leftOut: number[] } {
  const curves = parts.map((p) => p.series?.[CAPACITY_SERIES] ?? []);
  const all = [...new Set(curves.flat().map((q) => q.x))].sort((a, b) => a - b);
  const rates = all.filter((x) => curves.every((c) => c.some((q) => q.x === x)));
  return { rates, leftOut: all.filter((x) => !rates.includes(x)) };
}

/** One rate judged on the union of the workers' points at it and the merged histogram. */
function judgeMerged(merged: ScenarioResult, points: SeriesPoint[], rate: number, slo: CapacitySlo) {
  const metric = merged.metrics[`round_trip{rate=${rate}}`];
  const latency = metric ? LatencyHistogram.decode(metric.hdr) : new LatencyHistogram();
  const sum = (field: string) => points.reduce((n, p) => n + num(p, field), 0);
  const most = (field: string) => Math.max(...points.map((p) => num(p, field)));
  const p95Ms = latency.percentileMs(95);
  const facts = {
    scheduled: sum('arrivals'),
    errors: sum('errors'),
    dropped: sum('dropped'),
    completed: latency.count,
    p95Ms,
    // A worker's service p95 (results before it existed: the round trip's, so the agent's limit).
    serviceP95Ms: points.every((p) => typeof p.service_p95_ms === 'number') ? most('service_p95_ms') : p95Ms,
    // Of the errors, the timeouts (results before it existed: none, so every error is the agent's).
    timeouts: sum('timeouts'),
    late: sum('late'),
    peakInFlight: most('peak_in_flight'),
    maxInFlight: typeof merged.params.maxInFlight === 'number' ? merged.params.maxInFlight : Infinity,
  };
  const judged = judgeStep(facts, slo);
  // A worker's load generator saturated over the step makes the union's figures the rig's too.
  const saturated = points.find((p) => typeof p.rig_saturated === 'string')?.rig_saturated as string | undefined;
  const verdict: StepVerdict =
    saturated && judged.reasons.length
      ? { ...judged, saturation: `a worker's ${saturated.replace(/^the /, '')}`, byRig: true }
      : judged;
  const point: SeriesPoint = {
    x: rate,
    y: p95Ms,
    p50_ms: latency.percentileMs(50),
    p99_ms: latency.percentileMs(99),
    achieved_per_s: Math.round(sum('achieved_per_s') * 10) / 10,
    arrivals: facts.scheduled,
    errors: facts.errors,
    dropped: facts.dropped,
    late: facts.late,
    sustainable: verdict.reasons.length === 0,
    ...(verdict.reasons.length ? { limit: verdict.byRig ? 'rig' : 'agent' } : {}),
    ...(verdict.saturation ? { rig_saturated: verdict.saturation } : {}),
    workers: points.length,
  };
  return { verdict, point };
}

/** The check's detail: where the search of the whole ended, and why. */
function mergedDetail(
  end: { held: number; broke?: { rate: number; verdict: StepVerdict }; leftOut: number[]; curve: SeriesPoint[] },
  workers: number,
  resolutionPct: number,
): string {
  const { held, broke } = end;
  const p95 = end.curve.find((p) => p.x === held)?.y ?? 0;
  const atHeld = held > 0 ? ` (p95 ${millis(p95)} ms at ${held}/s)` : '';
  const found = broke
    ? `${kneeText(held, broke.rate, resolutionPct, broke.verdict, atHeld)} over ${workers} workers; ` +
      `the SLO broke at ${broke.rate}/s: ${broke.verdict.reasons.join('; ')}`
    : held > 0
      ? `capacity ≥ ${held}/s${atHeld} over ${workers} workers: every step the workers ran held`
      : `no sustainable rate over ${workers} workers`;
  const left = end.leftOut.length ? `; left out, not every worker ran ${end.leftOut.join(', ')}/s` : '';
  return `judged again on the merged workers: ${found}${left}`;
}

/**
 * `merged` (from mergeRuns: histograms already added) with the curve, the capacity counters and the
 * capacity check judged on the union of `parts` (one capacity result per merged worker).
 */
export function recomputeCapacity(merged: ScenarioResult, parts: ScenarioResult[]): ScenarioResult {
  const slo = sloOf(merged.params);
  if (!slo || parts.length === 0) return merged;
  const { rates, leftOut } = commonSteps(parts);
  const curve: SeriesPoint[] = [];
  let held = 0;
  let broke: { rate: number; verdict: StepVerdict } | undefined;
  for (const rate of rates) {
    const points = parts.map((p) => p.series![CAPACITY_SERIES]!.find((q) => q.x === rate)!);
    const { verdict, point } = judgeMerged(merged, points, rate, slo);
    curve.push(point);
    if (verdict.reasons.length > 0) {
      broke = { rate, verdict };
      break;
    }
    held = rate;
  }
  const resolutionPct = typeof merged.params.resolutionPct === 'number' ? merged.params.resolutionPct : 0;
  const detail = mergedDetail({ held, leftOut, curve, ...(broke ? { broke } : {}) }, parts.length, resolutionPct);
  const byRig = held > 0 && broke?.verdict.byRig === true;
  return withCapacity(merged, { curve, held, brokeAt: broke?.rate ?? 0, byRig, detail, slo });
}

/** The merged result with the capacity found: counters, check, verdict, curve and what is not judged. */
function withCapacity(
  merged: ScenarioResult,
  c: { curve: SeriesPoint[]; held: number; brokeAt: number; byRig: boolean; detail: string; slo: CapacitySlo },
): ScenarioResult {
  const name = capacityCheckName(c.slo);
  const check = { name, ok: c.held > 0, detail: c.detail };
  const otherChecks = merged.checks.filter((x) => x.name !== name);
  const ended = merged.verdict === 'errored' || merged.verdict === 'interrupted';
  const verdict = ended ? merged.verdict : check.ok && otherChecks.every((x) => x.ok) ? 'passed' : 'failed';
  const series = { ...(merged.series ?? {}) };
  for (const key of Object.keys(series)) if (key.endsWith(`: ${CAPACITY_SERIES}`)) delete series[key];
  series[CAPACITY_SERIES] = c.curve;
  const { capacity_per_s: _workers, ...notJudged } = merged.notJudged ?? {};
  if (c.byRig) notJudged.capacity_per_s = c.detail;
  const { notJudged: _, ...rest } = merged;
  return {
    ...rest,
    verdict,
    ...(verdict === 'failed' && !check.ok ? { reason: `${name}: ${check.detail}` } : {}),
    ...(verdict === 'passed' ? { reason: undefined } : {}),
    checks: [...otherChecks, check],
    counters: {
      ...merged.counters,
      steps: c.curve.length,
      capacity_per_s: c.held,
      slo_broken_at_per_s: c.brokeAt,
      capacity_rig_limited: c.byRig ? 1 : 0,
    },
    ...(Object.keys(notJudged).length ? { notJudged } : {}),
    series,
  };
}
