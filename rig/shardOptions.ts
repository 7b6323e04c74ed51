// `run --shard`: this process as one worker of a distributed run. It checks the worker's identity
// and run id, chooses what it runs (shardable scenarios on every worker, the rest on worker 0),
// where it writes (the set's directory: <out>/shard-<i>/) and how it meets the others (a barrier
// in <out>/.barrier/, or --start-at). rig/results/shardIdentity.ts and rig/engine/environment/startBarrier.ts
// say why; docs/distributed.md how to run it on Swarm and Kubernetes.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { UserError } from './protocol/userError.ts';
import type { ScenarioDefinition } from './engine/kit/defineScenario.ts';
import { meetInDirectory, parseStartAt, startAt } from './engine/environment/startBarrier.ts';
import { parseShard, shardDirectoryName, type ShardIdentity } from './results/shardIdentity.ts';
import type { ShardRecord, ShardStart } from './results/shardRecord.ts';

export interface ShardFlags {
  shard?: string;
  runId?: string;
  startAt?: string;
  barrierTimeout?: string;
}

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
export const DEFAULT_BARRIER_TIMEOUT_S = 120;

export interface ShardedRun {
  identity: ShardIdentity;
  setRunId: string;
  /** This worker's own run id. */
  runId: string;
  /** Where this worker writes its results. */
  out: string;
  scenarios: ScenarioDefinition<object>[];
  record: Omit<ShardRecord, keyof ShardStart>;
  meet: (signal: AbortSignal) => Promise<ShardStart>;
}

/** Undefined without --shard; the worker's plan otherwise (or a UserError saying what is wrong). */
export function shardedRun(
  flags: ShardFlags & { out?: string },
  selected: ScenarioDefinition<object>[],
  env: NodeJS.ProcessEnv = process.env,
): ShardedRun | undefined {
  if (flags.shard === undefined) {
    if (flags.runId !== undefined || flags.startAt !== undefined)
      throw new UserError('--run-id and --start-at belong to a distributed run: give --shard too');
    return undefined;
  }
  const identity = parseShard(flags.shard, env);
  const setRunId = flags.runId ?? env.A2A_RIG_RUN_ID;
  if (!setRunId) throw new UserError('--shard needs --run-id (or A2A_RIG_RUN_ID): the id all workers of the run share');
  if (!RUN_ID.test(setRunId))
    throw new UserError(`--run-id must be letters, digits, '.', '_' or '-' (at most 128), got "${setRunId}"`);
  const timeoutS = Number(flags.barrierTimeout ?? DEFAULT_BARRIER_TIMEOUT_S);
  if (!Number.isFinite(timeoutS) || timeoutS <= 0 || timeoutS > 86_400)
    throw new UserError(`--barrier-timeout must be seconds in (0, 86400], got "${flags.barrierTimeout}"`);
  const startEpoch = flags.startAt === undefined ? undefined : parseStartAt(flags.startAt);
  const shared = selected.filter((s) => s.shardable);
  if (shared.length === 0) {
    const names = selected.map((s) => s.name).join(', ');
    throw new UserError(
      `--shard: none of the selected scenarios (${names}) splits its load across workers ` +
        '(capacity does): run them without --shard',
    );
  }
  const scenarios = identity.index === 0 ? selected : shared;
  const setDir = flags.out ?? join('results', setRunId);
  const barrierDir = join(setDir, '.barrier');
  return {
    identity,
    setRunId,
    runId: `${setRunId}-shard${identity.index}`,
    out: join(setDir, shardDirectoryName(identity)),
    scenarios,
    record: {
      index: identity.index,
      count: identity.count,
      setRunId,
      plan: selected.map((s) => s.name),
      ran: scenarios.map((s) => s.name),
      host: hostname(),
    },
    meet: (signal) =>
      startEpoch !== undefined
        ? startAt(startEpoch, signal)
        : meetInDirectory({
            dir: barrierDir,
            runId: setRunId,
            index: identity.index,
            count: identity.count,
            timeoutMs: timeoutS * 1000,
            signal,
          }),
  };
}

/** The line a worker says once it starts its share (the Swarm test waits for it). */
export function startedLine(run: ShardedRun, start: ShardStart): string {
  const offset = start.clockOffsetMs === undefined ? '' : `, clock ${start.clockOffsetMs} ms from the barrier's`;
  return (
    `worker ${run.identity.index} of ${run.identity.count} (run ${run.setRunId}) started at ` +
    `${new Date(start.startedEpochMs).toISOString()} (${start.startedEpochMs - start.plannedStartEpochMs} ms after ` +
    `the planned start, waited ${(start.waitedMs / 1000).toFixed(1)} s${offset})`
  );
}
