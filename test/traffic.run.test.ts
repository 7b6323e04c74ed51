// A real run against the embedded reference agent records what every report reads: each
// scenario's traffic (operations with counts and bytes, points over time, offered against achieved
// for an open-model load), its log lines with their time, an errored scenario's stack pointing into
// the scenario's file, and the live events (log lines as said, traffic once a second).
import { describe, expect, it } from 'vitest';
import { defineScenario, type ScenarioDefinition } from '../rig/engine/kit/defineScenario.ts';
import { runScenarios } from '../rig/engine/runScenarios.ts';
import { constantArrivals } from '../rig/load/arrivalSchedule.ts';
import type { OpenModelResult } from '../rig/load/openModelExecutor.ts';
import type {
  RunObserver,
  ScenarioEnd,
  ScenarioLogLine,
  ScenarioPosition,
  ScenarioTraffic,
} from '../rig/results/runObserver.ts';
import type { RunResult, ScenarioResult } from '../rig/results/runResult.ts';

const records = { latencies: [], counters: {} };
const budget = { smoke: 30_000, ci: 30_000, full: 30_000 };
const params = { smoke: {}, ci: {}, full: {} };

/** A scenario of this file: no params, no records, a 30 s budget. */
function scenarioOf(
  name: string,
  description: string,
  run: ScenarioDefinition<object>['run'],
  needs: ScenarioDefinition<object>['needs'] = {},
): ScenarioDefinition<object> {
  return defineScenario({ name, description, tags: [], needs, params, budgetMs: budget, records, run });
}

let explicitGets = 0;
const exact = scenarioOf(
  'traffic-exact',
  'one prompt, one answer observed on a stream, three GetTask',
  async (ctx) => {
    ctx.log('opening a prompt');
    const open = await ctx.openPrompt();
    const prompt = ctx.usable(open)!;
    ctx.log(`answering ${prompt.promptId}`);
    const observed = await ctx.answerObserved(open.taskId, prompt.promptId, prompt.answers.valid);
    ctx.check('accepted', observed.outcome.kind === 'accepted', observed.outcome.kind);
    for (let i = 0; i < 3; i++) {
      await ctx.client.getTask(open.taskId);
      explicitGets++;
    }
    ctx.note('a note is a log line too');
  },
  { hitlPrompt: true },
);

let load: OpenModelResult | undefined;
/** The load's arrivals that came due so far, as the executor told its own observer. */
let loadDue = 0;
const loaded = scenarioOf(
  'traffic-load',
  'HITL round trips at 25/s for 2.4 s',
  async (ctx) => {
    load = await ctx.runOpenModel({
      arrivals: constantArrivals(25, 2_400),
      iteration: ctx.hitlRoundTrip(),
      maxInFlight: 20,
      iterationTimeoutMs: 5_000,
      drainTimeoutMs: 5_000,
      observer: { due: () => loadDue++, succeeded: () => {} },
    });
    ctx.check('round trips succeeded', load.succeeded > 0, `${load.succeeded}/${load.scheduled}`);
  },
  { hitlPrompt: true },
);

function throwsFromTheScenario(): never {
  throw new Error('the scenario broke');
}

const errored = scenarioOf('traffic-errored', 'throws after one GetTask', async (ctx) => {
  await ctx.client.getTask('no-such-task');
  throwsFromTheScenario();
});

const failedCheck = scenarioOf('traffic-failed', 'a failed check and a thrown error: failed, no stack', async (ctx) => {
  ctx.check('never', false);
  throw new Error('after a failed check');
});

const silent = scenarioOf('traffic-silent', 'sends nothing, says nothing', async (ctx) => {
  ctx.check('nothing to do', true);
});

/**
 * What a run observer was told, in order, each with what it was; live traffic also with how many of
 * the load's arrivals had come due by then.
 */
type Told =
  | (ScenarioPosition & { phase: 'start' })
  | (ScenarioEnd & { phase: 'end' })
  | (ScenarioLogLine & { phase: 'log' })
  | (ScenarioTraffic & { phase: 'traffic'; due: number });

