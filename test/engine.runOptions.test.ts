// Run-wide options: `--toxic` (parsed into a toxic spec, applied to the agent's proxy for every
// scenario, kept across a scenario's own fault reset, recorded in results.json) and `--param`
// (a scenario parameter overridden with the type it already has, mistakes refused in one line).
import { describe, expect, it } from 'vitest';
import { defineScenario, type ScenarioDefinition } from '../rig/engine/kit/defineScenario.ts';
import { parseParamArgument, resolveParamOverrides } from '../rig/engine/paramOverrides.ts';
import { runScenarios } from '../rig/engine/runScenarios.ts';
import type { ScenarioContext } from '../rig/engine/kit/scenarioContextInterface.ts';
import { UserError } from '../rig/protocol/userError.ts';
import { parseToxicArgument } from '../rig/proxy/toxicArgument.ts';

describe('--toxic', () => {
  it('reads the main attribute from TYPE=VALUE and more from the list', () => {
    expect(parseToxicArgument('latency=50')).toEqual({ type: 'latency', attributes: { latency: 50 } });
    expect(parseToxicArgument('latency=50,jitter=10')).toEqual({
      type: 'latency',
      attributes: { latency: 50, jitter: 10 },
    });
    expect(parseToxicArgument('bandwidth=100,stream=upstream,toxicity=0.5')).toEqual({
      type: 'bandwidth',
      attributes: { rate: 100 },
      stream: 'upstream',
      toxicity: 0.5,
    });
    expect(parseToxicArgument('slicer=64,size_variation=8,delay=100')).toEqual({
      type: 'slicer',
      attributes: { average_size: 64, size_variation: 8, delay: 100 },
    });
    expect(parseToxicArgument('reset_peer=500')).toEqual({ type: 'reset_peer', attributes: { timeout: 500 } });
    expect(parseToxicArgument('limit_data=1024')).toEqual({ type: 'limit_data', attributes: { bytes: 1024 } });
  });

  it.each([
    ['latency', /NAME=VALUE/],
    ['latency=', /NAME=VALUE/],
    ['lag=50', /unknown toxic type "lag"/],
    ['latency=-5', /whole number/],
    ['latency=1.5', /whole number/],
    ['latency=50,rate=3', /latency has no attribute "rate"/],
    ['latency=50,latency=60', /given twice/],
    ['latency=50,stream=sideways', /upstream or downstream/],
    ['latency=50,toxicity=2', /from 0 to 1/],
  ])('refuses %s with one line saying what to write', (text, message) => {
    expect(() => parseToxicArgument(text)).toThrow(UserError);
    expect(() => parseToxicArgument(text)).toThrow(message);
  });
});

describe('--param', () => {
  const scenario = defineScenario({
    name: 'sample',
    description: 'sample',
    tags: [],
    needs: {},
    params: {
      smoke: { rate: 5, strict: true, label: 'a', rates: [1, 2], slo: { p95: 1 } },
      ci: { rate: 10, strict: true, label: 'a', rates: [1, 2], slo: { p95: 1 } },
      full: { rate: 20, strict: true, label: 'a', rates: [1, 2], slo: { p95: 1 } },
    },
    budgetMs: { smoke: 1, ci: 1, full: 1 },
    records: { latencies: [], counters: {} },
    run: async () => {},
  }) as ScenarioDefinition<object>;
  const resolve = (...texts: string[]) => resolveParamOverrides([scenario], 'smoke', texts.map(parseParamArgument));

  it('reads a value as the type the parameter already has', () => {
    expect(
      resolve(
        'sample.rate=7.5',
        'sample.strict=false',
        'sample.label=b=c',
        'sample.rates=[3,4]',
        'sample.slo={"p95":2}',
      ),
    ).toEqual({
      sample: { rate: 7.5, strict: false, label: 'b=c', rates: [3, 4], slo: { p95: 2 } },
    });
  });

  it.each([
    ['rate=5', /SCENARIO\.KEY=VALUE/],
    ['other.rate=5', /no scenario "other" is selected/],
    ['sample.speed=5', /no parameter "speed"; it has rate, strict, label, rates, slo/],
    ['sample.rate=fast', /must be a number/],
    ['sample.rate=', /must be a number/],
    ['sample.strict=yes', /true or false/],
    ['sample.rates={"a":1}', /JSON array/],
    ['sample.slo=[1]', /JSON object/],
    ['sample.slo={', /must be JSON/],
  ])('refuses %s', (text, message) => {
    expect(() => resolve(text)).toThrow(UserError);
    expect(() => resolve(text)).toThrow(message);
  });
});

