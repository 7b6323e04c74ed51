// The capacity scenario's search, driven through a fake context: no agent, no clock, no sleeping.
// Each "step" is answered at once from a model of the agent (its knee) and of the rig (from which
// rate its load generator saturates), so the order of the steps, the refined figure and what the
// check says are exact. The real executor and health monitor have their own tests.
import { describe, expect, it } from 'vitest';
import capacity from '../scenarios/capacity.ts';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';
import type { RigHealth } from '../rig/metrics/rigHealth.ts';
import type { OpenModelOptions, OpenModelResult } from '../rig/load/openModelExecutor.ts';
import { truthOf } from './support/scheduleTruthFixture.ts';
import type { CheckResult, SeriesPoint } from '../rig/results/runResult.ts';
import type { ScenarioContext } from '../rig/engine/kit/scenarioContextInterface.ts';

const calm: RigHealth = {
  durationMs: 1000,
  cores: 2,
  eventLoopDelayMs: { p50: 0.1, p99: 3, max: 6 },
  rigCpu: { pctOfCore: 50, peakPctOfCore: 50, pctOfCores: 25 },
  agentCpu: { pctOfCore: 100, source: '/proc/1' },
};
const saturated: RigHealth = {
  ...calm,
  eventLoopDelayMs: { p50: 4, p99: 45, max: 90 },
  rigCpu: { pctOfCore: 97, peakPctOfCore: 97, pctOfCores: 48.5 },
};

/** A step at `rate` answered from the model: under `slowFrom` every round trip takes 10 ms, from it 2 s. */
function step(options: OpenModelOptions, rate: number, slowFrom: number): OpenModelResult {
  const arrivals = [...options.arrivals];
  const ms = rate >= slowFrom ? 2_000 : 10;
  const latency = options.latency ?? new LatencyHistogram();
  const serviceTime = new LatencyHistogram();
  const origin = options.origin ?? 0;
  for (const a of arrivals) {
    latency.recordMs(ms);
    serviceTime.recordMs(ms);
    options.observer?.succeeded(origin + a.atMs + ms);
  }
  const n = arrivals.length;
  return {
    ...{ scheduled: n, started: n, succeeded: n, failed: 0, failures: {}, firstFailure: undefined },
    ...{ dropped: 0, late: 0, unfinished: 0, maxStartLagMs: 0, peakInFlight: 8, latency, serviceTime },
    // The slow steps' starts lag 25 ms, the loop stalls 30 ms: what the curve point says of the schedule.
    ...{ elapsedMs: 1_000, aborted: false },
    schedule: {
      ...truthOf([{ lags: [ms > 10 ? 25 : 0.5] }]),
      eventLoopDelayMs: { p50: 0, p99: 1, max: ms > 10 ? 30 : 2 },
    },
  };
}

/** Runs capacity at ci with 1 s steps against an agent whose knee is `knee`/s, the rig saturating from `rigFrom`/s. */
async function search(model: { knee: number; rigFrom: number }) {
  const rates: number[] = [];
  const counters: Record<string, number> = {};
  const checks: CheckResult[] = [];
  const curve: SeriesPoint[] = [];
  const notJudged: Record<string, string> = {};
  const clients: unknown[] = [];
  let rate = 0;
  const ctx = {
    agent: { hitl: true },
    skip: (why: string) => {
      throw new Error(why);
    },
    newClient: (connections: number, options?: unknown) => (clients.push([connections, options]), { viaProxy: false }),
    faults: { backend: 'embedded' },
    hitlRoundTrip: () => () => Promise.resolve(),
    // The scenario names each step's round-trip series by its rate just before running the step.
    latency: (name: string, labels?: { rate: number }) => {
      if (name === 'round_trip') rate = labels!.rate;
      return new LatencyHistogram();
    },
    remainingMs: () => 1e9,
    runOpenModel: (o: OpenModelOptions) => {
      if (o.latency) rates.push(rate); // not the warm-up, which records nothing
      return Promise.resolve(step(o, o.latency ? rate : 10, Math.min(model.knee + 1, model.rigFrom)));
    },
    watchRig: () => ({ end: () => (rate >= model.rigFrom ? saturated : calm) }),
    count: (name: string, by = 1) => (counters[name] = (counters[name] ?? 0) + by),
    plot: (_: string, p: SeriesPoint) => curve.push(p),
    log: () => {},
    note: () => {},
    measureNotJudged: (name: string, why: string) => (notJudged[name] = why),
    check: (name: string, ok: boolean, detail?: string) => checks.push({ name, ok, ...(detail ? { detail } : {}) }),
  } as unknown as ScenarioContext;
  await capacity.run(ctx, { ...capacity.params.ci, stepMs: 1_000 });
  return { rates, counters, check: checks[0]!, curve, notJudged, clients };
}

