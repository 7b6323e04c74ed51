// The capacity search's pure parts: achieved within a step's window (not its drain), whether a
// broken step is the agent's limit or the rig's, and the bisection that refines the knee.
import { describe, expect, it } from 'vitest';
import {
  searchKnee,
  bisectKnee,
  judgeStep,
  nextProbe,
  perSecond,
  stepCompletions,
  type StepFacts,
} from '../rig/load/capacitySearch.ts';
import type { RigHealth } from '../rig/metrics/rigHealth.ts';
import { scheduleHealthOf } from '../rig/metrics/scheduleHealth.ts';
import { loadOf } from './support/scheduleTruthFixture.ts';

const slo = { sloP95Ms: 1000, sloMaxErrorPct: 0.1, sloMaxDroppedPct: 0.1 };
const step = (over: Partial<StepFacts> = {}): StepFacts => ({
  scheduled: 1000,
  errors: 0,
  dropped: 0,
  completed: 1000,
  p95Ms: 200,
  serviceP95Ms: 150,
  timeouts: 0,
  late: 0,
  peakInFlight: 100,
  maxInFlight: 512,
  ...over,
});
const calm: RigHealth = {
  durationMs: 5000,
  cores: 2,
  eventLoopDelayMs: { p50: 0.1, p99: 2, max: 5 },
  rigCpu: { pctOfCore: 40, peakPctOfCore: 40, pctOfCores: 20 },
};
const saturated: RigHealth = {
  ...calm,
  eventLoopDelayMs: { p50: 3, p99: 45, max: 80 },
  rigCpu: { pctOfCore: 97, peakPctOfCore: 97, pctOfCores: 48.5 },
};

describe('stepCompletions', () => {
  it('counts completions after the step window as drained, not achieved', () => {
    // A 1 s step from t=100: 6 round trips end inside it, 4 in the drain after it.
    const c = stepCompletions(100, 1000);
    for (const at of [200, 500, 900, 1000, 1050, 1100, 1101, 1500, 2000, 3000]) c.succeeded(at);
    expect([c.within, c.drained]).toEqual([6, 4]);
    expect(perSecond(c.within, 1000)).toBe(6);
  });
});

