// Adds up runs of the same scenarios (workers on several machines, running at the same time) into
// one result. Latency histograms are added bucket by bucket and the summaries recomputed from the
// sum, so the merged p99 is the p99 of all samples — never an average of percentiles.
//
// Per scenario (matched by name; order of first appearance):
// - metrics: HDR histograms added exactly; counters: summed;
// - verdict: the worst, failed > errored > passed > skipped (skipped only if skipped everywhere);
// - checks: the k-th check of a name in one run is the same check as the k-th of that name in
//   another: it passes only if it passed in every run that made it, and its detail names the runs;
// - durationMs: the longest (the workers ran side by side), so counter rates are per wall second;
// - timeline: buckets re-cut to the widest source width (widths are 100 ms × 2^k, so they nest),
//   then count, min and max combined exactly and means weighted by count;
// - series (curves such as capacity's p95 against offered rate) do not add up: each run's curve
//   is kept, named after its run when several runs have it; faultEvents and the run's toxics are
//   the first run's that has them (the workers ran the same scenario).
// Only runs of the same agent by the same rig add up (runIdentity.ts): runs whose target, agent
// card or rig version differ are refused unless forced, and a forced merge records what differed.
import { LatencyHistogram } from '../metrics/latencyHistogram.ts';
import { UserError } from '../protocol/userError.ts';
import { identityDifferences } from './runIdentity.ts';
import { baseName } from './metricNames.ts';
import type { TimelinePoint, TimelineRecord } from '../metrics/latencyTimeline.ts';
import { RESULTS_SCHEMA, overallVerdict, type CheckResult, type MergeSource, type MetricResult, type RunResult, type ScenarioResult, type SeriesPoint, type Verdict } from './runResult.ts';

export interface MergeInput {
  run: RunResult;
  /** Where it was read from (recorded in mergedFrom). */
  path: string;
}

const SEVERITY: Record<Verdict, number> = { 'not-run': 0, skipped: 0, passed: 1, interrupted: 2, errored: 2, failed: 3 };

function worst(verdicts: Verdict[]): Verdict {
  return verdicts.reduce((a, b) => (SEVERITY[b] > SEVERITY[a] ? b : a));
}

function mergeMetrics(parts: ScenarioResult[], label: (s: ScenarioResult) => string): Record<string, MetricResult> {
  const sums = new Map<string, LatencyHistogram>();
  // A decoded histogram knows min and max only to its bucket (3 significant digits); the sources'
  // summaries hold the values as recorded, so the extremes of the union come from them.
  const extremes = new Map<string, { min: number; max: number }>();
  for (const part of parts) {
    for (const [name, metric] of Object.entries(part.metrics)) {
      if (metric.count > 0) {
        const seen = extremes.get(name);
        extremes.set(name, seen ? { min: Math.min(seen.min, metric.min), max: Math.max(seen.max, metric.max) } : { min: metric.min, max: metric.max });
      }
      let histogram: LatencyHistogram;
      try {
        histogram = LatencyHistogram.decode(metric.hdr);
      } catch (err) {
        throw new UserError(`metric ${part.name}/${name} of ${label(part)} has an unreadable hdr histogram (${(err as Error).message})`);
      }
      const sum = sums.get(name);
      if (sum) sum.add(histogram);
      else sums.set(name, histogram);
    }
  }
  const metrics: Record<string, MetricResult> = {};
  for (const [name, histogram] of sums) metrics[name] = { ...histogram.summary(), ...extremes.get(name), hdr: histogram.encode() };
  return metrics;
}

function mergeCounters(parts: ScenarioResult[]): Record<string, number> {
  const counters: Record<string, number> = {};
  // A `measure` (a ratio, MB, seconds) does not add up across workers: the merge keeps the worst part.
  const measure = (name: string) => parts.some((p) => Object.entries(p.records?.counters ?? {}).some(([d, kind]) => kind === 'measure' && baseName(d) === baseName(name)));
  for (const part of parts) for (const [name, n] of Object.entries(part.counters)) counters[name] = measure(name) ? Math.max(counters[name] ?? n, n) : (counters[name] ?? 0) + n;
  return counters;
}

function mergeChecks(parts: ScenarioResult[], label: (s: ScenarioResult) => string): CheckResult[] {
  const merged = new Map<string, { name: string; sightings: Array<{ from: string; check: CheckResult }> }>();
  for (const part of parts) {
    const seen = new Map<string, number>();
    for (const check of part.checks) {
      const k = seen.get(check.name) ?? 0;
      seen.set(check.name, k + 1);
      const key = `${k}\u0000${check.name}`;
      const entry = merged.get(key) ?? { name: check.name, sightings: [] };
      entry.sightings.push({ from: label(part), check });
      merged.set(key, entry);
    }
  }
  return [...merged.values()].map(({ name, sightings }) => {
    const ok = sightings.every((s) => s.check.ok);
    const details = sightings.filter((s) => s.check.detail !== undefined || !s.check.ok).map((s) => `${s.from}: ${s.check.ok ? '' : 'FAILED '}${s.check.detail ?? ''}`.trim());
    const detail = sightings.length === 1 ? sightings[0]!.check.detail : details.length ? details.join('; ') : undefined;
    return detail === undefined ? { name, ok } : { name, ok, detail };
  });
}

