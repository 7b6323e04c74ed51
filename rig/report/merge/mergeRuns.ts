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
//   the first run's that has them (the workers ran the same scenario);
// - traffic: operations by name, counts and bytes summed, latency histograms added exactly; totals
//   summed; points re-cut to the widest width and added: completed, errors, offered, achieved and
//   in-flight (busy time, so it adds exactly), the most in flight at once as the sum of each run's
//   most (an upper bound: the runs' peaks need not have coincided);
// - log: each run's lines in turn, each line prefixed with its run (`<runId>: `), cut like a
//   scenario's own (the first and last LOG_LINES_KEPT / 2, logDropped the rest and the runs' own drops);
// - stack: the errored run's (the one the verdict's reason comes from);
// - health (the rig's own load, rigHealth.ts): the worst of each figure (worstHealth), schedule
//   starts and late starts summed; the time series kept only when one run has it (the workers'
//   windows do not line up). The run's `rig.health` likewise over the sources'.
// Only runs of the same agent by the same rig add up (runIdentity.ts): runs whose target, agent
// card or rig version differ are refused unless forced, and a forced merge records what differed.
import { UserError } from '../../protocol/userError.ts';
import { identityDifferences } from '../../results/runIdentity.ts';
import { COUNTER_MEANINGS, declaredCounterKind } from '../../results/metricNames.ts';
import type { TimelinePoint, TimelineRecord } from '../../metrics/latencyTimeline.ts';
import {
  LOG_LINES_KEPT,
  checkNotJudged,
  checkWarned,
  RESULTS_SCHEMA,
  overallVerdict,
  runWarnings,
  type CheckResult,
  type LogLine,
  type MergeSource,
  type RunResult,
  type ScenarioResult,
  type SeriesPoint,
  type Verdict,
} from '../../results/runResult.ts';
import { mergeMetrics } from './mergeMetrics.ts';
import { mergeTraffic } from './mergeTraffic.ts';
import { worstHealth, type RigHealth } from '../../metrics/rigHealth.ts';

export interface MergeInput {
  run: RunResult;
  /** Where it was read from (recorded in mergedFrom). */
  path: string;
}

const SEVERITY: Record<Verdict, number> = {
  'not-run': 0,
  skipped: 0,
  passed: 1,
  // Unsure is worse than a pass, better than a run that broke.
  inconclusive: 1.5,
  interrupted: 2,
  errored: 2,
  failed: 3,
};

function worst(verdicts: Verdict[]): Verdict {
  return verdicts.reduce((a, b) => (SEVERITY[b] > SEVERITY[a] ? b : a));
}

/** Each run's log lines in turn, prefixed with the run; cut to LOG_LINES_KEPT like one scenario's. */
function mergeLog(
  parts: ScenarioResult[],
  owner: (s: ScenarioResult) => string,
): { log?: LogLine[]; logDropped?: number } {
  const holders = parts.filter((p) => p.log?.length || p.logDropped);
  if (holders.length === 0) return {};
  if (holders.length === 1)
    return { log: holders[0]!.log, ...(holders[0]!.logDropped ? { logDropped: holders[0]!.logDropped } : {}) };
  const lines = holders.flatMap((p) => (p.log ?? []).map((l) => ({ t: l.t, line: `${owner(p)}: ${l.line}` })));
  let dropped = holders.reduce((n, p) => n + (p.logDropped ?? 0), 0);
  let kept = lines;
  if (lines.length > LOG_LINES_KEPT) {
    const head = Math.ceil(LOG_LINES_KEPT / 2);
    kept = [...lines.slice(0, head), ...lines.slice(lines.length - (LOG_LINES_KEPT - head))];
    dropped += lines.length - LOG_LINES_KEPT;
  }
  return { log: kept, ...(dropped > 0 ? { logDropped: dropped } : {}) };
}

function mergeCounters(parts: ScenarioResult[]): Record<string, number> {
  const counters: Record<string, number> = {};
  // A `measure` (a ratio, MB, seconds) does not add up across workers: the merge keeps the worst part.
  const measure = (name: string) =>
    parts.some((p) => {
      const kind = declaredCounterKind(p.records, name);
      return kind !== undefined && COUNTER_MEANINGS[kind].combined === 'worst';
    });
  for (const part of parts)
    for (const [name, n] of Object.entries(part.counters))
      counters[name] = measure(name) ? Math.max(counters[name] ?? n, n) : (counters[name] ?? 0) + n;
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
    // Not judged only when some part was not and none failed or warned: a finding anywhere is the finding.
    const unjudged =
      !ok && sightings.every((s) => s.check.ok || checkNotJudged(s.check)) ? { judged: false as const } : {};
    // The same check holds the same rule in every part.
    const level = sightings[0]!.check.level;
    const mark = (c: CheckResult) =>
      checkNotJudged(c) ? 'NOT JUDGED ' : c.ok ? '' : checkWarned(c) ? 'WARNING ' : 'FAILED ';
    const details = sightings
      .filter((s) => s.check.detail !== undefined || !s.check.ok)
      .map((s) => `${s.from}: ${mark(s.check)}${s.check.detail ?? ''}`.trim());
    const detail =
      sightings.length === 1 ? sightings[0]!.check.detail : details.length ? details.join('; ') : undefined;
    return { name, ok, ...(detail === undefined ? {} : { detail }), ...unjudged, ...(level ? { level } : {}) };
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
      buckets.set(key, {
        t,
        metric: point.metric,
        count,
        mean: Math.round((seen.mean * seen.count + point.mean * point.count) / count),
        min: Math.min(seen.min, point.min),
        max: Math.max(seen.max, point.max),
      });
    }
  }
  const points = [...buckets.values()].sort((a, b) =>
    a.metric === b.metric ? a.t - b.t : a.metric < b.metric ? -1 : 1,
  );
  return { bucketMs, points };
}

