// merge's shard-set check: one run's workers, N of N, or a refusal that names the missing worker
// and why; --partial merges anyway and says what is missing.
import { describe, expect, it } from 'vitest';
import { checkShardSet, type ShardInput } from '../rig/results/shardSet.ts';
import type { RunResult } from '../rig/results/runResult.ts';

function worker(index: number, over: Partial<RunResult> = {}, shard: Partial<RunResult['shard']> = {}): ShardInput {
  const run = {
    runId: `r-shard${index}`,
    profile: 'smoke',
    verdict: 'passed',
    shard: {
      index,
      count: 3,
      setRunId: 'r',
      plan: ['capacity', 'duplicate-flood'],
      ran: index === 0 ? ['capacity', 'duplicate-flood'] : ['capacity'],
      host: `h${index}`,
      barrier: 'directory',
      plannedStartEpochMs: 1000,
      startedEpochMs: 1001,
      waitedMs: 5,
      ...shard,
    },
    ...over,
  } as RunResult;
  return { run, path: `/set/shard-${index}` };
}

describe('checkShardSet', () => {
  it('is silent about an ordinary merge and accepts a whole set', () => {
    expect(checkShardSet([{ run: { runId: 'x' } as RunResult, path: '/x' }], [])).toBeUndefined();
    expect(checkShardSet([worker(2), worker(0), worker(1)], [])).toEqual({
      setRunId: 'r',
      count: 3,
      merged: [0, 1, 2],
      missing: [],
      partial: false,
    });
  });

  it('refuses a set with a worker missing or interrupted, naming it, unless --partial', () => {
    expect(() => checkShardSet([worker(0), worker(2)], [{ index: 1, path: '/set/shard-1' }])).toThrow(
      new RegExp(
        'run r is incomplete: 2 of 3 workers finished ' +
          '\\(worker 1: no results.json in /set/shard-1: the worker did not finish\\)\\..*--partial',
      ),
    );
    expect(() =>
      checkShardSet([worker(0), worker(1, { verdict: 'interrupted', interruptedBy: 'SIGTERM' }), worker(2)], []),
    ).toThrow(/worker 1: interrupted \(SIGTERM\)/);
    expect(checkShardSet([worker(0), worker(2)], [], { partial: true })).toEqual({
      setRunId: 'r',
      count: 3,
      merged: [0, 2],
      missing: [{ index: 1, why: 'not given, and no directory found' }],
      partial: true,
    });
  });

  it('refuses workers of different runs, sizes, profiles or plans, a worker twice, and a mix with plain runs', () => {
    expect(() => checkShardSet([worker(0), worker(1, {}, { setRunId: 'q' })], [])).toThrow(/run ids .* differ/);
    expect(() => checkShardSet([worker(0), worker(1, {}, { count: 2 })], [])).toThrow(/worker counts .* differ/);
    expect(() => checkShardSet([worker(0), worker(1, { profile: 'ci' })], [])).toThrow(/profiles differ/);
    expect(() => checkShardSet([worker(0), worker(1, {}, { plan: ['capacity'] })], [])).toThrow(
      /scenario plans differ/,
    );
    expect(() => checkShardSet([worker(0), worker(0)], [])).toThrow(/worker 0 of run r given twice/);
    expect(() => checkShardSet([worker(0), { run: { runId: 'x' } as RunResult, path: '/x' }], [])).toThrow(
      /\/x not from a --shard worker/,
    );
    expect(() => checkShardSet([], [{ index: 0, path: '/set/shard-0' }])).toThrow(/no worker of the set left results/);
  });
});
