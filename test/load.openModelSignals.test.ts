// The open-model executor's iteration signals: the iterations started together (one pump batch) share
// one AbortController, so a run pays for a controller per batch rather than per iteration. What an
// iteration may rely on stays: its signal aborts at its own timeout (never before it), when the run
// ends with it still running, and when the run is aborted; a later batch's signal is not aborted by
// an earlier batch's timeout.
import { describe, expect, it } from 'vitest';
import { runOpenModel, type IterationContext } from '../rig/load/openModelExecutor.ts';
import { IterationBatch } from '../rig/load/runningIteration.ts';

const TIMEOUT_MS = 100;

/** Waits for the iteration's signal; records how long after its start it came, and with what reason. */
function waitForAbort(it: IterationContext, seen: Map<number, { afterMs: number; reason: unknown }>): Promise<never> {
  return new Promise((_, reject) =>
    it.signal.addEventListener('abort', () => {
      seen.set(it.index, { afterMs: performance.now() - it.startedAt, reason: it.signal.reason });
      reject(new Error('aborted'));
    }),
  );
}

describe('open model: iteration signals', () => {
  it('keeps a batch open for a thousandth of the timeout, at least 1 ms and at most 10', () => {
    // A 5 s timeout may run 5 ms long (0.1 %) so that a burst of a few timer ticks shares one signal.
    const long = new IterationBatch(1_000, 5_000);
    expect([long.admits(1_004.9), long.admits(1_005.1)]).toEqual([true, false]);
    const short = new IterationBatch(1_000, 100);
    expect([short.admits(1_001), short.admits(1_001.5)]).toEqual([true, false]);
    const huge = new IterationBatch(1_000, 600_000);
    expect([huge.admits(1_010), huge.admits(1_010.5)]).toEqual([true, false]);
  });

  it('sets the deadline by the last member to join: no timeout is shortened', () => {
    const batch = new IterationBatch(1_000, 5_000);
    batch.join(1_000);
    batch.join(1_004);
    expect(batch.deadline).toBe(6_004);
  });

  it('shares one signal within a batch, not across batches', async () => {
    const signals: AbortSignal[] = [];
    await runOpenModel({
      arrivals: [
        { atMs: 0, step: 0 },
        { atMs: 0, step: 0 },
        { atMs: 0, step: 0 },
        { atMs: 200, step: 0 },
      ],
      iteration: async ({ index, signal }) => void (signals[index] = signal),
      maxInFlight: 10,
      iterationTimeoutMs: 1_000,
      drainTimeoutMs: 1_000,
    });
    expect(signals).toHaveLength(4);
    expect(signals[1]).toBe(signals[0]);
    expect(signals[2]).toBe(signals[0]);
    expect(signals[3]).not.toBe(signals[0]);
  });

  it("aborts an iteration's signal at its own timeout, not at an earlier batch's", async () => {
    const seen = new Map<number, { afterMs: number; reason: unknown }>();
    const result = await runOpenModel({
      // 0 and 1 start together, 0 ends at once (its batch-mate still times out); 2 starts 50 ms later.
      arrivals: [
        { atMs: 0, step: 0 },
        { atMs: 0, step: 0 },
        { atMs: 50, step: 0 },
      ],
      iteration: (it) => (it.index === 0 ? Promise.resolve() : waitForAbort(it, seen)),
      maxInFlight: 10,
      iterationTimeoutMs: TIMEOUT_MS,
      drainTimeoutMs: 1_000,
    });
    expect(result).toMatchObject({ succeeded: 1, failed: 2, failures: { timeout: 2 }, unfinished: 0 });
    expect([...seen.keys()].sort()).toEqual([1, 2]);
    for (const { afterMs, reason } of seen.values()) {
      expect(afterMs).toBeGreaterThanOrEqual(TIMEOUT_MS);
      expect(reason).toMatchObject({ name: 'IterationTimeout', kind: 'timeout' });
    }
  });

  it('aborts the signal of an iteration still running when the run ends', async () => {
    const seen = new Map<number, { afterMs: number; reason: unknown }>();
    const result = await runOpenModel({
      arrivals: [
        { atMs: 0, step: 0 },
        { atMs: 0, step: 0 },
      ],
      // 0 ends at once; 1 waits on its signal past the drain bound (its timeout is far off).
      iteration: (it) => (it.index === 0 ? Promise.resolve() : waitForAbort(it, seen)),
      maxInFlight: 10,
      iterationTimeoutMs: 60_000,
      drainTimeoutMs: 50,
    });
    expect(result).toMatchObject({ succeeded: 1, failed: 0, unfinished: 1 });
    expect(seen.get(1)?.reason).toMatchObject({ message: 'the open-model run ended' });
  });

  it('warns of no listener leak when many iterations of a batch listen to the shared signal', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => void warnings.push(w);
    process.on('warning', onWarning);
    try {
      const result = await runOpenModel({
        arrivals: Array.from({ length: 50 }, () => ({ atMs: 0, step: 0 })),
        iteration: ({ signal }) =>
          new Promise<void>((resolve) => {
            const onAbort = () => undefined;
            signal.addEventListener('abort', onAbort);
            setImmediate(() => {
              signal.removeEventListener('abort', onAbort);
              resolve();
            });
          }),
        maxInFlight: 100,
        iterationTimeoutMs: 1_000,
        drainTimeoutMs: 1_000,
      });
      expect(result.succeeded).toBe(50);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