describe('a run under --toxic', () => {
  it(
    "puts the toxic on every scenario, keeps it across a scenario's reset, and records it",
    { timeout: 60_000 },
    async () => {
      const seen: Array<{ scenario: string; ms: number[] }> = [];
      const probe = (name: string) =>
        defineScenario({
          name,
          description: 'times GetTask through the proxy, before and after resetting faults',
          tags: [],
          needs: { faults: true },
          params: { smoke: {}, ci: {}, full: {} },
          budgetMs: { smoke: 20_000, ci: 20_000, full: 20_000 },
          records: { latencies: [], counters: {} },
          async run(ctx) {
            const time = async () => {
              const got = await ctx.client.getTask('no-such-task', { signal: ctx.signal });
              return got.meta.latencyMs;
            };
            const before = await time();
            await ctx.faults.reset();
            const after = await time();
            seen.push({ scenario: name, ms: [before, after] });
            ctx.check('timed', true);
          },
        }) as ScenarioDefinition<object>;
      const result = await runScenarios([probe('first'), probe('second')], {
        profile: 'smoke',
        toxiproxy: { kind: 'embedded' },
        agentFault: [],
        a2aVersion: 'auto',
        toxic: [parseToxicArgument('latency=80')],
      });
      expect(result.scenarios.map((s) => s.verdict)).toEqual(['passed', 'passed']);
      for (const { ms } of seen) for (const latency of ms) expect(latency).toBeGreaterThanOrEqual(75);
      expect(result.toxics).toEqual([
        {
          name: 'run1-latency_downstream',
          type: 'latency',
          stream: 'downstream',
          toxicity: 1,
          attributes: { latency: 80, jitter: 0 },
        },
      ]);
    },
  );
});

describe('what a scenario records', () => {
  const recorder = (name: string, body: (ctx: ScenarioContext) => void) =>
    defineScenario({
      name,
      description: 'records what its body says',
      tags: [],
      needs: {},
      params: { smoke: {}, ci: {}, full: {} },
      budgetMs: { smoke: 20_000, ci: 20_000, full: 20_000 },
      records: { latencies: ['step{rate}'], counters: { done: 'tally', never: 'tally', 'errors{kind}': 'tally' } },
      async run(ctx) {
        body(ctx);
        ctx.check('recorded', true);
      },
    }) as ScenarioDefinition<object>;

  it(
    'records declared names (labelled ones under one key), declared counters as 0, and errors on an undeclared name',
    { timeout: 60_000 },
    async () => {
      const result = await runScenarios(
        [
          recorder('declared', (ctx) => {
            ctx.latency('step', { rate: 40 }).recordMs(3);
            ctx.count('done', 2);
            ctx.count('errors', 1, { kind: 'timeout' });
          }),
          recorder('undeclared-counter', (ctx) => ctx.count('answers_rejected')),
          recorder('undeclared-latency', (ctx) => ctx.latency('round_trip@40/s')),
          recorder('missing-label', (ctx) => ctx.latency('step')),
        ],
        { profile: 'smoke', toxiproxy: 'none', agentFault: [], a2aVersion: 'auto' },
      );
      const [declared, counter, latency, label] = result.scenarios;
      expect(declared).toMatchObject({ verdict: 'passed', counters: { done: 2, never: 0, 'errors{kind=timeout}': 1 } });
      expect(Object.keys(declared!.metrics)).toEqual(['step{rate=40}']);
      expect(declared!.records).toEqual({
        latencies: ['step{rate}'],
        counters: { done: 'tally', never: 'tally', 'errors{kind}': 'tally' },
      });
      expect(counter).toMatchObject({
        verdict: 'errored',
        reason: "counter answers_rejected is not declared in the scenario's records (done, never, errors{kind})",
      });
      expect(latency).toMatchObject({
        verdict: 'errored',
        reason: expect.stringContaining('latency round_trip@40/s is not declared'),
      });
      expect(label).toMatchObject({
        verdict: 'errored',
        reason: expect.stringContaining('latency step is not declared'),
      });
    },
  );
});