function recording(events: Told[]): RunObserver {
  return {
    onScenarioStart: (e) => events.push({ ...e, phase: 'start' }),
    onScenarioEnd: (e) => events.push({ ...e, phase: 'end' }),
    onLog: (e) => events.push({ ...e, phase: 'log' }),
    onTraffic: (e) => events.push({ ...e, phase: 'traffic', due: loadDue }),
  };
}

describe('a run records traffic, log lines and stacks', () => {
  let run: RunResult;
  const events: Told[] = [];
  const byName = (name: string): ScenarioResult => run.scenarios.find((s) => s.name === name)!;

  it('runs', { timeout: 60_000 }, async () => {
    run = await runScenarios([exact, loaded, errored, failedCheck, silent] as ScenarioDefinition<object>[], {
      profile: 'smoke',
      toxiproxy: 'none',
      agentFault: [],
      a2aVersion: 'auto',
      observer: recording(events),
    });
    expect(run.scenarios.map((s) => [s.name, s.verdict])).toEqual([
      ['traffic-exact', 'passed'],
      ['traffic-load', 'passed'],
      ['traffic-errored', 'errored'],
      ['traffic-failed', 'failed'],
      ['traffic-silent', 'passed'],
    ]);
  });

  it('per operation: SendMessage, answer, GetTask and the subscription, with their counts and bytes', () => {
    const traffic = byName('traffic-exact').traffic!;
    const op = (name: string) => traffic.operations.find((o) => o.operation === name);
    expect(traffic.operations.map((o) => o.operation)).toEqual(
      expect.arrayContaining(['SendMessage', 'answer', 'GetTask', 'SubscribeToTask']),
    );
    expect(op('answer')).toMatchObject({ count: 1, ok: 1, rpcErrors: 0, failed: 0 });
    expect(op('SendMessage')!.count).toBe(1);
    expect(op('GetTask')!.count).toBeGreaterThanOrEqual(explicitGets);
    expect(explicitGets).toBe(3);
    for (const o of traffic.operations) {
      expect(o.count, o.operation).toBe(o.ok + o.rpcErrors + o.failed);
      expect(o.latency.count, o.operation).toBe(o.count);
      expect(o.bytesSent, o.operation).toBeGreaterThan(100);
      expect(o.bytesReceived, o.operation).toBeGreaterThan(100);
    }
    // The subscription's events (the resume) arrive after its headers: counted too.
    expect(op('SubscribeToTask')!.bytesReceived).toBeGreaterThan(400);
    const sum = (f: (o: (typeof traffic.operations)[number]) => number) =>
      traffic.operations.reduce((n, o) => n + f(o), 0);
    expect(traffic.totals).toEqual({
      requests: sum((o) => o.count),
      errors: sum((o) => o.rpcErrors + o.failed),
      bytesSent: sum((o) => o.bytesSent),
      bytesReceived: sum((o) => o.bytesReceived),
    });
    expect(traffic.points.reduce((n, p) => n + p.completed, 0)).toBe(traffic.totals.requests);
    expect(Math.max(...traffic.points.map((p) => p.inFlightMax))).toBeGreaterThanOrEqual(1);
    expect(traffic.points[0]).not.toHaveProperty('offered');
  });

  it('an open-model load: offered and achieved per bucket add up to what the executor counted', () => {
    const traffic = byName('traffic-load').traffic!;
    expect(load).toBeDefined();
    expect(traffic.points.reduce((n, p) => n + (p.offered ?? 0), 0)).toBe(load!.scheduled);
    expect(traffic.points.reduce((n, p) => n + (p.achieved ?? 0), 0)).toBe(load!.succeeded);
    expect(load!.scheduled).toBe(60);
    // Each round trip answers once.
    expect(traffic.operations.find((o) => o.operation === 'answer')!.count).toBe(load!.started);
    // Offered arrivals spread over the 2.4 s schedule (100 ms buckets): not all in one.
    expect(Math.max(...traffic.points.map((p) => p.offered ?? 0))).toBeLessThanOrEqual(4);
  });

  it('log lines with their time, in order, notes included; none for a scenario that said nothing', () => {
    const log = byName('traffic-exact').log!;
    expect(log.map((l) => l.line)).toEqual([
      'opening a prompt',
      expect.stringMatching(/^answering /),
      'a note is a log line too',
    ]);
    expect(log.map((l) => l.t)).toEqual([...log.map((l) => l.t)].sort((a, b) => a - b));
    expect(log.at(-1)!.t).toBeGreaterThan(0);
    expect(log.at(-1)!.t).toBeLessThanOrEqual(byName('traffic-exact').durationMs);
    expect(byName('traffic-silent')).not.toHaveProperty('log');
    expect(byName('traffic-silent')).not.toHaveProperty('traffic');
  });

  it('an errored scenario keeps its stack, its own file first; a failed one has none', () => {
    const stack = byName('traffic-errored').stack!;
    expect(stack.split('\n')[0]).toMatch(/^at throwsFromTheScenario \(.*test\/traffic\.run\.test\.ts:\d+:\d+\)$/);
    expect(stack.split('\n').every((l) => l.startsWith('at '))).toBe(true);
    expect(stack).not.toContain('node:internal');
    expect(byName('traffic-errored').traffic!.operations).toEqual([
      expect.objectContaining({ operation: 'GetTask', count: 1, rpcErrors: 1 }),
    ]);
    expect(byName('traffic-failed')).not.toHaveProperty('stack');
    expect(byName('traffic-exact')).not.toHaveProperty('stack');
  });

  it('live: log lines as they are said, traffic once a second while a scenario sends, inside start and end', () => {
    const of = (scenario: string) => events.filter((e) => e.scenario === scenario);
    const exactEvents = of('traffic-exact');
    expect(exactEvents[0]!.phase).toBe('start');
    expect(exactEvents.at(-1)!.phase).toBe('end');
    expect(exactEvents.filter((e) => e.phase === 'log').map((e) => (e.phase === 'log' ? e.line : ''))).toEqual(
      byName('traffic-exact').log!.map((l) => l.line),
    );
    const live = of('traffic-load').flatMap((e) => (e.phase === 'traffic' ? [e.live] : []));
    // 2.4 s of load: at least two whole seconds of it.
    expect(live.length).toBeGreaterThanOrEqual(2);
    const busy = live.filter((l) => l.offeredPerS !== undefined);
    expect(busy.length).toBeGreaterThanOrEqual(2);
    for (const l of busy) {
      expect(l.ratePerS).toBeGreaterThan(0);
      expect(l.p95Ms).toBeGreaterThanOrEqual(l.p50Ms!);
    }
    // The offered rate shown is the running load's, whatever the machine's speed: over the window
    // (since the previous traffic event) the arrivals the executor made due stand to the exchanges
    // that ended as the offered rate to the ended rate (one window length divides both). Each rate
    // is rounded to 0.1/s, hence the slack.
    expect(loadDue).toBe(load!.scheduled);
    let before = { due: 0, requests: 0 };
    for (const e of of('traffic-load')) {
      if (e.phase !== 'traffic') continue;
      const due = e.due - before.due;
      const ended = e.live.requests - before.requests;
      if (e.live.offeredPerS !== undefined) {
        const offered = (due * e.live.ratePerS) / ended;
        const shown = `${e.live.offeredPerS}/s offered, ${e.live.ratePerS}/s ended; ${due} due, ${ended} ended`;
        expect(Math.abs(e.live.offeredPerS - offered), shown).toBeLessThanOrEqual(0.05 + (0.05 * due) / ended + 1e-9);
      }
      before = { due: e.due, requests: e.live.requests };
    }
    expect(live.map((l) => l.requests)).toEqual([...live.map((l) => l.requests)].sort((a, b) => a - b));
    expect(of('traffic-silent').map((e) => e.phase)).toEqual(['start', 'end']);
    const ends = events.filter((e) => e.phase === 'end').length;
    expect(ends).toBe(5);
    expect(events.at(-1)!.phase).toBe('end');
  });
});
