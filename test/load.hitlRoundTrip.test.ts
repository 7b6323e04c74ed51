// One HITL round trip as an open-model iteration, against the reference agent: the resume is taken
// from the accepted reply when it already shows the task out of INPUT_REQUIRED, and waited for on a
// subscription when it does not (slow-resume: 1.5 s later); a task that never resumes, or a prompt
// no valid answer can be built for, fails the round trip by name.
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, AnswerSynthesizer } from '../rig/client/index.ts';
import type { FaultName } from '../rig/agent/faults.ts';
import { roundTripIteration } from '../rig/engine/kit/loadIterations.ts';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';
import { RoundTripFailure } from '../rig/load/hitlRoundTrip.ts';
import { inProcessAgent } from './support/inProcessAgent.ts';

describe('HITL round trip', () => {
  const open: Array<{ close: () => Promise<void> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });

  async function roundTrip(faults: FaultName[], resumeTimeoutMs = 5_000, synthesizer = new AnswerSynthesizer()) {
    const agent = await inProcessAgent(faults);
    const client = await A2AClient.open(agent.url);
    open.push({ close: async () => (await client.close(), await agent.cleanup()) });
    const promptLatency = new LatencyHistogram();
    const resumeLatency = new LatencyHistogram();
    const iteration = roundTripIteration(
      { client, scripts: true, synthesizer, remainingMs: () => 30_000 },
      { resumeTimeoutMs, promptLatency, resumeLatency },
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
    return { client, run, promptLatency, resumeLatency };
  }

  it('sends, sees the prompt, answers, and takes the resume from the reply (no subscription)', async () => {
    const { client, run, promptLatency, resumeLatency } = await roundTrip([]);
    const { intendedAt, endedAt } = await run();
    expect(endedAt).toBeGreaterThan(intendedAt);
    expect(promptLatency.count).toBe(1);
    expect(resumeLatency.count).toBe(1);
    expect(resumeLatency.percentileMs(100)).toBeLessThan(1_000);
    // Two responses (the send and the answer), no stream: the history holds no SSE connection.
    const kinds = client.history.connections().map((c) => c.kind);
    expect(kinds.filter((k) => k === 'response')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'sse')).toHaveLength(0);
  });

  it('waits on a subscription when the reply still shows INPUT_REQUIRED (slow-resume)', async () => {
    const { client, run, resumeLatency } = await roundTrip(['slow-resume']);
    await run();
    const resumedAfterMs = resumeLatency.percentileMs(100);
    expect(resumedAfterMs).toBeGreaterThanOrEqual(1_400);
    expect(resumedAfterMs).toBeLessThan(4_000);
    expect(client.history.connections().some((c) => c.kind === 'sse')).toBe(true);
  });

  it('fails by name when the task never leaves INPUT_REQUIRED', async () => {
    const { run, resumeLatency } = await roundTrip(['keep-input-required'], 300);
    const started = performance.now();
    const failure = await run().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(RoundTripFailure);
    expect((failure as RoundTripFailure).kind).toBe('resume not observed');
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(resumeLatency.count).toBe(0);
  });

  it('fails by name, before answering, when no valid answer can be built from the schema', async () => {
    class NoAnswer extends AnswerSynthesizer {
      override validAnswer() {
        return { ok: false as const, reason: 'cannot synthesize: planted' };
      }
    }
    const { client, run } = await roundTrip([], 5_000, new NoAnswer());
    const failure = await run().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(RoundTripFailure);
    expect(failure).toMatchObject({ kind: 'no answer synthesized', message: 'cannot synthesize: planted' });
    // The send's reply only: no answer went out.
    expect(client.history.connections().filter((c) => c.kind === 'response')).toHaveLength(1);
  });
});
