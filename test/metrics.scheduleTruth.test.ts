// Schedule truth (rig/metrics/scheduleTruth.ts): the open model's own lateness, measured apart from
// the target. Lateness is made certain rather than hoped for: arrivals are already overdue (the
// origin lies in the past, so each lag is at least a known amount), iterations are held until the
// test lets them go (so slots are full exactly when it says), and the event loop is blocked by a
// busy wait. Every bound asserted is one the setup forces; none is a speed the box must reach.
import { describe, expect, it } from 'vitest';
import { runOpenModel, type Iteration } from '../rig/load/openModelExecutor.ts';
import type { Arrival } from '../rig/load/arrivalSchedule.ts';
import {
  ScheduleRecorder,
  fellBehind,
  mergeScheduleTruth,
  scheduleTruthOf,
  scheduleTruthRecord,
  type ScheduleTruth,
} from '../rig/metrics/scheduleTruth.ts';

const bounds = { iterationTimeoutMs: 60_000, drainTimeoutMs: 60_000 };

/** Iterations that end only when the test releases them, oldest first. */
function held(): { iteration: Iteration; release: () => void; waiting: () => number } {
  const ends: Array<() => void> = [];
  return {
    iteration: () => new Promise<void>((resolve) => ends.push(resolve)),
    release: () => ends.shift()?.(),
    waiting: () => ends.length,
  };
}

const stepCounts = (t: ScheduleTruth) =>
  t.steps.map(({ step, scheduled, started, dropped, late, lateWithFreeSlot, startLag }) => ({
    step,
    scheduled,
    started,
    dropped,
    late,
    lateWithFreeSlot,
    lags: startLag.count,
  }));

describe('the executor records its schedule truth', () => {
  it('overdue arrivals: every start lags by at least how overdue it was, per step', async () => {
    const arrivals: Arrival[] = [
      { atMs: 0, step: 0 },
      { atMs: 100, step: 0 },
      { atMs: 200, step: 1 },
    ];
    const result = await runOpenModel({
      arrivals,
      origin: performance.now() - 1_000,
      iteration: async () => {},
      maxInFlight: 10,
      ...bounds,
    });
    const s = result.schedule;
    expect(stepCounts(s)).toEqual([
      { step: 0, scheduled: 2, started: 2, dropped: 0, late: 2, lateWithFreeSlot: 2, lags: 2 },
      { step: 1, scheduled: 1, started: 1, dropped: 0, late: 1, lateWithFreeSlot: 1, lags: 1 },
    ]);
    // The histograms keep 3 significant digits: a lag of 900 ms reads at least 899 ms.
    expect(s.steps[0]!.startLag.summary().min).toBeGreaterThanOrEqual(899_000);
    expect(s.steps[1]!.startLag.summary().min).toBeGreaterThanOrEqual(799_000);
    expect(s.startLag.count).toBe(3);
    expect(s.startLag.summary().max).toBeGreaterThanOrEqual(999_000);
    expect(result.late).toBe(3);
    expect(s.lateAfterMs).toBe(10);
    expect(fellBehind(s.steps[0]!, s.lateAfterMs)).toBe(true);
  });

  it('drops with one slot and no backlog are counted in the step they belong to', async () => {
    const h = held();
    const arrivals: Arrival[] = [0, 1, 2].map((atMs) => ({ atMs, step: 0 }));
    arrivals.push({ atMs: 3, step: 1 }, { atMs: 4, step: 1 });
    const run = runOpenModel({
      arrivals,
      origin: performance.now() - 1_000,
      iteration: h.iteration,
      maxInFlight: 1,
      ...bounds,
    });
    // All five came due in one batch: the first took the slot, the other four found neither slot nor backlog.
    expect(h.waiting()).toBe(1);
    h.release();
    const result = await run;
    expect(result.dropped).toBe(4);
    expect(stepCounts(result.schedule)).toEqual([
      { step: 0, scheduled: 3, started: 1, dropped: 2, late: 1, lateWithFreeSlot: 1, lags: 1 },
      { step: 1, scheduled: 2, started: 0, dropped: 2, late: 0, lateWithFreeSlot: 0, lags: 0 },
    ]);
    expect(fellBehind(result.schedule.steps[1]!, 10)).toBe(true);
  });

  it('a start that waited for a slot is late, but not the generator’s own lateness', async () => {
    const h = held();
    const arrivals: Arrival[] = [0, 1, 2].map((atMs) => ({ atMs, step: 0 }));
    const run = runOpenModel({
      arrivals,
      origin: performance.now() - 1_000,
      iteration: h.iteration,
      maxInFlight: 1,
      maxBacklog: 10,
      ...bounds,
    });
    // Each release frees the slot; the backlog's oldest takes it once the settled promise is seen.
    for (let i = 0; i < 3; i++) {
      h.release();
      await new Promise((r) => setImmediate(r));
    }
    const result = await run;
    expect(stepCounts(result.schedule)).toEqual([
      { step: 0, scheduled: 3, started: 3, dropped: 0, late: 3, lateWithFreeSlot: 1, lags: 3 },
    ]);
  });

  it('an arrival still waiting at the drain bound is dropped in its own step', async () => {
    const h = held();
    const arrivals: Arrival[] = [
      { atMs: 0, step: 0 },
      { atMs: 1, step: 2 },
    ];
    const run = runOpenModel({
      arrivals,
      origin: performance.now() - 1_000,
      iteration: h.iteration,
      maxInFlight: 1,
      maxBacklog: 1,
      iterationTimeoutMs: 60_000,
      drainTimeoutMs: 0,
    });
    const result = await run;
    expect(result).toMatchObject({ dropped: 1, unfinished: 1 });
    expect(stepCounts(result.schedule).map((s) => [s.step, s.dropped])).toEqual([
      [0, 0],
      [2, 1],
    ]);
  });

  it('the event loop blocked while the run runs shows in its loop delay', async () => {
    const blockMs = 120;
    const result = await runOpenModel({
      // The block comes once the monitor has ticked (it measures from one tick to the next), and the
      // last arrival keeps the run, and its monitor, going past it.
      arrivals: [0, 50, 50 + blockMs + 60].map((atMs) => ({ atMs, step: 0 })),
      iteration: async ({ index }) => {
        if (index !== 1) return;
        const until = performance.now() + blockMs;
        while (performance.now() < until); // busy: no timer can fire meanwhile
      },
      maxInFlight: 10,
      ...bounds,
    });
    // The monitor's 10 ms timer was due during the block and fired after it: ≥ 120 − 10 ms late.
    expect(result.schedule.eventLoopDelayMs.max).toBeGreaterThanOrEqual(blockMs - 20);
  });

  it('refuses a bad late bound before anything starts', () => {
    expect(() =>
      runOpenModel({ arrivals: [], iteration: async () => {}, maxInFlight: 1, lateAfterMs: -1, ...bounds }),
    ).toThrow(/lateAfterMs must be a finite number ≥ 0, got -1/);
  });
});

