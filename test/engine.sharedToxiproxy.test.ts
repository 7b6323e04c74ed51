// A Toxiproxy that other people (or other runs) use too: a run names its proxy after itself, steps
// around a name that is taken (a killed run's leftover), touches only its own proxy when it resets
// faults, leaves nothing of its own behind, and two runs on one server at once both pass.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineScenario, type ScenarioDefinition } from '../rig/engine/kit/defineScenario.ts';
import { runScenarios } from '../rig/engine/runScenarios.ts';
import { loadScenarios, selectScenarios } from '../rig/engine/scenarioCatalog.ts';
import type { ScenarioContext } from '../rig/engine/kit/scenarioContextInterface.ts';
import type { ToxiproxyChoice } from '../rig/proxy/backend.ts';
import { spawnToxiproxyServer } from '../rig/proxy/toxiproxyServerProcess.ts';
import type { RunResult } from '../rig/results/runResult.ts';
import { backendCases, callApi, realToxiproxyBinary, type ToxiproxyUnderTest } from './support/proxyBackends.ts';
import { startRecordingServer, type RecordingServer } from './support/tcpPeers.ts';

const LATENCY_MS = 300;

function probe(name: string, body: (ctx: ScenarioContext) => Promise<void>): ScenarioDefinition<object> {
  return defineScenario({
    name,
    description: 'drives the fault helpers of its own proxy',
    tags: [],
    needs: { faults: true },
    records: { latencies: [], counters: {} },
    params: { smoke: {}, ci: {}, full: {} },
    budgetMs: { smoke: 30_000, ci: 30_000, full: 30_000 },
    run: body,
  }) as ScenarioDefinition<object>;
}

/** GetTask through the run's proxy, timed: shows whether a latency toxic is in place. */
async function timedThroughProxy(ctx: ScenarioContext): Promise<number> {
  return (await ctx.client.getTask('no-such-task', { signal: ctx.signal })).meta.latencyMs;
}

const addResetAndCheck = probe('add-reset', async (ctx) => {
  await ctx.faults.add({ type: 'latency', attributes: { latency: LATENCY_MS } });
  await ctx.faults.setEnabled(false);
  await ctx.faults.reset();
  ctx.check('own proxy clean after reset', (await timedThroughProxy(ctx)) < LATENCY_MS);
});

function run(scenarios: ScenarioDefinition<object>[], toxiproxy: ToxiproxyChoice, runId?: string): Promise<RunResult> {
  return runScenarios(scenarios, { profile: 'smoke', toxiproxy, agentFault: [], a2aVersion: 'auto', runId });
}

const reasons = (result: RunResult) =>
  result.scenarios.map((s) => `${s.name}: ${s.verdict} ${s.reason ?? ''}`).join('\n');

async function proxyNames(url: string): Promise<string[]> {
  return Object.keys((await callApi(url, 'GET', '/proxies')).json).sort();
}

