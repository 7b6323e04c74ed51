// The mixed-run driver (rig/engine/dos/attackRun.ts) with a fake legitimate round trip and a fake
// attack: the real open-model executor carries the legitimate load through before, during and
// after; the attack runs between its start and its last settled outcome (or the cap); each arrival
// lands in the phase of its intended start; attack-start/stop events bracket the attack. The fake
// round trip is slow exactly while the fake attack runs, so the phases must show it.
import { describe, expect, it } from 'vitest';
import { NOWHERE_TARGET } from './support/dosContext.ts';
import type { Attack, AttackOutcome } from '../rig/attack/attackTypes.ts';
import { mixedRun, phaseAt, type MixedRunDeps, type MixedRunPlan, type Phase } from '../rig/engine/dos/attackRun.ts';
import { percentile, phaseStats, recoveryMs, taxBoundMs } from '../rig/engine/dos/dosVerdicts.ts';
import { runOpenModel } from '../rig/load/openModelExecutor.ts';

const target = NOWHERE_TARGET;

/**
 * While it runs, the legitimate round trip is slow; each "request" is refused after 5 ms. `hold`:
 * it never ends by itself (only the abort ends it).
 */
function fakeAttack(state: { attacking: boolean }, hold = false): Attack {
  return {
    name: 'fake',
    family: 'payloads',
    description: 'test double',
    expected: 'refused',
    defaults: {},
    async run(_t, _p, schedule) {
      state.attacking = true;
      let started = 0;
      const until = performance.now() + schedule.durationMs;
      while (!schedule.signal.aborted && started < schedule.maxRequests && performance.now() < until) {
        const at = performance.now();
        started++;
        await new Promise((r) => setTimeout(r, 1000 / schedule.ratePerSecond));
        schedule.onOutcome({ startedAt: at, latencyMs: 5, kind: 'refused', status: 400 } satisfies AttackOutcome);
      }
      if (hold && !schedule.signal.aborted)
        await new Promise((r) => schedule.signal.addEventListener('abort', r, { once: true }));
      state.attacking = false;
      return { started, settled: started, notes: [] };
    },
  };
}

function deps(state: { attacking: boolean }, events: Array<[string, string, number]>, recorded: Phase[]): MixedRunDeps {
  return {
    runOpenModel,
    legitIteration: () => async () => {
      await new Promise((r) => setTimeout(r, state.attacking ? 60 : 2));
    },
    roundTrip: (phase) => recorded.push(phase),
    event: (action, attack, _detail, at) => events.push([action, attack, at]),
    signal: new AbortController().signal,
  };
}

const plan = (attack: Attack, over: Partial<MixedRunPlan> = {}): MixedRunPlan => ({
  attacks: [{ name: 'fake', attack, params: {}, ratePerSecond: 20, maxRequests: 1_000 }],
  target,
  legitRatePerSecond: 40,
  beforeMs: 600,
  attackMs: 600,
  attackCapMs: 2_000,
  attackBursts: 1,
  controlMs: 100,
  afterMs: 800,
  legitTimeoutMs: 2_000,
  maxInFlight: 32,
  ...over,
});

