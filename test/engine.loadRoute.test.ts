// A load that adds no fault of its own (capacity's) goes through the run's fault proxy only when the
// run has toxics (`--toxic`): with the proxy disabled, such a client still reaches the agent when no
// toxic is set, and is cut like every proxied client when one is. A scenario holding such a client
// cannot add a toxic or disable the proxy (it would not touch that client): ctx.faults refuses, saying so.
import { afterEach, describe, expect, it } from 'vitest';
import { TransportError, userMessage, type A2AClient } from '../rig/client/index.ts';
import { Environment } from '../rig/engine/environment/environment.ts';
import { EngineScenarioContext } from '../rig/engine/scenarioContext.ts';
import { rigCpuCounts } from '../rig/load/capacitySearch.ts';
import { notImplementedAgent, type NotImplementedAgent } from './support/notImplementedAgent.ts';

// Every request the agent gets fails with its own HTTP 501: what a client reached is in its error.
const opened: Array<Environment | NotImplementedAgent> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

const LATENCY = { type: 'latency' as const, attributes: { latency: 1 } };

async function open(toxics: (typeof LATENCY)[] = []): Promise<Environment> {
  const agent = await notImplementedAgent();
  opened.push(agent);
  const env = await Environment.open({
    target: agent.url,
    toxiproxy: { kind: 'embedded' },
    agentFault: [],
    a2aVersion: 'auto',
    toxic: toxics,
  });
  opened.push(env);
  await env.applyRunToxics();
  // Every connection through the proxy is refused from here on: only a client that skips it gets an answer.
  await env.faults!.setEnabled(env.proxyName!, false);
  return env;
}

/** What a send got: the agent's own 501, or the proxy's refusal (a transport failure with no HTTP status). */
async function reached(client: A2AClient): Promise<'agent' | 'cut'> {
  try {
    await client.send(userMessage({ text: 'hi' }));
    throw new Error('the send did not fail');
  } catch (err) {
    if (!(err instanceof TransportError)) throw err;
    return err.message.includes('HTTP 501') ? 'agent' : 'cut';
  } finally {
    await client.close();
  }
}

describe("a load's route past the fault proxy", () => {
  it('goes straight to the agent when the run has no toxic', async () => {
    const e = await open();
    const load = e.client(undefined, 1, undefined, 'for-toxics');
    expect(load.viaProxy).toBe(false);
    expect(await reached(load)).toBe('agent');
    // The proxy really is in the way of every other client.
    const proxied = e.client();
    expect(proxied.viaProxy).toBe(true);
    expect(await reached(proxied)).toBe('cut');
  });

  it('goes through the proxy when the run has a toxic', async () => {
    const e = await open([LATENCY]);
    const load = e.client(undefined, 1, undefined, 'for-toxics');
    expect(load.viaProxy).toBe(true);
    expect(await reached(load)).toBe('cut');
  });

  it('says which processes the rig CPU counts', () => {
    expect(rigCpuCounts(false, 'embedded')).toMatch(/straight to the agent/);
    expect(rigCpuCounts(true, 'embedded')).toMatch(/with the embedded fault proxy/);
    expect(rigCpuCounts(true, 'spawned')).toMatch(/\(spawned\) runs apart, not counted/);
  });
});

describe('ctx.faults beside a client that skips the proxy', () => {
  const context = (e: Environment) =>
    new EngineScenarioContext(e, 'smoke', new AbortController().signal, performance.now() + 60_000, new Map());

  it('refuses a toxic or a disabled proxy, which that client would never meet', async () => {
    const ctx = context(await open());
    try {
      expect(ctx.faults.backend).toBe('embedded');
      ctx.newClient(1, { proxy: 'for-toxics' });
      await expect(ctx.faults.add(LATENCY)).rejects.toThrow(/goes straight to the agent .* would not touch it/);
      await expect(ctx.faults.setEnabled(false)).rejects.toThrow(/goes straight to the agent/);
    } finally {
      await ctx.close();
    }
  });

  it('adds a toxic when every client passes the proxy', async () => {
    const ctx = context(await open());
    try {
      ctx.newClient(1);
      expect((await ctx.faults.add(LATENCY)).type).toBe('latency');
    } finally {
      await ctx.close();
    }
  });
});