function mergeTimelines(records: TimelineRecord[]): TimelineRecord | undefined {
  if (records.length === 0) return undefined;
  if (records.length === 1) return records[0];
  const bucketMs = Math.max(...records.map((r) => r.bucketMs));
  const buckets = new Map<string, TimelinePoint>();
  for (const point of records.flatMap((r) => r.points)) {
    const t = Math.floor(point.t / bucketMs) * bucketMs;
    const key = `${point.metric}\u0000${t}`;
    const seen = buckets.get(key);
    if (!seen) buckets.set(key, { ...point, t });
    else {
      const count = seen.count + point.count;
      buckets.set(key, { t, metric: point.metric, count, mean: Math.round((seen.mean * seen.count + point.mean * point.count) / count), min: Math.min(seen.min, point.min), max: Math.max(seen.max, point.max) });
    }
  }
  const points = [...buckets.values()].sort((a, b) => (a.metric === b.metric ? a.t - b.t : a.metric < b.metric ? -1 : 1));
  return { bucketMs, points };
}

function mergeSeries(parts: ScenarioResult[], owner: (s: ScenarioResult) => string): Record<string, SeriesPoint[]> | undefined {
  const holders = new Map<string, number>();
  for (const part of parts) for (const name of Object.keys(part.series ?? {})) holders.set(name, (holders.get(name) ?? 0) + 1);
  if (holders.size === 0) return undefined;
  const series: Record<string, SeriesPoint[]> = {};
  for (const part of parts) {
    for (const [name, points] of Object.entries(part.series ?? {})) series[holders.get(name)! > 1 ? `${owner(part)}: ${name}` : name] = points;
  }
  return series;
}

function mergeScenario(parts: ScenarioResult[], label: (s: ScenarioResult) => string, owner: (s: ScenarioResult) => string): ScenarioResult {
  const first = parts[0]!;
  const verdict = worst(parts.map((p) => p.verdict));
  const because = parts.find((p) => p.verdict === verdict && p.reason);
  const timeline = mergeTimelines(parts.flatMap((p) => (p.timeline ? [p.timeline] : [])));
  const series = mergeSeries(parts, owner);
  const faultEvents = parts.find((p) => p.faultEvents)?.faultEvents;
  return {
    name: first.name,
    description: first.description,
    tags: first.tags,
    verdict,
    ...(because ? { reason: parts.length > 1 ? `${label(because)}: ${because.reason}` : because.reason } : {}),
    durationMs: Math.max(...parts.map((p) => p.durationMs)),
    params: first.params,
    checks: mergeChecks(parts, label),
    metrics: mergeMetrics(parts, label),
    counters: mergeCounters(parts),
    ...(timeline ? { timeline } : {}),
    ...(faultEvents ? { faultEvents } : {}),
    ...(series ? { series } : {}),
    ...(first.records ? { records: first.records } : {}),
  };
}

function distinct(values: string[]): string {
  return [...new Set(values)].join('+');
}

/** The busiest source's load, so compare's overload guard sees the worst machine of a merge. */
function loadOf(runs: RunResult[]): { loadPerCore?: number } {
  const loads = runs.flatMap((r) => (r.rig.loadPerCore === undefined ? [] : [r.rig.loadPerCore]));
  return loads.length ? { loadPerCore: Math.max(...loads) } : {};
}

/** One result that adds up the given runs. */
export function mergeRuns(inputs: MergeInput[], runId: string, options: { force?: boolean } = {}): RunResult {
  if (inputs.length === 0) throw new UserError('merge needs at least one results directory');
  const differences = identityDifferences(inputs);
  if (differences.length > 0 && !options.force) {
    const more = differences.length > 1 ? ` (and ${differences.length - 1} more field${differences.length > 2 ? 's' : ''})` : '';
    throw new UserError(`cannot merge runs of different agents or rigs: ${differences[0]}${more}; pass --force to merge them anyway`);
  }
  const owner = new Map<ScenarioResult, string>();
  const byName = new Map<string, ScenarioResult[]>();
  for (const { run } of inputs) {
    if (run.schema !== RESULTS_SCHEMA) throw new UserError(`run ${run.runId} has schema ${run.schema}, expected ${RESULTS_SCHEMA}`);
    for (const s of run.scenarios) {
      owner.set(s, run.runId);
      byName.set(s.name, [...(byName.get(s.name) ?? []), s]);
    }
  }
  const label = (s: ScenarioResult) => `run ${owner.get(s)}`;
  const scenarios = [...byName.values()].map((parts) => mergeScenario(parts, label, (s) => owner.get(s)!));
  const runs = inputs.map((i) => i.run);
  const first = runs[0]!;
  const startedAt = runs.map((r) => r.startedAt).sort()[0]!;
  const finishedAt = runs.map((r) => r.finishedAt).sort().at(-1)!;
  const toxics = runs.find((r) => r.toxics)?.toxics;
  const mergedFrom: MergeSource[] = inputs.map(({ run, path }) => ({ runId: run.runId, path, profile: run.profile, verdict: run.verdict, platform: run.rig.platform, target: run.target, rigVersion: run.rig.version }));
  return {
    schema: RESULTS_SCHEMA,
    runId,
    startedAt,
    finishedAt,
    durationMs: Math.max(...runs.map((r) => r.durationMs)),
    profile: distinct(runs.map((r) => r.profile)),
    rig: { ...first.rig, cpus: runs.reduce((sum, r) => sum + r.rig.cpus, 0), ...loadOf(runs) },
    target: first.target,
    proxy: first.proxy,
    verdict: overallVerdict(scenarios),
    scenarios,
    mergedFrom,
    ...(differences.length > 0 ? { mergeForced: { differences } } : {}),
    ...(toxics ? { toxics } : {}),
  };
}
