// A worker thread that crashes during an attack is the rig's failure, not the attack's: the pool
// rejects the job with a LoadWorkerFailure naming the thread, and the mixed run rethrows it (after
// its load ends) instead of recording the attack as failed, which a plain error from the attack
// still is.
import { describe, expect, it } from 'vitest';
import { NOWHERE_TARGET } from './support/dosContext.ts';
import type { Attack } from '../rig/attack/attackTypes.ts';
import { mixedRun, type MixedRunDeps, type MixedRunPlan } from '../rig/engine/dos/attackRun.ts';
import { runOpenModel } from '../rig/load/openModelExecutor.ts';
import { LoadWorkerFailure, LoadWorkerPool } from '../rig/load/workers/workerPool.ts';

const target = NOWHERE_TARGET;

const never: Attack = {
  name: 'fake',
  family: 'payloads',
  description: 'test double',
  expected: 'refused',
  defaults: {},
  run: () => Promise.reject(new Error('run on this thread: not expected')),
};

const plan: MixedRunPlan = {
  attacks: [{ name: 'fake', attack: never, params: {}, ratePerSecond: 20, maxRequests: 10 }],
  target,
  legitRatePerSecond: 20,
  beforeMs: 200,
  attackMs: 200,
  attackCapMs: 1_000,
  attackBursts: 1,
  controlMs: 100,
  afterMs: 200,
  legitTimeoutMs: 1_000,
  maxInFlight: 8,
};

function deps(runAttack: MixedRunDeps['runAttack']): MixedRunDeps {
  return {
    runOpenModel,
    legitIteration: () => async () => {},
    roundTrip: () => {},
    event: () => {},
    signal: new AbortController().signal,
    runAttack,
  };
}

describe('a crashed attack thread', () => {
  it('rejects the pool job with a LoadWorkerFailure naming the thread', async () => {
    const pool = new LoadWorkerPool(2);
    try {
      const job = pool.runJob(
        { module: new URL('./support/crashingJob.ts', import.meta.url).href, export: 'crashingJob', args: null },
        () => ({ heard: () => {} }),
      );
      await expect(job).rejects.toThrow(/load worker thread 2 of 2 failed: .*planted crash in a job/s);
      await expect(job).rejects.toBeInstanceOf(LoadWorkerFailure);
    } finally {
      await pool.close();
    }
  });

  it('errors the mixed run (the rig failed), where an attack error is only recorded', async () => {
    const crashed = new LoadWorkerFailure('load worker thread 1 of 2 failed: planted');
    await expect(
      mixedRun(
        plan,
        deps(() => Promise.reject(crashed)),
      ),
    ).rejects.toBe(crashed);
    const misuse = await mixedRun(
      plan,
      deps(() => Promise.reject(new Error('attack fake: bad param'))),
    );
    expect(misuse.attacks[0]?.error).toBe('attack fake: bad param');
  });
});
