// The scenario kit on the engine's context: its clients take the scenario's abort signal by default
// (scenarioContext.ts, A2AClient.abortWith): a call that names no signal ends when the scenario is
// aborted, without the scenario passing `{ signal: ctx.signal }`; a call's own signal still wins.
// The agent here never answers, so only an abort can end a call before the client's own bounds.
// ctx.expectNone words "none of n went wrong" one way; ctx.acceptance's moves are bound to ctx.
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../rig/client/a2aClient.ts';
import { describeAgent } from '../rig/client/agentDiscovery.ts';
import { TransportError } from '../rig/client/transportError.ts';
import { EngineScenarioContext, ScenarioSkipped } from '../rig/engine/scenarioContext.ts';
import { taskListed } from '../rig/engine/kit/taskListing.ts';
import { defineScenario, everyProfile } from '../rig/engine/kit/defineScenario.ts';
import type { Environment } from '../rig/engine/environment/environment.ts';

let server: Server;
let url: string;
const sockets = new Set<Socket>();
let received = 0;
let onRequest: () => void = () => {};

beforeAll(async () => {
  server = createServer(() => {
    received += 1;
    onRequest();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  server.close();
  await once(server, 'close').catch(() => {});
});

function silentClient(): A2AClient {
  const card = {
    name: 'silent',
    description: 'never answers',
    version: '0',
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true },
    defaultInputModes: [],
    defaultOutputModes: [],
    skills: [],
  };
  return A2AClient.forAgent(describeAgent(url, `${url}.well-known/agent-card.json`, card), { connections: 4 });
}

/** The engine's context on an environment that has only what building clients needs. */
function contextOn(signal: AbortSignal): EngineScenarioContext {
  const env = { options: {}, client: silentClient, directClient: silentClient } as unknown as Environment;
  return new EngineScenarioContext(env, 'smoke', signal, performance.now() + 60_000, new Map());
}

/** Resolves once the agent has received `n` requests in all. */
function requestsReceived(n: number): Promise<void> {
  return new Promise((resolve) => {
    onRequest = () => {
      if (received >= n) resolve();
    };
    onRequest();
  });
}

const outcome = (call: Promise<unknown>) =>
  call.then(
    () => 'answered',
    (err: unknown) => (err instanceof TransportError ? err.failure : String(err)),
  );

describe("a scenario's clients and its signal", () => {
  it('a call that names no signal ends when the scenario is aborted', { timeout: 20_000 }, async () => {
    const scenario = new AbortController();
    const ctx = contextOn(scenario.signal);
    const own = new AbortController();
    try {
      const before = received;
      const calls = [
        outcome(ctx.client.getTask('t1')),
        outcome(ctx.direct.getTask('t2')),
        outcome(ctx.newClient(1).send({ parts: [{ text: 'hi' }] })),
        ctx.client
          .answer('t3', 'p3', { ok: true })
          .then((o) => (o.kind === 'error' && /abort/.test(o.reason ?? '') ? 'aborted' : o.kind)),
        // Past the client's methods, straight to its transport: the listing takes the client's signal too.
        taskListed(ctx.direct, 't5', 'c5').then((l) =>
          l.kind === 'failed' && /abort/.test(l.reason) ? 'aborted' : l.kind,
        ),
      ];
      let ownEnded = false;
      const withOwn = outcome(ctx.client.getTask('t4', { signal: own.signal })).finally(() => (ownEnded = true));
      await requestsReceived(before + 6);
      scenario.abort();
      expect(await Promise.all(calls)).toEqual(['aborted', 'aborted', 'aborted', 'aborted', 'aborted']);
      // Its own signal, not the scenario's, ends a call that passed one.
      expect(ownEnded).toBe(false);
      own.abort();
      expect(await withOwn).toBe('aborted');
    } finally {
      own.abort();
      await ctx.close();
    }
  });
});

describe('ctx.expectNone', () => {
  it('passes on no problems with "n/n" or its own words; fails with "k of n; e.g." and three', async () => {
    const ctx = contextOn(new AbortController().signal);
    try {
      expect(ctx.expectNone('none lost', [], 4)).toBe(true);
      expect(ctx.expectNone('none refused', [], 2, { passed: '2 tasks' })).toBe(true);
      expect(ctx.expectNone('none late', ['a', 'b', 'c', 'd'], 9)).toBe(false);
      expect(ctx.expectNone('none odd', ['x'], 3, { level: 'SHOULD' })).toBe(false);
      expect(ctx.expectNone('none gone', ['t1', 't2'], 2, { wrong: 'lost' })).toBe(false);
      expect(ctx.checks).toEqual([
        { name: 'none lost', ok: true, detail: '4/4' },
        { name: 'none refused', ok: true, detail: '2 tasks' },
        { name: 'none late', ok: false, detail: '4 of 9; e.g. a; b; c' },
        { name: 'none odd', ok: false, detail: '1 of 3; e.g. x', level: 'SHOULD' },
        { name: 'none gone', ok: false, detail: '2 of 2 lost; e.g. t1; t2' },
      ]);
    } finally {
      await ctx.close();
    }
  });
});

describe('ctx.acceptance', () => {
  it('its moves are bound to the scenario: requireGate skips on an agent that declares no gate', async () => {
    const ctx = contextOn(new AbortController().signal);
    try {
      expect(() => ctx.acceptance.requireGate()).toThrow(ScenarioSkipped);
      expect(ctx.acceptance.stateOf(ctx.client, undefined)).toBe('not settled');
      expect(ctx.acceptance.attemptName(2)).toBe('attempt-2');
    } finally {
      await ctx.close();
    }
  });
});

describe('needs named per extension', () => {
  const definition = (needs: object) => ({
    name: 'mine',
    description: 'x',
    tags: [],
    needs,
    params: everyProfile({}),
    budgetMs: everyProfile(1_000),
    records: { latencies: [], counters: {} },
    run: async () => {},
  });

  it('hitlPrompt and acceptance load; the old `extension` is refused, naming the new key', () => {
    expect(defineScenario(definition({ hitlPrompt: true, acceptance: true })).needs).toEqual({
      hitlPrompt: true,
      acceptance: true,
    });
    expect(() => defineScenario(definition({ extension: true }))).toThrow(
      'scenario mine: needs.extension is now needs.hitlPrompt (the hitl-prompt/v1 extension; ' +
        'needs.acceptance is the acceptance-criteria one)',
    );
  });
});
