// Whether the results given to `merge` are one whole shard set: the workers of one distributed run
// (same run id, same N, same profile and scenarios), each of 0..N-1 exactly once, none cut short.
// A missing or interrupted worker means less load was offered than the run claims: merging N-1
// would understate every rate, so it is refused unless asked for, and then the result says so.
import { UserError } from '../protocol/userError.ts';
import type { RunResult } from './runResult.ts';

export interface ShardInput {
  run: RunResult;
  path: string;
}

/** A worker directory of the set that holds no results (read by the merge command). */
export interface AbsentShard {
  index: number;
  path: string;
}

export interface ShardSetCheck {
  setRunId: string;
  count: number;
  merged: number[];
  missing: { index: number; why: string }[];
  partial: boolean;
}

function same<T>(inputs: ShardInput[], what: string, value: (i: ShardInput) => T): void {
  const seen = new Map<string, string[]>();
  for (const input of inputs) {
    const key = JSON.stringify(value(input));
    seen.set(key, [...(seen.get(key) ?? []), input.path]);
  }
  if (seen.size > 1) {
    const groups = [...seen.entries()].map(([v, paths]) => `${v} (${paths.join(', ')})`);
    throw new UserError(`merge: the workers do not belong to one run: their ${what} differ: ${groups.join(' vs ')}`);
  }
}

/**
 * Undefined when no input is a shard (an ordinary merge); the checked set otherwise. Throws a
 * UserError for inputs that mix sets or shards and non-shards, a worker given twice, and (unless
 * `partial`) a set with a worker missing or interrupted.
 */
export function checkShardSet(
  inputs: ShardInput[],
  absent: AbsentShard[],
  options: { partial?: boolean } = {},
): ShardSetCheck | undefined {
  const sharded = inputs.filter((i) => i.run.shard);
  if (sharded.length === 0 && absent.length === 0) return undefined;
  if (sharded.length < inputs.length) {
    const plain = inputs.filter((i) => !i.run.shard).map((i) => i.path);
    throw new UserError(`merge: ${plain.join(', ')} not from a --shard worker, the others are: merge them apart`);
  }
  if (sharded.length === 0) {
    const where = absent.map((a) => a.path).join(', ');
    throw new UserError(`merge: no worker of the set left results (${where} hold no results.json)`);
  }
  same(inputs, 'run ids (--run-id)', (i) => i.run.shard!.setRunId);
  same(inputs, 'worker counts (--shard N)', (i) => i.run.shard!.count);
  same(inputs, 'profiles', (i) => i.run.profile);
  same(inputs, 'scenario plans', (i) => i.run.shard!.plan);
  const { setRunId, count } = inputs[0]!.run.shard!;
  const byIndex = new Map<number, string>();
  for (const { run, path } of inputs) {
    const { index } = run.shard!;
    const earlier = byIndex.get(index);
    if (earlier) throw new UserError(`merge: worker ${index} of run ${setRunId} given twice: ${earlier}, ${path}`);
    byIndex.set(index, path);
  }
  const missing: { index: number; why: string }[] = [];
  for (let index = 0; index < count; index++) {
    const input = inputs.find((i) => i.run.shard!.index === index);
    const dir = absent.find((a) => a.index === index);
    if (input?.run.verdict === 'interrupted')
      missing.push({ index, why: `interrupted (${input.run.interruptedBy ?? 'a signal'}) in ${input.path}` });
    else if (!input)
      missing.push({
        index,
        why: dir ? `no results.json in ${dir.path}: the worker did not finish` : 'not given, and no directory found',
      });
  }
  if (missing.length > 0 && !options.partial) {
    const lines = missing.map((m) => `worker ${m.index}: ${m.why}`).join('; ');
    throw new UserError(
      `merge: run ${setRunId} is incomplete: ${count - missing.length} of ${count} workers finished (${lines}). ` +
        'Merging fewer workers would understate every rate the run offered; ' +
        'give --partial to merge them anyway (the result is marked partial)',
    );
  }
  const merged = inputs
    .filter((i) => i.run.verdict !== 'interrupted')
    .map((i) => i.run.shard!.index)
    .sort((a, b) => a - b);
  return { setRunId, count, merged, missing, partial: missing.length > 0 };
}
