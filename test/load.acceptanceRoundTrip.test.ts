// The acceptance round trip as an open-model iteration, against the reference agent: send →
// artifact → pending → accept → COMPLETED, its acceptance latency timed on a subscription opened
// before the decision (not from the decision's reply); an agent that completes without waiting
// fails the round trip by name ('not pending') at once, recording no acceptance latency.
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient } from '../rig/client/index.ts';
import type { FaultName } from '../rig/agent/faults.ts';
import { acceptanceIteration } from '../rig/engine/loadIterations.ts';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';
import { RoundTripFailure } from '../rig/load/hitlRoundTrip.ts';
import { inProcessAgent } from './support/agentFixture.ts';

describe('acceptance round trip', () => {
  const open: Array<{ close: () => Promise<void> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });

  async function roundTrip(faults: FaultName[], timeoutMs = 5_000) {
    const agent = await inProcessAgent(faults);
    const client = await A2AClient.open(agent.url);
    open.push({ close: async () => (await client.close(), await agent.cleanup()) });
    const pendingLatency = new LatencyHistogram();
    const acceptanceLatency = new LatencyHistogram();
    const iteration = acceptanceIteration({ client, scripts: true }, { timeoutMs, pendingLatency, acceptanceLatency });
    const run = async () => {
      const intendedAt = performance.now();
      const end = await iteration({ index: 0, step: 0, intendedAt, startedAt: intendedAt, signal: new AbortController().signal });
      return { intendedAt, endedAt: end ? end.endedAt! : Number.NaN };
    };
    return { client, run, pendingLatency, acceptanceLatency };
  }

  it('sends, sees the artifact and the pending gate, accepts, and observes COMPLETED on a subscription opened first', async () => {
    const { client, run, pendingLatency, acceptanceLatency } = await roundTrip([]);
    const { intendedAt, endedAt } = await run();
    expect(endedAt).toBeGreaterThan(intendedAt);
    expect(pendingLatency.count).toBe(1);
    expect(acceptanceLatency.count).toBe(1);
    expect(acceptanceLatency.percentile(100) / 1000).toBeLessThan(endedAt - intendedAt + 1);
    // The terminal state was taken from a stream (the resume-latency method), not from the reply.
    const sse = client.history.connections().filter((c) => c.kind === 'sse');
    expect(sse).toHaveLength(1);
    const tasks = client.history.connections().length;
    expect(tasks).toBeGreaterThanOrEqual(3);
  });

  it("fails by name, recording no acceptance latency, when the agent completes without waiting", async () => {
    const { run, acceptanceLatency } = await roundTrip(['acceptance-completes-without-waiting']);
    const failure = await run().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(RoundTripFailure);
    expect((failure as RoundTripFailure).kind).toBe('not pending');
    expect((failure as Error).message).toMatch(/TASK_STATE_COMPLETED without a pending acceptance/);
    expect(acceptanceLatency.count).toBe(0);
  });
});
