// What each scenario headlines: the one latency its line in the terminal summary shows
// (terminalSummary.ts), picked from the metric keys' families and labels.
import { baseName } from '../results/metricNames.ts';
import type { MetricResult, ScenarioResult } from '../results/runResult.ts';

/** The labels of a metric key, `name{a=1,b=2}` → { a: "1", b: "2" }. */
export function labelsOf(key: string): Record<string, string> {
  const brace = key.indexOf('{');
  if (brace < 0) return {};
  return Object.fromEntries(
    key
      .slice(brace + 1, -1)
      .split(',')
      .map((pair) => pair.split('=') as [string, string]),
  );
}

/**
 * The latency a scenario's line shows: of its first declared latency (its `records`, else the first
 * recorded) that has samples; of a labelled one, the series at the capacity found (capacity), the
 * attack phase (DoS), else the one with the most samples.
 */
export function headlineMetric(s: ScenarioResult): { key: string; metric: MetricResult } | undefined {
  const keys = Object.keys(s.metrics);
  const families = [...new Set([...(s.records?.latencies ?? []).map(baseName), ...keys.map(baseName)])];
  for (const family of families) {
    const members = keys.filter((k) => baseName(k) === family && s.metrics[k]!.count > 0);
    if (members.length === 0) continue;
    const capacity = s.counters.capacity_per_s;
    const chosen =
      (capacity ? members.find((k) => labelsOf(k).rate === String(capacity)) : undefined) ??
      members.find((k) => labelsOf(k).phase === 'during') ??
      members.reduce((best, k) => (s.metrics[k]!.count > s.metrics[best]!.count ? k : best));
    return { key: chosen, metric: s.metrics[chosen]! };
  }
  const first = keys[0];
  return first === undefined ? undefined : { key: first, metric: s.metrics[first]! };
}
