// A distributed run's workers into one result: mergeRuns adds them up (histograms exactly), then
// the capacity scenario is judged again on the union (shardCapacity.ts: each worker judged only its
// 1/N share), the run's verdict follows from the recomputed scenarios, and `shards` records the
// set: one row per worker beside the total, how they started, and what a partial merge lacks.
import { dirname } from 'node:path';
import { CAPACITY_SERIES } from '../../load/capacitySlo.ts';
import { overallVerdict, type RunResult, type ScenarioResult } from '../../results/runResult.ts';
import type { ShardSetRecord, WorkerRow } from '../../results/shardRecord.ts';
import type { ShardInput, ShardSetCheck } from '../../results/shardSet.ts';
import { mergeRuns } from './mergeRuns.ts';
import { recomputeCapacity } from './shardCapacity.ts';
import { sumTraffic, trafficOf } from './trafficTotals.ts';

/** The merged set's run id: the id every worker was given, so the result is found beside them. */
export const shardSetRunId = (setRunId: string) => `${setRunId}-merged`;

function workerRow({ run, path }: ShardInput): WorkerRow {
  const shard = run.shard!;
  const traffic = sumTraffic(trafficOf(run.scenarios));
  return {
    index: shard.index,
    host: shard.host,
    path: dirname(path),
    verdict: run.verdict,
    scenarios: run.scenarios.length,
    requests: traffic.requests,
    failedRequests: traffic.failed,
    startedAt: new Date(shard.startedEpochMs).toISOString(),
    startLagMs: shard.startedEpochMs - shard.plannedStartEpochMs,
    ...(shard.clockOffsetMs === undefined ? {} : { clockOffsetMs: shard.clockOffsetMs }),
  };
}

const spread = (values: number[]) => Math.max(...values) - Math.min(...values);

function shardSetRecord(check: ShardSetCheck, merged: ShardInput[]): ShardSetRecord {
  const shards = merged.map((i) => i.run.shard!);
  const offsets = shards.flatMap((s) => (s.clockOffsetMs === undefined ? [] : [s.clockOffsetMs]));
  return {
    setRunId: check.setRunId,
    count: check.count,
    merged: check.merged,
    missing: check.missing,
    partial: check.partial,
    workers: merged.map(workerRow),
    barrier: shards[0]!.barrier,
    ...(offsets.length === shards.length ? { clockSkewMs: spread(offsets) } : {}),
    // On one clock where the offsets were measured: the shared directory's.
    startSpreadMs: spread(shards.map((s) => s.startedEpochMs + (s.clockOffsetMs ?? 0))),
  };
}

/**
 * One result for the checked set: the workers not interrupted merged, capacity recomputed on their
 * union, the verdict recomputed, `shards` attached. Thresholds are the caller's, applied after.
 */
export function mergeShardSet(
  inputs: ShardInput[],
  check: ShardSetCheck,
  options: { force?: boolean } = {},
): RunResult {
  const merged = inputs
    .filter((i) => i.run.verdict !== 'interrupted')
    .sort((a, b) => a.run.shard!.index - b.run.shard!.index);
  const union = mergeRuns(merged, shardSetRunId(check.setRunId), options);
  const partsOf = (name: string): ScenarioResult[] =>
    merged.flatMap(({ run }) => run.scenarios.filter((s) => s.name === name && s.series?.[CAPACITY_SERIES]));
  const scenarios = union.scenarios.map((s) => {
    const parts = partsOf(s.name);
    return parts.length > 0 ? recomputeCapacity(s, parts) : s;
  });
  return { ...union, verdict: overallVerdict(scenarios), scenarios, shards: shardSetRecord(check, merged) };
}