describe('judgeStep', () => {
  it('holds: no reasons, not the rig, the bounds reached still said', () => {
    const v = judgeStep(step({ peakInFlight: 512, late: 3 }), slo);
    expect(v).toEqual({
      reasons: [],
      rigBounds: ['in-flight bound 512 reached', '3 of 1000 started late'],
      byRig: false,
    });
  });

  it('a p95 the agent took itself (service time over the bound) is the agent’s limit', () => {
    const v = judgeStep(step({ p95Ms: 1500, serviceP95Ms: 1400 }), slo);
    expect(v.reasons).toEqual(['p95 1,500 ms > 1000 ms']);
    expect(v.byRig).toBe(false);
  });

  it('a p95 over the bound only from the rig’s start lag (in-flight full) is the rig’s', () => {
    const v = judgeStep(step({ p95Ms: 1500, serviceP95Ms: 600, peakInFlight: 512, late: 400 }), slo);
    expect(v.byRig).toBe(true);
    expect(v.rigBounds).toEqual(['in-flight bound 512 reached', '400 of 1000 started late']);
  });

  it('drops from a full backlog alone are the rig’s; errors beside them are the agent’s', () => {
    expect(judgeStep(step({ dropped: 50 }), slo).byRig).toBe(true);
    expect(judgeStep(step({ dropped: 50, errors: 20 }), slo).byRig).toBe(false);
  });

  it('any breach while the load generator was saturated is the rig’s, with why', () => {
    // An agent faster than the rig: errors and p95 both broken, but the rig's loop and CPU were the limit.
    const v = judgeStep(step({ p95Ms: 1500, serviceP95Ms: 1400, errors: 30, timeouts: 30, health: saturated }), slo);
    expect(v.byRig).toBe(true);
    expect(v.saturation).toMatch(/event-loop delay p99 45.0 ms.*rig CPU 97 % of a core/);
    expect(judgeStep(step({ p95Ms: 1500, serviceP95Ms: 1400, health: calm }), slo).byRig).toBe(false);
  });

  it('a breach where the generator itself fell behind (late with a slot free) is the rig’s', () => {
    const lags = (n: number, ms: number) => Array<number>(n).fill(ms);
    const behind = { ...calm, schedule: scheduleHealthOf([loadOf([{ lags: [...lags(950, 1), ...lags(50, 40)] }])]) };
    const v = judgeStep(step({ p95Ms: 1500, serviceP95Ms: 1400, health: behind }), slo);
    expect(v.byRig).toBe(true);
    expect(v.saturation).toMatch(/the generator fell behind its schedule \(50 of 1000 starts late with a slot free/);
    // Starts that waited for a slot, and drops, are the slots a slow agent filled: still the agent's.
    const slotBound = loadOf([{ lags: lags(500, 1), waited: lags(500, 900), dropped: 300 }]);
    const full = { ...calm, schedule: scheduleHealthOf([slotBound]) };
    expect(judgeStep(step({ p95Ms: 1500, serviceP95Ms: 1400, health: full }), slo)).toMatchObject({ byRig: false });
  });

  it('errors other than timeouts are the agent’s, saturated or not (a wrong state is no rig’s doing)', () => {
    const allFailed = step({ completed: 0, errors: 1000, timeouts: 0, health: saturated });
    expect(judgeStep(allFailed, slo)).toMatchObject({ byRig: false, saturation: expect.any(String) });
    expect(judgeStep({ ...allFailed, timeouts: 1000 }, slo).byRig).toBe(true);
  });
});

describe('nextProbe and bisectKnee', () => {
  it('halves the bracket until it is within the resolution of the rate that held', () => {
    expect(nextProbe(577, 865, 10)).toBe(721);
    expect(nextProbe(793, 865, 10)).toBeUndefined(); // 72 is 9.1 % of 793
    expect(nextProbe(577, 865, 0)).toBeUndefined();
    expect(nextProbe(0, 5, 10)).toBeUndefined();
    expect(nextProbe(10, 11, 1)).toBeUndefined(); // no whole rate between
  });

  it('probes in bisection order against an agent whose knee is 700/s', async () => {
    const probed: number[] = [];
    const result = await bisectKnee({ held: 577, broke: 865 }, 10, (rate) => {
      probed.push(rate);
      return Promise.resolve(rate <= 700 ? 'held' : 'broke');
    });
    expect(probed).toEqual([721, 649, 685]);
    expect(result).toEqual({ held: 685, broke: 721 });
  });

  it('stops when a probe says so (the budget), keeping the bracket so far', async () => {
    const outcomes = ['held', 'stop'] as const;
    let i = 0;
    const result = await bisectKnee({ held: 577, broke: 865 }, 10, () => Promise.resolve(outcomes[i++]!));
    expect(result).toEqual({ held: 721, broke: 865 });
  });

  it('searchKnee: the ramp in order, then the bisection; a stop or the top rate ends it', async () => {
    const order: string[] = [];
    const knee700 = (rate: number, refined: boolean) => {
      order.push(`${refined ? '~' : ''}${rate}`);
      return Promise.resolve(rate <= 700 ? ('held' as const) : ('broke' as const));
    };
    expect(await searchKnee([400, 600, 900, 1350], 10, knee700)).toEqual({ held: 675, broke: 713 });
    expect(order).toEqual(['400', '600', '900', '~750', '~675', '~713']);
    expect(await searchKnee([400, 600], 10, knee700)).toEqual({ held: 600 });
    const budget = (rate: number) => Promise.resolve(rate > 400 ? ('stop' as const) : ('held' as const));
    expect(await searchKnee([400, 600, 900], 10, budget)).toEqual({ held: 400 });
  });
});