function mergeSeries(
  parts: ScenarioResult[],
  owner: (s: ScenarioResult) => string,
): Record<string, SeriesPoint[]> | undefined {
  const holders = new Map<string, number>();
  for (const part of parts)
    for (const name of Object.keys(part.series ?? {})) holders.set(name, (holders.get(name) ?? 0) + 1);
  if (holders.size === 0) return undefined;
  const series: Record<string, SeriesPoint[]> = {};
  for (const part of parts) {
    for (const [name, points] of Object.entries(part.series ?? {}))
      series[holders.get(name)! > 1 ? `${owner(part)}: ${name}` : name] = points;
  }
  return series;
}

function mergeScenario(
  parts: ScenarioResult[],
  label: (s: ScenarioResult) => string,
  owner: (s: ScenarioResult) => string,
): ScenarioResult {
  const first = parts[0]!;
  const verdict = worst(parts.map((p) => p.verdict));
  const because = parts.find((p) => p.verdict === verdict && p.reason);
  const timeline = mergeTimelines(parts.flatMap((p) => (p.timeline ? [p.timeline] : [])));
  const series = mergeSeries(parts, owner);
  const faultEvents = parts.find((p) => p.faultEvents)?.faultEvents;
  const traffic = mergeTraffic(parts, label);
  const log = mergeLog(parts, owner);
  const checks = mergeChecks(parts, label);
  const stack =
    verdict === 'errored'
      ? (because?.stack ?? parts.find((p) => p.verdict === 'errored' && p.stack)?.stack)
      : undefined;
  return {
    name: first.name,
    description: first.description,
    tags: first.tags,
    verdict,
    ...(because ? { reason: parts.length > 1 ? `${label(because)}: ${because.reason}` : because.reason } : {}),
    durationMs: Math.max(...parts.map((p) => p.durationMs)),
    params: first.params,
    checks,
    ...(checks.some(checkWarned) ? { warnings: checks.filter(checkWarned).length } : {}),
    metrics: mergeMetrics(parts, label),
    counters: mergeCounters(parts),
    ...(timeline ? { timeline } : {}),
    ...(faultEvents ? { faultEvents } : {}),
    ...(series ? { series } : {}),
    ...(first.records ? { records: first.records } : {}),
    ...(stack ? { stack } : {}),
    ...log,
    ...(traffic ? { traffic } : {}),
    ...healthOf(parts.map((p) => p.health)),
  };
}

/** One part's health as it is; several parts' the worst of each (worstHealth). */
function healthOf(parts: Array<RigHealth | undefined>): { health?: RigHealth } {
  const held = parts.filter((h) => h !== undefined);
  const health = held.length === 1 ? held[0] : worstHealth(held);
  return health ? { health } : {};
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
    const more =
      differences.length > 1 ? ` (and ${differences.length - 1} more field${differences.length > 2 ? 's' : ''})` : '';
    throw new UserError(
      `cannot merge runs of different agents or rigs: ${differences[0]}${more}; pass --force to merge them anyway`,
    );
  }
  const owner = new Map<ScenarioResult, string>();
  const byName = new Map<string, ScenarioResult[]>();
  for (const { run } of inputs) {
    if (run.schema !== RESULTS_SCHEMA)
      throw new UserError(`run ${run.runId} has schema ${run.schema}, expected ${RESULTS_SCHEMA}`);
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
  const finishedAt = runs
    .map((r) => r.finishedAt)
    .sort()
    .at(-1)!;
  const toxics = runs.find((r) => r.toxics)?.toxics;
  const mergedFrom: MergeSource[] = inputs.map(({ run, path }) => ({
    runId: run.runId,
    path,
    profile: run.profile,
    verdict: run.verdict,
    platform: run.rig.platform,
    target: run.target,
    rigVersion: run.rig.version,
  }));
  return {
    schema: RESULTS_SCHEMA,
    runId,
    startedAt,
    finishedAt,
    durationMs: Math.max(...runs.map((r) => r.durationMs)),
    profile: distinct(runs.map((r) => r.profile)),
    rig: {
      ...first.rig,
      cpus: runs.reduce((sum, r) => sum + r.rig.cpus, 0),
      ...loadOf(runs),
      ...healthOf(runs.map((r) => r.rig.health)),
    },
    target: first.target,
    proxy: first.proxy,
    verdict: overallVerdict(scenarios),
    scenarios,
    ...runWarnings(
      scenarios,
      runs.some((r) => r.strict),
    ),
    mergedFrom,
    ...(differences.length > 0 ? { mergeForced: { differences } } : {}),
    ...(toxics ? { toxics } : {}),
  };
}
