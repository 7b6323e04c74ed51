// Latency metrics of several runs added (mergeRuns.ts): HDR histograms bucket by bucket and the
// summaries recomputed from the sum, so a merged p99 is the p99 of all samples, never an average.
import { LatencyHistogram } from '../../metrics/latencyHistogram.ts';
import { UserError } from '../../protocol/userError.ts';
import type { MetricResult, ScenarioResult } from '../../results/runResult.ts';

/** Latency metrics by name, added: `what` names one in an error (`<scenario>/<metric> of run <id>`). */
export function addMetrics(
  entries: Array<{ name: string; metric: MetricResult; what: string }>,
): Map<string, MetricResult> {
  const sums = new Map<string, LatencyHistogram>();
  // A decoded histogram knows min and max only to its bucket (3 significant digits); the sources'
  // summaries hold the values as recorded, so the extremes of the union come from them.
  const extremes = new Map<string, { min: number; max: number }>();
  for (const { name, metric, what } of entries) {
    if (metric.count > 0) {
      const seen = extremes.get(name);
      extremes.set(
        name,
        seen
          ? { min: Math.min(seen.min, metric.min), max: Math.max(seen.max, metric.max) }
          : { min: metric.min, max: metric.max },
      );
    }
    let histogram: LatencyHistogram;
    try {
      histogram = LatencyHistogram.decode(metric.hdr).withPolled(metric.polled);
    } catch (err) {
      throw new UserError(`metric ${what} has an unreadable hdr histogram (${(err as Error).message})`);
    }
    const sum = sums.get(name);
    if (sum) sum.add(histogram);
    else sums.set(name, histogram);
  }
  const metrics = new Map<string, MetricResult>();
  for (const [name, histogram] of sums)
    metrics.set(name, { ...histogram.summary(), ...extremes.get(name), hdr: histogram.encode() });
  return metrics;
}

export function mergeMetrics(
  parts: ScenarioResult[],
  label: (s: ScenarioResult) => string,
): Record<string, MetricResult> {
  const entries = parts.flatMap((part) =>
    Object.entries(part.metrics).map(([name, metric]) => ({
      name,
      metric,
      what: `${part.name}/${name} of ${label(part)}`,
    })),
  );
  return Object.fromEntries(addMetrics(entries));
}