describe('the capacity search', () => {
  it('ramps ×1.5, then bisects the knee to 10 %: the refined figure, not the ramp’s', async () => {
    const r = await search({ knee: 700, rigFrom: Infinity });
    expect(r.rates).toEqual([10, 15, 23, 34, 51, 76, 114, 171, 256, 384, 577, 865, 721, 649, 685]);
    expect(r.counters).toMatchObject({ capacity_per_s: 685, slo_broken_at_per_s: 721, capacity_rig_limited: 0 });
    expect(r.check.ok).toBe(true);
    expect(r.check.detail).toMatch(/^capacity 685\/s \(between 685 and 721\/s, resolution 10 %\)/);
    expect(r.curve.filter((p) => p.refined).map((p) => [p.x, p.sustainable, p.limit])).toEqual([
      [721, false, 'agent'],
      [649, true, undefined],
      [685, true, undefined],
    ]);
    expect(r.notJudged).toEqual({});
    // Achieved counts what ended within the step: at 865/s every 2 s round trip ended in the drain.
    const at = (x: number) => r.curve.find((p) => p.x === x)!;
    expect([at(865).achieved_per_s, at(865).drained]).toEqual([0, 865]);
    // HDR keeps 3 significant digits: 25 ms reads 25.007.
    expect(at(865)).toMatchObject({ schedule_lag_p99_ms: expect.closeTo(25, 1), loop_delay_max_ms: 30 });
    expect(at(10)).toMatchObject({ schedule_lag_p99_ms: expect.closeTo(0.5, 2), loop_delay_max_ms: 2 });
    expect(at(577).achieved_per_s).toBeLessThan(577);
    expect((at(577).achieved_per_s as number) + (at(577).drained as number)).toBe(577);
  });

  it("each step says what it cost: the rig's and the agent's CPU over it, per round trip completed", async () => {
    const r = await search({ knee: 700, rigFrom: Infinity });
    // 1 s steps: half a core of the rig's and a whole one of the agent's over 685 round trips.
    expect(r.curve.find((p) => p.x === 685)).toMatchObject({
      rig_cpu_pct: 50,
      agent_cpu_pct: 100,
      rig_cpu_us_per_round_trip: 730,
      agent_cpu_us_per_round_trip: 1460,
    });
    expect(r.curve.find((p) => p.x === 10)).toMatchObject({ rig_cpu_us_per_round_trip: 50_000 });
    // The load's client checks every reply and keeps none: kept, they made GC the rig's largest cost.
    // It takes the fault proxy only under a --toxic, and each point says what the rig's CPU counts.
    expect(r.clients).toEqual([[64, { keepResponses: false, proxy: 'for-toxics' }]]);
    expect(r.curve.find((p) => p.x === 685)!.rig_cpu_counts).toMatch(/^the rig's process .* straight to the agent/);
  });

  it('against an agent faster than the rig: the load generator was the limit, capacity not judged', async () => {
    const r = await search({ knee: Infinity, rigFrom: 867 });
    expect(r.counters).toMatchObject({ capacity_per_s: 865, slo_broken_at_per_s: 919, capacity_rig_limited: 1 });
    expect(r.check.ok).toBe(true);
    expect(r.check.detail).toMatch(
      /^capacity ≥ 865\/s \(p95 10 ms at 865\/s\): the load generator was the limit at 919\/s /,
    );
    expect(r.check.detail).toMatch(
      /\(saturated: event-loop delay p99 45.0 ms .*rig CPU 97 % of a core.*\); the agent's/,
    );
    expect(r.notJudged.capacity_per_s).toBe(r.check.detail);
    expect(r.curve.at(-1)).toMatchObject({ x: 919, sustainable: false, limit: 'rig' });
  });
  it('a first step that breaks is the agent’s even with the rig saturated: no sustainable rate fails', async () => {
    // slow-resume's 1.5 s resume on a loaded box: 10/s is far below any rig's limit.
    const r = await search({ knee: 0, rigFrom: 0 });
    expect(r.rates).toEqual([10]);
    expect(r.check).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^no sustainable rate; the SLO broke at 10\/s/),
    });
    expect(r.counters).toMatchObject({ capacity_per_s: 0, capacity_rig_limited: 0 });
    expect(r.notJudged).toEqual({});
  });
});
