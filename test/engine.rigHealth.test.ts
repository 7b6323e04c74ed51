// A real run records the rig's own load (results.json `health`, rig/metrics/rigHealth.ts): each
// scenario that ran has it, with the open model's schedule as the executor counted it and, for the
// embedded agent, its CPU from /proc; a skipped scenario has none; `rig.health` is the worst of
// the scenarios'. Figures that depend on the machine's load are checked for shape only.
import { describe, expect, it } from 'vitest';
import { defineScenario, type ScenarioDefinition } from '../rig/engine/kit/defineScenario.ts';
import { runScenarios } from '../rig/engine/runScenarios.ts';
import { constantArrivals } from '../rig/load/arrivalSchedule.ts';
import type { OpenModelResult } from '../rig/load/openModelExecutor.ts';
import { worstHealth } from '../rig/metrics/rigHealth.ts';
import { fellBehind } from '../rig/metrics/scheduleTruth.ts';

const base = {
  tags: [],
  params: { smoke: {}, ci: {}, full: {} },
  budgetMs: { smoke: 30_000, ci: 30_000, full: 30_000 },
  records: { latencies: [], counters: {} },
};

const loads: OpenModelResult[] = [];
const loaded = defineScenario({
  ...base,
  name: 'health-load',
  description: 'two short open-model loads',
  needs: { hitlPrompt: true },
  async run(ctx) {
    for (let i = 0; i < 2; i++)
      loads.push(
        await ctx.runOpenModel({
          arrivals: constantArrivals(20, 400),
          iteration: ctx.hitlRoundTrip(),
          maxInFlight: 8,
          iterationTimeoutMs: 5_000,
          drainTimeoutMs: 5_000,
        }),
      );
    ctx.check(
      'round trips succeeded',
      loads.every((l) => l.succeeded > 0),
    );
  },
});

const skipped = defineScenario({
  ...base,
  name: 'health-skipped',
  description: 'skips at once',
  needs: {},
  async run(ctx) {
    ctx.skip('not here');
  },
});

describe('results.json health', () => {
  it('per scenario that ran, and the worst of them on the run', { timeout: 60_000 }, async () => {
    const run = await runScenarios([loaded, skipped] as ScenarioDefinition<object>[], {
      profile: 'smoke',
      toxiproxy: 'none',
      agentFault: [],
      a2aVersion: 'auto',
    });
    const [ran, skip] = run.scenarios;
    expect([ran!.verdict, skip!.verdict]).toEqual(['passed', 'skipped']);
    const h = ran!.health!;
    expect(h).toBeDefined();
    const sum = (f: (l: OpenModelResult) => number) => f(loads[0]!) + f(loads[1]!);
    expect(h.schedule).toMatchObject({
      started: sum((l) => l.started),
      late: sum((l) => l.late),
      maxStartLagMs: Math.round(Math.max(...loads.map((l) => l.maxStartLagMs)) * 10) / 10,
      scheduled: sum((l) => l.scheduled),
      dropped_iterations: sum((l) => l.dropped),
      schedule_lag: { count: sum((l) => l.started) },
    });
    // The steps where the generator fell behind are the executor's, each named by its load.
    const behind = loads.flatMap((l, i) =>
      l.schedule.steps.filter((st) => fellBehind(st, l.schedule.lateAfterMs)).map(() => i + 1),
    );
    expect((h.schedule!.behind ?? []).map((b) => b.load)).toEqual(behind);
    expect(h.cores).toBeGreaterThan(0);
    expect(h.rigCpu.pctOfCore).toBeGreaterThanOrEqual(0);
    expect(h.eventLoopDelayMs.max).toBeGreaterThanOrEqual(h.eventLoopDelayMs.p99);
    if (process.platform === 'linux') {
      expect(h.agentCpu?.source).toMatch(/^\/proc\/\d+$/);
      expect(h.machine?.runnableMax).toBeGreaterThanOrEqual(0);
    }
    expect(skip).not.toHaveProperty('health');
    expect(run.rig.health).toEqual(worstHealth([h]));
    expect(run.rig.health).not.toHaveProperty('points');
  });
});
