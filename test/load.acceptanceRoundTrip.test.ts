// The acceptance round trip as an open-model iteration, against the reference agent: send →
// artifact → pending → accept → COMPLETED, its acceptance latency timed on a subscription opened
// before the decision (not from the decision's reply); an agent that completes without waiting
// fails the round trip by name ('not pending') at once, recording no acceptance latency. Through
// the command line: load.acceptanceCommandLine.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient } from '../rig/client/index.ts';
import type { FaultName } from '../rig/agent/faults.ts';
import { acceptanceIteration } from '../rig/engine/kit/loadIterations.ts';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';
import { RoundTripFailure } from '../rig/load/hitlRoundTrip.ts';
import { ACCEPTANCE_URI } from '../rig/protocol/acceptance.ts';
import { inProcessAgent } from './support/inProcessAgent.ts';
import { startFakeAcceptanceAgent, type FakeAcceptanceOptions } from './support/fakeAcceptanceAgent.ts';

describe('acceptance round trip', () => {
  const open: Array<{ close: () => Promise<void> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });

  async function roundTrip(
    faults: FaultName[],
    timeoutMs = 5_000,
    generation: '0.3' | '1.0' = '1.0',
    choice: { steps?: unknown[]; returnImmediately?: boolean } = {},
  ) {
    const agent = await inProcessAgent(faults);
    const client = await A2AClient.open(agent.url, { generation });
    open.push({ close: async () => (await client.close(), await agent.cleanup()) });
    const pendingLatency = new LatencyHistogram();
    const acceptanceLatency = new LatencyHistogram();
    const iteration = acceptanceIteration(
      { client, scripts: true },
      { timeoutMs, pendingLatency, acceptanceLatency, ...choice },
    );
    const run = async () => {
      const intendedAt = performance.now();
      const end = await iteration({
        index: 0,
        step: 0,
        intendedAt,
        startedAt: intendedAt,
        signal: new AbortController().signal,
      });
      return { intendedAt, endedAt: end ? end.endedAt! : Number.NaN };
    };
    return { client, run, pendingLatency, acceptanceLatency };
  }

  it.each(['1.0', '0.3'] as const)(
    'A2A %s: sends, sees the artifact and the pending gate, ' +
      'accepts, and observes COMPLETED on a subscription opened first',
    async (generation) => {
      const { client, run, pendingLatency, acceptanceLatency } = await roundTrip([], 5_000, generation);
      const { intendedAt, endedAt } = await run();
      expect(endedAt).toBeGreaterThan(intendedAt);
      expect(pendingLatency.count).toBe(1);
      expect(acceptanceLatency.count).toBe(1);
      expect(acceptanceLatency.percentileMs(100)).toBeLessThan(endedAt - intendedAt + 1);
      // The terminal state was taken from a stream (the resume-latency method), not from the reply.
      const sse = client.history.connections().filter((c) => c.kind === 'sse');
      expect(sse).toHaveLength(1);
    },
  );

  it(
    'a non-blocking send leaves the task WORKING: ' +
      'the round trip watches it park on a subscription, counting the streamed artifact',
    async () => {
      const steps = [{ work: { ms: 300 } }, { artifact: { name: 'result', text: 'late output' } }, { complete: {} }];
      const { client, run, pendingLatency, acceptanceLatency } = await roundTrip([], 5_000, '1.0', {
        steps,
        returnImmediately: true,
      });
      await run();
      expect(pendingLatency.percentileMs(100)).toBeGreaterThanOrEqual(300);
      expect(acceptanceLatency.count).toBe(1);
      // One stream watched the task park, another the decision's end.
      expect(client.history.connections().filter((c) => c.kind === 'sse')).toHaveLength(2);
    },
  );

  it(
    'an aborted iteration (its timeout) stops watching at once, ' + 'not when the agent gets round to parking',
    async () => {
      const agent = await inProcessAgent();
      const client = await A2AClient.open(agent.url);
      open.push({ close: async () => (await client.close(), await agent.cleanup()) });
      const steps = [{ work: { ms: 3_000 } }, { artifact: { name: 'result', text: 'late' } }, { complete: {} }];
      const iteration = acceptanceIteration(
        { client, scripts: true },
        { timeoutMs: 10_000, steps, returnImmediately: true },
      );
      const controller = new AbortController();
      const intendedAt = performance.now();
      const settled = iteration({
        index: 0,
        step: 0,
        intendedAt,
        startedAt: intendedAt,
        signal: controller.signal,
      }).catch((err: unknown) => err);
      setTimeout(() => controller.abort(), 300);
      const failure = await settled;
      expect(failure).toBeInstanceOf(RoundTripFailure);
      expect(performance.now() - intendedAt).toBeLessThan(2_000);
    },
  );

  it('a task that parks without its artifact is no gate to decide', async () => {
    const { run, acceptanceLatency } = await roundTrip([], 5_000, '1.0', { steps: [{ complete: {} }] });
    const failure = await run().catch((err: unknown) => err);
    expect((failure as RoundTripFailure).kind).toBe('no artifacts');
    expect(acceptanceLatency.count).toBe(0);
  });

  it('fails by name, recording no acceptance latency, when the agent completes without waiting', async () => {
    const { run, acceptanceLatency } = await roundTrip(['acceptance-completes-without-waiting']);
    const failure = await run().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(RoundTripFailure);
    expect((failure as RoundTripFailure).kind).toBe('not pending');
    expect((failure as Error).message).toMatch(/TASK_STATE_COMPLETED without a pending acceptance/);
    expect(acceptanceLatency.count).toBe(0);
  });
});