describe('mixed run', () => {
  it('phaseAt: before the start, during [start, stop), after', () => {
    expect(phaseAt(9, 10, 20)).toBe('before');
    expect(phaseAt(10, 10, 20)).toBe('during');
    expect(phaseAt(19.9, 10, 20)).toBe('during');
    expect(phaseAt(20, 10, 20)).toBe('after');
  });

  it(
    'carries the legitimate load through three phases around the attack, ' +
      'and the attack shows in the during phase only',
    async () => {
      const state = { attacking: false };
      const events: Array<[string, string, number]> = [];
      const recorded: Phase[] = [];
      const run = await mixedRun(plan(fakeAttack(state)), deps(state, events, recorded));
      expect(events.map(([a, n]) => `${a} ${n}`)).toEqual(['attack-start fake', 'attack-stop fake']);
      expect(events[0]![2]).toBe(run.attackStartAt);
      expect(run.attackStopAt).toBe(events[1]![2]);
      // The attack starts ~beforeMs in and its starts last ~attackMs.
      expect(run.attackStartAt - run.origin).toBeGreaterThanOrEqual(590);
      expect(run.attackStopAt - run.attackStartAt).toBeGreaterThanOrEqual(550);
      // After lasts afterMs from the stop: the last arrival is intended within it.
      const last = Math.max(...run.samples.map((s) => s.intendedAt));
      expect(last).toBeGreaterThanOrEqual(run.attackStopAt + 700);
      // The schedule ends at origin + (stop − origin + afterMs), on the one clock mixedRun and the
      // executor share; a rounding error (nanoseconds) may land an arrival right at the end.
      expect(last).toBeLessThan(run.attackStopAt + 800 + 1e-3);
      expect(last - run.origin).toBeCloseTo(Math.round((last - run.origin) / 25) * 25, 6);
      const attack = run.attacks[0]!;
      expect(attack.outcomes.length).toBeGreaterThan(5);
      expect(attack.capped).toBe(false);
      const [before, during, after] = (['before', 'during', 'after'] as const).map((p) => phaseStats(run.samples, p));
      for (const s of [before, during, after]) {
        expect(s.arrivals).toBeGreaterThan(10);
        expect(s.ok).toBe(s.arrivals);
      }
      // 60 ms round trips during the attack, 2 ms otherwise (medians: on a loaded box a round trip
      // intended just before the start may begin after it).
      expect(during.p50Ms!).toBeGreaterThanOrEqual(55);
      expect(before.p50Ms!).toBeLessThan(50);
      expect(after.p50Ms!).toBeLessThan(50);
      expect(recorded.filter((p) => p === 'during').length).toBe(during.ok);
      // Every arrival is in the phase of its intended start.
      for (const s of run.samples) expect(s.phase).toBe(phaseAt(s.intendedAt, run.attackStartAt, run.attackStopAt));
      // Recovery: the first 200 ms window after the stop that is healthy against the tax bound.
      const bound = taxBoundMs(before.p50Ms!, { maxTax: 2, taxFloorMs: 20 });
      const recovered = recoveryMs(run.samples, run.attackStopAt, last, 200, bound);
      expect(recovered).toBeDefined();
      expect(recovered!).toBeLessThanOrEqual(600);
    },
  );

  it('runs an attack as bursts with legitimate traffic alone in a control window around each', async () => {
    const state = { attacking: false };
    const events: Array<[string, string, number]> = [];
    let largest = 0;
    const attack = fakeAttack(state);
    const counted: Attack = {
      ...attack,
      run: (t, p, schedule) => {
        largest = Math.max(largest, schedule.maxRequests);
        return attack.run(t, p, schedule);
      },
    };
    const run = await mixedRun(
      plan(counted, { attackMs: 600, attackBursts: 3, controlMs: 300, maxInFlight: 64 }),
      deps(state, events, []),
    );
    const record = run.attacks[0]!;
    expect(largest).toBe(1_000);
    expect(events.map(([a]) => a)).toEqual(Array(3).fill(['attack-start', 'attack-stop']).flat());
    const bursts = record.bursts;
    expect(bursts).toHaveLength(3);
    // C A C A C A C: each control ends where its burst starts and starts where the previous ended.
    expect(bursts[0]!.controlBefore).toEqual({ from: run.attackStartAt - 300, to: run.attackStartAt });
    for (let i = 1; i < 3; i++) {
      expect(bursts[i]!.controlBefore).toBe(bursts[i - 1]!.controlAfter);
      expect(bursts[i]!.controlBefore.from).toBe(bursts[i - 1]!.stoppedAt);
      expect(bursts[i]!.controlBefore.to).toBe(bursts[i]!.startedAt);
      expect(bursts[i]!.startedAt - bursts[i - 1]!.stoppedAt).toBeGreaterThanOrEqual(299);
    }
    expect(bursts[2]!.controlAfter).toEqual({ from: run.attackStopAt, to: run.attackStopAt + 300 });
    expect(record.startedAt).toBe(run.attackStartAt);
    expect(record.stoppedAt).toBe(run.attackStopAt);
    // The legitimate round trips are slow in the bursts only (medians, as above).
    const within = (a: number, b: number) =>
      run.samples.filter((x) => x.intendedAt >= a && x.intendedAt < b).map((x) => x.latencyMs!);
    for (const b of bursts) {
      expect(percentile(within(b.startedAt, b.stoppedAt), 50)!).toBeGreaterThanOrEqual(55);
      expect(percentile(within(b.controlAfter.from + 100, b.controlAfter.to), 50)!).toBeLessThan(50);
    }
  });

  it('an attack that holds past its cap is aborted at the cap, and the after phase follows it', async () => {
    const state = { attacking: false };
    const events: Array<[string, string, number]> = [];
    const run = await mixedRun(
      plan(fakeAttack(state, true), { attackMs: 200, attackCapMs: 700, afterMs: 400 }),
      deps(state, events, []),
    );
    const attack = run.attacks[0]!;
    expect(attack.capped).toBe(true);
    expect(run.attackStopAt - run.attackStartAt).toBeGreaterThanOrEqual(690);
    expect(run.attackStopAt - run.attackStartAt).toBeLessThan(1_500);
    expect(phaseStats(run.samples, 'after').arrivals).toBeGreaterThan(5);
  });

  it(
    "a family's attacks run one after another, " +
      'each in its own window with its own cap, so each has a tax of its own',
    async () => {
      const state = { attacking: false };
      const events: Array<[string, string, number]> = [];
      let concurrent = 0;
      let most = 0;
      const counted = (attack: Attack): Attack => ({
        ...attack,
        async run(t, p, schedule) {
          most = Math.max(most, ++concurrent);
          try {
            return await attack.run(t, p, schedule);
          } finally {
            concurrent--;
          }
        },
      });
      const first = counted(fakeAttack(state, true));
      const second = counted(fakeAttack(state));
      const run = await mixedRun(
        {
          ...plan(first, { beforeMs: 300, attackMs: 300, attackCapMs: 500, afterMs: 300 }),
          attacks: [
            { name: 'holds', attack: first, params: {}, ratePerSecond: 20, maxRequests: 1_000 },
            { name: 'settles', attack: second, params: {}, ratePerSecond: 20, maxRequests: 1_000 },
          ],
        },
        deps(state, events, []),
      );
      expect(most).toBe(1);
      const [a, b] = run.attacks;
      expect(a!.capped).toBe(true);
      expect(b!.capped).toBe(false);
      expect(a!.startedAt).toBe(run.attackStartAt);
      expect(a!.stoppedAt - a!.startedAt).toBeGreaterThanOrEqual(490);
      expect(b!.startedAt).toBeGreaterThanOrEqual(a!.stoppedAt);
      expect(run.attackStopAt).toBe(b!.stoppedAt);
      expect(events.map(([action, name]) => `${action} ${name}`)).toEqual([
        'attack-start holds',
        'attack-stop holds',
        'attack-start settles',
        'attack-stop settles',
      ]);
      // Every legitimate round trip intended in either window belongs to the during phase.
      const inWindows = run.samples.filter(
        (x) =>
          (x.intendedAt >= a!.startedAt && x.intendedAt < a!.stoppedAt) ||
          (x.intendedAt >= b!.startedAt && x.intendedAt < b!.stoppedAt),
      );
      expect(inWindows.length).toBeGreaterThan(10);
      expect(inWindows.every((x) => x.phase === 'during')).toBe(true);
    },
  );

  it('requests an aborted attack started but never settled are recorded as held until the cap', async () => {
    const holding: Attack = {
      ...fakeAttack({ attacking: false }),
      async run(_t, _p, schedule) {
        schedule.onOutcome({ startedAt: performance.now(), latencyMs: 3, kind: 'cut' });
        await new Promise((r) => schedule.signal.addEventListener('abort', r, { once: true }));
        return { started: 4, settled: 1, notes: [] };
      },
    };
    const run = await mixedRun(
      plan(holding, { beforeMs: 100, attackMs: 100, attackCapMs: 400, afterMs: 100 }),
      deps({ attacking: false }, [], []),
    );
    const outcomes = run.attacks[0]!.outcomes;
    expect(outcomes.map((o) => o.kind)).toEqual(['cut', 'held', 'held', 'held']);
    expect(outcomes[1]!.latencyMs).toBeGreaterThanOrEqual(390);
  });

  it('an attack that throws is recorded as not run, and the load still finishes', async () => {
    const broken: Attack = {
      ...fakeAttack({ attacking: false }),
      run: () => Promise.reject(new Error('target is not loopback')),
    };
    const run = await mixedRun(
      plan(broken, { beforeMs: 200, attackMs: 100, afterMs: 200 }),
      deps({ attacking: false }, [], []),
    );
    expect(run.attacks[0]!.error).toBe('target is not loopback');
    expect(phaseStats(run.samples, 'before').ok).toBeGreaterThan(3);
  });

  it('failed, unfinished and dropped round trips are counted in their phase', async () => {
    const state = { attacking: false };
    const d = deps(state, [], []);
    let n = 0;
    // Every 5th round trip fails; the last ones outlive the drain (unfinished); one slot only, so some are dropped.
    d.legitIteration = () => async () => {
      if (++n % 5 === 0) throw Object.assign(new Error('no'), { kind: 'send refused' });
      await new Promise((r) => setTimeout(r, state.attacking ? 300 : 1));
    };
    const run = await mixedRun(
      plan(fakeAttack(state), { legitRatePerSecond: 50, maxInFlight: 1, legitTimeoutMs: 1_000 }),
      d,
    );
    const all = (['before', 'during', 'after'] as const).map((p) => phaseStats(run.samples, p));
    expect(all.reduce((t, s) => t + s.failed, 0)).toBeGreaterThan(0);
    expect(all[1]!.dropped).toBeGreaterThan(0);
    expect(all[0]!.firstFailure).toContain('send refused');
    expect(all.reduce((t, s) => t + s.arrivals, 0)).toBe(run.samples.length);
  });
});
