// Which worker of a distributed run this process is: shard `index` of `count` (0-based), one of N
// rig workers that each offer 1/N of every open-model rate and write their own results, which
// `merge` adds up. Given as `--shard i/N`, or as `--shard N` with the index from the orchestrator:
// a Kubernetes Indexed Job sets JOB_COMPLETION_INDEX (0-based); a Docker Swarm service passes its
// task slot ({{.Task.Slot}}, 1-based) as A2A_RIG_TASK_SLOT.
import { UserError } from '../protocol/userError.ts';

export interface ShardIdentity {
  index: number;
  count: number;
}

/** Environment variables that carry a worker's index, and how each counts. */
export const SHARD_INDEX_SOURCES = [
  { variable: 'JOB_COMPLETION_INDEX', base: 0, orchestrator: 'a Kubernetes Indexed Job' },
  { variable: 'A2A_RIG_TASK_SLOT', base: 1, orchestrator: 'a Docker Swarm task slot ({{.Task.Slot}})' },
] as const;

/** Most workers one run may have: far past what one agent fleet needs, short of a typo's 1e9. */
export const MAX_SHARDS = 1024;

function wholeNumber(text: string, what: string): number {
  if (!/^\d+$/.test(text.trim())) throw new UserError(`${what} must be a whole number, got "${text}"`);
  return Number(text.trim());
}

function indexFromEnvironment(count: number, env: NodeJS.ProcessEnv): number {
  const given = SHARD_INDEX_SOURCES.filter((s) => env[s.variable] !== undefined && env[s.variable] !== '');
  if (given.length === 0) {
    const names = SHARD_INDEX_SOURCES.map((s) => `${s.variable} (${s.orchestrator})`).join(' or ');
    throw new UserError(`--shard ${count} takes this worker's index from ${names}, and neither is set`);
  }
  const indices = given.map((s) => ({ s, index: wholeNumber(env[s.variable]!, s.variable) - s.base }));
  const differing = new Set(indices.map((i) => i.index));
  if (differing.size > 1) {
    const said = indices.map((i) => `${i.s.variable}=${env[i.s.variable]} (index ${i.index})`).join(', ');
    throw new UserError(`--shard ${count}: the environment names two different indices: ${said}`);
  }
  const { s, index } = indices[0]!;
  if (index < 0 || index >= count)
    throw new UserError(
      `--shard ${count}: ${s.variable}=${env[s.variable]} is worker ${index}, outside 0..${count - 1}`,
    );
  return index;
}

/** `--shard i/N` or `--shard N` (the index from `env`), checked. */
export function parseShard(text: string, env: NodeJS.ProcessEnv = process.env): ShardIdentity {
  const [first, second, ...rest] = text.split('/');
  if (rest.length > 0 || first === undefined || first.trim() === '')
    throw new UserError(`--shard must be i/N (worker i of N, from 0) or N, got "${text}"`);
  const count = wholeNumber(second ?? first, '--shard N');
  if (count < 1 || count > MAX_SHARDS) throw new UserError(`--shard: N must be 1..${MAX_SHARDS}, got ${count}`);
  if (second === undefined) return { index: indexFromEnvironment(count, env), count };
  const index = wholeNumber(first, '--shard i');
  if (index >= count) throw new UserError(`--shard ${text}: worker ${index} does not exist in 0..${count - 1}`);
  return { index, count };
}

/** The directory name a worker writes its results to inside the shard set's directory. */
export function shardDirectoryName(shard: ShardIdentity): string {
  return `shard-${shard.index}`;
}

/** `2/3` style, for messages. */
export function shardLabel(shard: ShardIdentity): string {
  return `${shard.index}/${shard.count}`;
}