describe('acceptance round trip against a foreign agent (no scripts, no subscription)', () => {
  async function against(options: Partial<FakeAcceptanceOptions> & { generation: '0.3' | '1.0' }) {
    const agent = await startFakeAcceptanceAgent(options);
    const client = await A2AClient.open(agent.url, { generation: options.generation });
    const acceptanceLatency = new LatencyHistogram();
    const iteration = acceptanceIteration({ client, scripts: false }, { timeoutMs: 2_000, acceptanceLatency });
    const intendedAt = performance.now();
    try {
      const result = await iteration({
        index: 0,
        step: 0,
        intendedAt,
        startedAt: intendedAt,
        signal: new AbortController().signal,
      }).then(
        (end) => ({ ok: true as const, end }),
        (err: unknown) => ({ ok: false as const, err }),
      );
      return {
        result,
        acceptanceLatency,
        methods: agent.requests.map((r) => r.method),
        activated: agent.requests.map((r) => r.extensions),
      };
    } finally {
      await client.close();
      await agent.close();
    }
  }

  it.each(['1.0', '0.3'] as const)(
    'A2A %s: the refused subscription falls back to GetTask, and the latency is still timed to COMPLETED seen',
    async (generation) => {
      const { result, acceptanceLatency, methods } = await against({ generation });
      expect(result.ok, String(!result.ok && result.err)).toBe(true);
      expect(acceptanceLatency.count).toBe(1);
      const v1 = generation === '1.0';
      // send, the refused subscription, the decision, then at least one GetTask that saw COMPLETED.
      expect(methods.slice(0, 3)).toEqual(
        v1 ? ['SendMessage', 'SubscribeToTask', 'SendMessage'] : ['message/send', 'tasks/resubscribe', 'message/send'],
      );
      expect(methods.slice(3)).toContain(v1 ? 'GetTask' : 'tasks/get');
    },
  );

  it(
    'times the acceptance to the terminal state observed, ' + 'not to the decision reply (which still shows WORKING)',
    async () => {
      const { result, acceptanceLatency } = await against({ generation: '1.0', completeAfterMs: 300 });
      expect(result.ok, String(!result.ok && result.err)).toBe(true);
      expect(acceptanceLatency.count).toBe(1);
      const ms = acceptanceLatency.percentileMs(100);
      expect(ms).toBeGreaterThanOrEqual(300);
      expect(ms).toBeLessThan(2_000);
    },
  );

  it(
    'the creating send activates this extension only (an agent ' +
      'that composes it with hitl-prompt/v1 would prompt first)',
    async () => {
      const { result, activated } = await against({ generation: '1.0' });
      expect(result.ok).toBe(true);
      expect(activated[0]).toBe(ACCEPTANCE_URI);
    },
  );

  it('without the echo the round trip does not wait for a gate, and decides nothing', async () => {
    const { result, acceptanceLatency, methods } = await against({ generation: '1.0', echo: false });
    expect(!result.ok && result.err).toBeInstanceOf(RoundTripFailure);
    expect(!result.ok && (result.err as RoundTripFailure).kind).toBe('no echo');
    expect(methods).toEqual(['SendMessage']);
    expect(acceptanceLatency.count).toBe(0);
  });

  it('INPUT_REQUIRED without the pendingAcceptance flag is not a gate', async () => {
    const { result, methods } = await against({ generation: '1.0', pendingFlag: 'absent' });
    expect(!result.ok && (result.err as RoundTripFailure).kind).toBe('not pending');
    expect(!result.ok && (result.err as Error).message).toMatch(/INPUT_REQUIRED without the pendingAcceptance flag/);
    expect(methods).toEqual(['SendMessage']);
  });
});
