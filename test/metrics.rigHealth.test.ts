// The one rule for "the rig, not the agent, was the limit" (rigSaturation, rig/metrics/rigHealth.ts)
// at and past each named threshold, and worstHealth: the worst of each figure for a merge or a
// run's summary, starts summed, the time series dropped.
import { describe, expect, it } from 'vitest';
import { rigSaturation, SATURATION, worstHealth } from '../rig/metrics/rigHealth.ts';
import { health } from './support/rigHealthFixture.ts';
import { loadOf } from './support/scheduleTruthFixture.ts';
import { scheduleHealthOf } from '../rig/metrics/scheduleHealth.ts';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';

const lagsOf = (n: number, ms: number) => Array<number>(n).fill(ms);

describe('rigSaturation', () => {
  it('a quiet rig, or none recorded (results from before the field): not saturated', () => {
    expect(rigSaturation(health())).toBeUndefined();
    expect(rigSaturation(undefined)).toBeUndefined();
    expect(rigSaturation(health({ machine: { runnableMean: 2, runnableMax: 5, stealPct: 9.9 } }))).toBeUndefined();
  });

  it('event-loop delay p99 past its bound, with the figure', () => {
    const loop = (p99: number) => health({ eventLoopDelayMs: { p50: 1, p99, max: 80 } });
    expect(rigSaturation(loop(SATURATION.loopDelayP99Ms))).toBeUndefined();
    expect(rigSaturation(loop(48))).toBe('the load generator was saturated: event-loop delay p99 48.0 ms (over 20 ms)');
  });

  it('rig CPU from 90 % of one core on average; a busy window alone is not enough', () => {
    expect(rigSaturation(health({ rigCpu: { pctOfCore: 89, peakPctOfCore: 190, pctOfCores: 45 } }))).toBeUndefined();
    expect(rigSaturation(health({ rigCpu: { pctOfCore: 95, peakPctOfCore: 140, pctOfCores: 47 } }))).toBe(
      'the load generator was saturated: rig CPU 95 % of a core (from 90 %)',
    );
  });

  it('the run queue above the cores, and steal from 10 %, all reasons in one line', () => {
    const busy = health({
      eventLoopDelayMs: { p50: 3, p99: 31, max: 90 },
      machine: { runnableMean: 3.4, runnableMax: 7, stealPct: 12 },
    });
    expect(rigSaturation(busy)).toBe(
      'the load generator was saturated: event-loop delay p99 31.0 ms (over 20 ms), ' +
        'run queue 3.40 runnable for 2 cores, CPU steal 12 % (from 10 %)',
    );
  });
});

describe('rigSaturation: the generator behind its own schedule', () => {
  it('over 1 % of starts late with a slot free is the rig saturated; at 1 % it is not', () => {
    const at = (late: number) =>
      health({ schedule: scheduleHealthOf([loadOf([{ lags: [...lagsOf(1_000 - late, 1), ...lagsOf(late, 30)] }])]) });
    expect(rigSaturation(at(10))).toBeUndefined();
    expect(rigSaturation(at(11))).toBe(
      'the load generator was saturated: the generator fell behind its schedule ' +
        '(11 of 1000 starts late with a slot free, start lag p99 30.0 ms, over 1 %)',
    );
  });

  it('waits for a slot and drops are the rig reaching its bounds, not saturation', () => {
    const slotBound = loadOf([{ lags: lagsOf(500, 1), waited: lagsOf(500, 900), dropped: 4_000 }]);
    expect(rigSaturation(health({ schedule: scheduleHealthOf([slotBound]) }))).toBeUndefined();
  });
});

describe('worstHealth', () => {
  it('schedules merge exactly: counts summed, start lags added, every part’s behind steps kept', () => {
    const a = loadOf([{ lags: [1, 2, 3] }, { lags: [50], dropped: 2 }]);
    const b = loadOf([{ lags: [4, 5] }, { waited: [70, 80] }]);
    const merged = worstHealth([a, b].map((l) => health({ schedule: scheduleHealthOf([l]) })))!.schedule!;
    const whole = scheduleHealthOf([a, b])!;
    const { behind, schedule_lag: lag, ...counts } = merged;
    const { behind: _, schedule_lag: wholeLag, ...wholeCounts } = whole;
    expect(counts).toEqual(wholeCounts);
    expect(counts).toEqual({
      started: 8,
      late: 3,
      maxStartLagMs: 80,
      scheduled: 10,
      dropped_iterations: 2,
      lateWithFreeSlot: 1,
    });
    // The same buckets as one histogram fed every start (a decoded histogram reads its max as its bucket's top).
    const decoded = (hdr: string) => LatencyHistogram.decode(hdr).summary();
    expect(decoded(lag!.hdr)).toEqual(decoded(wholeLag!.hdr));
    expect(lag).toMatchObject({ count: 8, p50: wholeLag!.p50, p99: wholeLag!.p99 });
    // Each part's behind steps stay that part's (its own load numbering): a stall is per worker.
    expect(behind!.map((s) => [s.load, s.step, s.dropped_iterations, s.late])).toEqual([
      [1, 1, 2, 1],
      [1, 1, 0, 2],
    ]);
  });

  it('an old part without schedule truth leaves only the figures every part has', () => {
    const fresh = health({ schedule: scheduleHealthOf([loadOf([{ lags: [1, 20] }])]) });
    const old = health({ schedule: { started: 5, late: 1, maxStartLagMs: 11 } });
    expect(worstHealth([fresh, old])!.schedule).toEqual({ started: 7, late: 2, maxStartLagMs: 20 });
  });

  it('the worst of each figure, schedules summed, the fewest cores, no points', () => {
    const a = health({
      eventLoopDelayMs: { p50: 1, p99: 30, max: 40 },
      schedule: { started: 100, late: 2, maxStartLagMs: 12 },
      machine: { runnableMean: 0.5, runnableMax: 3 },
      points: [{ t: 1000, loopP99Ms: 30, loopMaxMs: 40, rigCpuPct: 20 }],
    });
    const b = health({
      cores: 4,
      rigCpu: { pctOfCore: 70, peakPctOfCore: 99, pctOfCores: 17 },
      schedule: { started: 50, late: 5, maxStartLagMs: 3 },
      machine: { runnableMean: 1.5, runnableMax: 2, stealPct: 4 },
      agentCpu: { pctOfCore: 62, peakPctOfCore: 90, source: '/proc/12' },
    });
    expect(worstHealth([a, undefined, b])).toEqual({
      durationMs: 5_000,
      cores: 2,
      eventLoopDelayMs: { p50: 1, p99: 30, max: 40 },
      rigCpu: { pctOfCore: 70, peakPctOfCore: 99, pctOfCores: 17 },
      schedule: { started: 150, late: 7, maxStartLagMs: 12 },
      machine: { runnableMean: 1.5, runnableMax: 3, stealPct: 4 },
      agentCpu: { pctOfCore: 62, peakPctOfCore: 90, source: '/proc/12' },
    });
    expect(worstHealth([undefined])).toBeUndefined();
  });
});