describe('mergeScheduleTruth', () => {
  /** Lags (ms) by step, each `waited` when odd. */
  const feed = (recorder: ScheduleRecorder, lags: Array<[number, number]>, drops: number[]) => {
    for (const [step, lag] of lags) {
      recorder.due(step);
      recorder.started(step, lag, lag % 2 === 1);
    }
    for (const step of drops) {
      recorder.due(step);
      recorder.dropped(step);
    }
    return recorder.finish();
  };
  const lags: Array<[number, number]> = [
    [0, 0.2],
    [0, 3],
    [0, 15],
    [1, 11],
    [1, 40],
    [1, 0.5],
    [3, 250],
    [3, 12.5],
  ];
  const drops = [1, 1, 3];

  it('two halves merged read exactly as one recorder fed everything', () => {
    const whole = feed(new ScheduleRecorder(10), lags, drops);
    const a = feed(new ScheduleRecorder(10), lags.slice(0, 3), drops.slice(0, 1));
    const b = feed(new ScheduleRecorder(10), lags.slice(3), drops.slice(1));
    const merged = mergeScheduleTruth([a, b]);
    expect(stepCounts(merged)).toEqual(stepCounts(whole));
    expect(merged.steps.map((s) => s.startLag.encode())).toEqual(whole.steps.map((s) => s.startLag.encode()));
    expect(merged.startLag.summary()).toEqual(whole.startLag.summary());
    expect(merged.startLag.count).toBe(lags.length);
    expect(stepCounts(merged)).toEqual([
      { step: 0, scheduled: 3, started: 3, dropped: 0, late: 1, lateWithFreeSlot: 0, lags: 3 },
      { step: 1, scheduled: 5, started: 3, dropped: 2, late: 2, lateWithFreeSlot: 1, lags: 3 },
      { step: 3, scheduled: 3, started: 2, dropped: 1, late: 2, lateWithFreeSlot: 2, lags: 2 },
    ]);
  });

  it('a truth posted as a record (from a worker thread) merges as exactly as the truth itself', () => {
    const whole = feed(new ScheduleRecorder(10), lags, drops);
    const a = feed(new ScheduleRecorder(10), lags.slice(0, 3), drops.slice(0, 1));
    const b = feed(new ScheduleRecorder(10), lags.slice(3), drops.slice(1));
    const posted = [a, b].map((t) => scheduleTruthOf(structuredClone(scheduleTruthRecord(t))));
    const merged = mergeScheduleTruth(posted);
    expect(stepCounts(merged)).toEqual(stepCounts(whole));
    expect(merged.steps.map((s) => s.startLag.encode())).toEqual(whole.steps.map((s) => s.startLag.encode()));
    expect(merged.startLag.percentileUs(99)).toBe(whole.startLag.percentileUs(99));
    expect(merged.eventLoopDelayMs).toEqual(whole.eventLoopDelayMs);
  });

  it('keeps the worst event-loop delay of each worker, and refuses different late bounds', () => {
    const a = { ...feed(new ScheduleRecorder(10), [], []), eventLoopDelayMs: { p50: 1, p99: 30, max: 41 } };
    const b = { ...feed(new ScheduleRecorder(10), [], []), eventLoopDelayMs: { p50: 2, p99: 8, max: 12 } };
    expect(mergeScheduleTruth([a, b]).eventLoopDelayMs).toEqual({ p50: 2, p99: 30, max: 41 });
    expect(() => mergeScheduleTruth([a, feed(new ScheduleRecorder(5), [], [])])).toThrow(
      /different late bounds \(10 and 5 ms\)/,
    );
    expect(() => mergeScheduleTruth([])).toThrow(/at least one/);
  });
});
