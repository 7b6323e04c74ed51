// A distributed run's capacity, judged again on the whole: N workers each offered 1/N of every step
// (their `round_trip{rate=R}` carries the total rate R), so a step's verdict is the SLO applied to
// the union of their round trips: arrivals, errors and drops summed, the p95 from the merged
// histogram. Adding the workers' capacities would be wrong twice over: each judged only its share,
// and their searches may have stopped at different steps. The search of the whole stops at the
// first step that breaks the SLO, or that not every merged worker ran.
import { LatencyHistogram } from '../metrics/latencyHistogram.ts';
import { CAPACITY_SERIES, capacityCheckName, sloBreaches, type CapacitySlo } from '../load/capacitySlo.ts';
import type { ScenarioResult, SeriesPoint } from '../results/runResult.ts';

const f = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(0));
const num = (p: SeriesPoint, field: string) => (typeof p[field] === 'number' ? (p[field] as number) : 0);

function sloOf(params: Record<string, unknown>): CapacitySlo | undefined {
  const { sloP95Ms, sloMaxErrorPct, sloMaxDroppedPct } = params;
  if (typeof sloP95Ms !== 'number' || typeof sloMaxErrorPct !== 'number' || typeof sloMaxDroppedPct !== 'number')
    return undefined;
  return { sloP95Ms, sloMaxErrorPct, sloMaxDroppedPct };
}

/** The rates every worker stepped through, in order, up to the first one some worker did not run. */
function commonSteps(parts: ScenarioResult[]): { rates: number[]; stoppedShort?: string } {
  const curves = parts.map((p) => p.series?.[CAPACITY_SERIES] ?? []);
  const longest = curves.reduce((a, b) => (b.length > a.length ? b : a), []);
  const rates: number[] = [];
  for (const point of longest) {
    const without = curves.findIndex((c) => !c.some((q) => q.x === point.x));
    if (without >= 0) return { rates, stoppedShort: `not every worker ran ${point.x}/s` };
    rates.push(point.x);
  }
  return { rates };
}

/**
 * `merged` (from mergeRuns: histograms already added) with the curve, the capacity counters and the
 * capacity check judged on the union of `parts` (one capacity result per merged worker).
 */
export function recomputeCapacity(merged: ScenarioResult, parts: ScenarioResult[]): ScenarioResult {
  const slo = sloOf(merged.params);
  if (!slo || parts.length === 0) return merged;
  const { rates, stoppedShort } = commonSteps(parts);
  const curve: SeriesPoint[] = [];
  let capacity = 0;
  let broke: { rate: number; reasons: string[] } | undefined;
  for (const rate of rates) {
    const points = parts.map((p) => p.series![CAPACITY_SERIES]!.find((q) => q.x === rate)!);
    const metric = merged.metrics[`round_trip{rate=${rate}}`];
    const latency = metric ? LatencyHistogram.decode(metric.hdr) : new LatencyHistogram();
    const sum = (field: string) => points.reduce((n, p) => n + num(p, field), 0);
    const step = {
      scheduled: sum('arrivals'),
      errors: sum('errors'),
      dropped: sum('dropped'),
      completed: latency.count,
      p95Ms: latency.percentileMs(95),
    };
    const reasons = sloBreaches(step, slo);
    curve.push({
      x: rate,
      y: step.p95Ms,
      p50_ms: latency.percentileMs(50),
      p99_ms: latency.percentileMs(99),
      achieved_per_s: Math.round(sum('achieved_per_s') * 10) / 10,
      arrivals: step.scheduled,
      errors: step.errors,
      dropped: step.dropped,
      late: sum('late'),
      sustainable: reasons.length === 0,
      workers: points.length,
    });
    if (reasons.length > 0) {
      broke = { rate, reasons };
      break;
    }
    capacity = rate;
  }
  const capacityP95 = curve.find((p) => p.x === capacity)?.y ?? 0;
  const found =
    capacity > 0
      ? `highest sustainable rate ${capacity} round trips/s (p95 ${f(capacityP95)} ms) over ${parts.length} workers`
      : `no sustainable rate over ${parts.length} workers`;
  const end = broke
    ? `; the SLO broke at ${broke.rate}/s: ${broke.reasons.join('; ')}`
    : stoppedShort
      ? `; the search ends where ${stoppedShort}`
      : '; every step the workers ran held';
  const name = capacityCheckName(slo);
  const check = { name, ok: capacity > 0, detail: `judged again on the merged workers: ${found}${end}` };
  const otherChecks = merged.checks.filter((c) => c.name !== name);
  const ended = merged.verdict === 'errored' || merged.verdict === 'interrupted';
  const verdict = ended ? merged.verdict : check.ok && otherChecks.every((c) => c.ok) ? 'passed' : 'failed';
  const series = { ...(merged.series ?? {}) };
  for (const key of Object.keys(series)) if (key.endsWith(`: ${CAPACITY_SERIES}`)) delete series[key];
  series[CAPACITY_SERIES] = curve;
  return {
    ...merged,
    verdict,
    ...(verdict === 'failed' && !check.ok ? { reason: `${name}: ${check.detail}` } : {}),
    ...(verdict === 'passed' ? { reason: undefined } : {}),
    checks: [...otherChecks, check],
    counters: {
      ...merged.counters,
      steps: curve.length,
      capacity_per_s: capacity,
      slo_broken_at_per_s: broke?.rate ?? 0,
    },
    series,
  };
}