describe.each(backendCases())('a run on a shared $name Toxiproxy', ({ skipReason, start }) => {
  let server: ToxiproxyUnderTest;
  let upstream: RecordingServer;

  beforeAll(async () => {
    if (skipReason) return;
    server = await start();
    upstream = await startRecordingServer();
  });
  afterAll(async () => {
    await upstream?.close();
    await server?.close();
  });

  describe.skipIf(skipReason !== undefined)('', () => {
    it(
      'steps around proxies a killed run left (the old fixed name, and its own name pattern), and deletes its own',
      { timeout: 60_000 },
      async () => {
        const runId = '20260101-000000-dead';
        for (const name of ['a2a-rig-agent', `a2a-rig-${runId}`]) {
          expect(
            (await callApi(server.url, 'POST', '/proxies', { name, listen: '127.0.0.1:0', upstream: upstream.address }))
              .status,
          ).toBe(201);
        }
        const before = await proxyNames(server.url);
        const result = await run([addResetAndCheck], { kind: 'url', url: server.url }, runId);
        expect(result.verdict, reasons(result)).toBe('passed');
        expect(result.proxy?.proxyName).toMatch(new RegExp(`^a2a-rig-${runId}-[0-9a-f]+$`));
        expect(await proxyNames(server.url)).toEqual(before);
        for (const name of before) await callApi(server.url, 'DELETE', `/proxies/${name}`);
      },
    );

    it(
      "leaves a stranger's toxics and disabled proxies as they were when it resets its own",
      { timeout: 60_000 },
      async () => {
        await callApi(server.url, 'POST', '/proxies', {
          name: 'someone-elses',
          listen: '127.0.0.1:0',
          upstream: upstream.address,
        });
        await callApi(server.url, 'POST', '/proxies/someone-elses/toxics', {
          name: 'their-latency',
          type: 'latency',
          attributes: { latency: 1000 },
        });
        await callApi(server.url, 'POST', '/proxies', {
          name: 'someone-elses-off',
          listen: '127.0.0.1:0',
          upstream: upstream.address,
          enabled: false,
        });
        try {
          const result = await run([addResetAndCheck], { kind: 'url', url: server.url });
          expect(result.verdict, reasons(result)).toBe('passed');
          const theirs = await callApi(server.url, 'GET', '/proxies/someone-elses');
          expect(theirs.json.toxics.map((t: { name: string }) => t.name)).toEqual(['their-latency']);
          expect((await callApi(server.url, 'GET', '/proxies/someone-elses-off')).json.enabled).toBe(false);
          expect(await proxyNames(server.url)).toEqual(['someone-elses', 'someone-elses-off']);
        } finally {
          await callApi(server.url, 'DELETE', '/proxies/someone-elses');
          await callApi(server.url, 'DELETE', '/proxies/someone-elses-off');
        }
      },
    );

    it("two runs at once: one run's reset does not lift the other's toxic", { timeout: 60_000 }, async () => {
      let toxicOn!: () => void;
      let otherReset!: () => void;
      const toxicIsOn = new Promise<void>((resolve) => (toxicOn = resolve));
      const otherHasReset = new Promise<void>((resolve) => (otherReset = resolve));
      const holder = probe('holder', async (ctx) => {
        await ctx.faults.add({ type: 'latency', attributes: { latency: LATENCY_MS } });
        toxicOn();
        await otherHasReset;
        const ms = await timedThroughProxy(ctx);
        ctx.check('toxic still in place after the other run reset', ms >= LATENCY_MS - 10, `${ms} ms`);
      });
      const resetter = probe('resetter', async (ctx) => {
        await toxicIsOn;
        await ctx.faults.reset();
        otherReset();
        ctx.check('reset', true);
      });
      const [a, b] = await Promise.all([
        run([holder], { kind: 'url', url: server.url }),
        run([resetter], { kind: 'url', url: server.url }),
      ]);
      expect([a.verdict, b.verdict], `${reasons(a)}\n${reasons(b)}`).toEqual(['passed', 'passed']);
      expect(a.proxy?.proxyName).not.toBe(b.proxy?.proxyName);
      expect(await proxyNames(server.url)).toEqual([]);
    });
  });
});

const binary = realToxiproxyBinary();
if (!binary.path) console.warn(`two concurrent runs on one real Toxiproxy skipped: ${binary.reason}`);

describe.skipIf(!binary.path)('two runs of real fault scenarios against one real Toxiproxy', () => {
  it('both pass, and neither leaves a proxy behind', { timeout: 180_000 }, async () => {
    const server = await spawnToxiproxyServer(binary.path!);
    try {
      const scenarios = selectScenarios(await loadScenarios(), ['disconnect-replay']);
      const choice: ToxiproxyChoice = { kind: 'url', url: server.url };
      const [a, b] = await Promise.all([run(scenarios, choice), run(scenarios, choice)]);
      expect([a.verdict, b.verdict], `${reasons(a)}\n${reasons(b)}`).toEqual(['passed', 'passed']);
      expect(a.proxy).toMatchObject({ backend: 'external', api: server.url });
      expect(await proxyNames(server.url)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
