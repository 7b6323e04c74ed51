// A refusal is a refusal however it is framed. a2a-sdk 0.3.26 answers tasks/resubscribe on a parked
// task with HTTP 200, text/event-stream and a JSON-RPC error (-32001) as the first and only frame.
// The client reports it exactly as a plain JSON refusal ({ok:false, error}); whoever waits for the
// resume or a state falls back to GetTask polling and quotes the code; the scenarios built on them
// pass against such an agent instead of erroring ("ended (rpc-error) before the awaited event
// arrived") or failing (duplicate-flood).
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient } from '../rig/client/index.ts';
import { answerObserved } from '../rig/engine/kit/resumeObserver.ts';
import { loadScenarios, selectScenarios } from '../rig/engine/scenarioCatalog.ts';
import { runScenarios } from '../rig/engine/runScenarios.ts';
import { AnswerSynthesizer, userMessage } from '../rig/client/index.ts';
import { roundTripIteration } from '../rig/engine/kit/loadIterations.ts';
import { compareRuns } from '../rig/report/compare/compareRuns.ts';
import { evaluateThreshold } from '../rig/report/thresholds/thresholdEvaluation.ts';
import { parseThreshold } from '../rig/report/thresholds/thresholdExpression.ts';
import { startFakeSdkAgent, type FakeAgent, type FakeAgentOptions } from './support/fakeSdkAgent.ts';

let agent: FakeAgent | undefined;
let client: A2AClient | undefined;
afterEach(async () => {
  await client?.close();
  await agent?.close();
  agent = client = undefined;
});

async function parkedTask(options: FakeAgentOptions): Promise<{ taskId: string; promptId: string }> {
  agent = await startFakeSdkAgent(options);
  client = await A2AClient.open(agent.url);
  const sent = await client.send(userMessage({ text: 'ask me' }));
  if (!sent.ok || !('task' in sent.value)) throw new Error('no task');
  const prompt = client.promptOf(sent.value.task);
  if (!prompt?.ok) throw new Error(`no usable prompt: ${JSON.stringify(prompt)}`);
  return { taskId: sent.value.task.id, promptId: prompt.envelope.prompt_id };
}

describe('a subscription refused inside its event stream', () => {
  it('subscribe() returns {ok:false, error} with the code, as for a plain JSON refusal', async () => {
    const { taskId } = await parkedTask({ generation: '0.3', refuseSubscribe: 'in-stream' });
    const sub = await client!.subscribe(taskId);
    expect(sub.ok).toBe(false);
    if (sub.ok) return;
    expect(sub.error).toEqual({ code: -32001, message: 'Task not found' });
    expect(sub.inStream).toBe(true);
    expect(sub.meta.httpStatus).toBe(200);
  });

  it('a refusal framed after the peek ends the stream with its code, which the waiter quotes', async () => {
    const { taskId } = await parkedTask({ generation: '0.3', refuseSubscribe: { lateMs: 200 } });
    const sub = await client!.subscribe(taskId, { refusalPeekMs: 20 });
    expect(sub.ok).toBe(true);
    if (!sub.ok) return;
    await expect(sub.stream.waitFor(() => true, 5_000)).rejects.toThrow(
      /ended \(JSON-RPC error -32001: Task not found\) before the awaited event arrived/,
    );
    expect(sub.stream.end).toMatchObject({ reason: 'rpc-error', error: { code: -32001 } });
    await expect(sub.stream.waitFor(() => true, 5_000)).rejects.toThrow(/has ended \(JSON-RPC error -32001/);
  });

  it.each([
    [
      'in the stream',
      'in-stream' as const,
      /subscription refused: -32001 Task not found \(as the first frame of an event stream\)/,
    ],
    // Past the 1 s first-event wait the rig answers; the refusal then ends the stream before the resume.
    ['late in the stream', { lateMs: 1_500 }, /the subscription ended before the resume \(JSON-RPC error -32001/],
  ])(
    'answerObserved falls back to GetTask polling when refused %s, quoting the code',
    async (_, refuseSubscribe, fallback) => {
      const { taskId, promptId } = await parkedTask({ generation: '0.3', refuseSubscribe });
      const observed = await answerObserved(client!, taskId, promptId, { approved: true }, { timeoutMs: 5_000 });
      expect(observed.outcome.kind).toBe('accepted');
      expect(observed.observedOn).toBe('poll');
      expect(observed.fallback).toMatch(fallback);
      expect(observed.resumedAfterMs).toBeGreaterThanOrEqual(0);
      // The resume lies between the last poll that saw INPUT_REQUIRED being sent and the reply that did not.
      expect(observed.pollResolutionMs).toBeGreaterThan(0);
      expect(observed.pollResolutionMs).toBeLessThanOrEqual(observed.resumedAfterMs!);
      expect(observed.stateAfter).toBe('TASK_STATE_COMPLETED');
      expect(agent!.calls).toContain('tasks/get');
    },
  );

  it('a load round trip whose subscription ends with an error frame polls GetTask instead of failing', async () => {
    agent = await startFakeSdkAgent({ generation: '0.3', refuseSubscribe: { lateMs: 1_200 }, resumeAfterMs: 1_500 });
    client = await A2AClient.open(agent.url);
    const iteration = roundTripIteration(
      { client, scripts: false, synthesizer: new AnswerSynthesizer(), remainingMs: () => 30_000 },
      { resumeTimeoutMs: 5_000 },
    );
    const intendedAt = performance.now();
    const end = await iteration({
      index: 0,
      step: 0,
      intendedAt,
      startedAt: intendedAt,
      signal: new AbortController().signal,
    });
    expect(end?.endedAt).toBeGreaterThan(intendedAt + 1_400);
    expect(end?.pollResolutionMs).toBeGreaterThan(0);
    expect(agent.calls).toContain('tasks/get');
  });
});

const all = await loadScenarios();

describe('scenarios against an agent that refuses subscriptions in-stream', () => {
  it('cf1, cf2, cf4 and duplicate-flood pass, polling, and say why with the code', { timeout: 120_000 }, async () => {
    agent = await startFakeSdkAgent({ generation: '0.3', refuseSubscribe: 'in-stream' });
    const run = await runScenarios(selectScenarios(all, ['cf1', 'cf2', 'cf4', 'duplicate-flood']), {
      profile: 'smoke',
      target: agent.url,
      toxiproxy: 'none',
      agentFault: [],
      a2aVersion: 'auto',
    });
    const byName = Object.fromEntries(run.scenarios.map((s) => [s.name, s]));
    for (const name of ['cf1', 'cf2', 'cf4', 'duplicate-flood']) {
      const s = byName[name];
      expect(s.verdict, `${name}: ${s.reason} ${JSON.stringify(s.checks.filter((c) => !c.ok))}`).toBe('passed');
    }
    // cf4's latency was the rig's polling as much as the agent's: marked, and no gate judges it.
    const cf4Latency = byName.cf4.metrics.resume_latency!;
    expect(cf4Latency.polled?.count).toBe(cf4Latency.count);
    const gate = evaluateThreshold(parseThreshold('cf4:resume_latency.p50<5000'), run);
    expect(gate).toMatchObject({ ok: false, notJudged: true });
    expect(gate.detail).toMatch(/not judged — 20 of 20 samples observed by GetTask polling \(resolution up to/);
    expect(compareRuns(run, run).rows.find((r) => r.scenario === 'cf4')).toMatchObject({ result: 'not compared' });
    const resumed = byName.cf2.checks.find((c) => c.name === 'the task transitions out of INPUT_REQUIRED');
    expect(resumed?.detail).toMatch(/observed on poll \(subscription refused: -32001/);
    const transition = byName['duplicate-flood'].checks.find((c) => c.name.startsWith('exactly one transition'));
    expect(transition?.name).toContain('GetTask polling');
    expect(transition?.detail).toContain('refused');
  });

  it(
    'a task that parks late is awaited by polling GetTask when the subscription is refused in-stream',
    { timeout: 60_000 },
    async () => {
      agent = await startFakeSdkAgent({ generation: '0.3', refuseSubscribe: 'in-stream', parkAfterMs: 300 });
      const run = await runScenarios(selectScenarios(all, ['cf2']), {
        profile: 'smoke',
        target: agent.url,
        toxiproxy: 'none',
        agentFault: [],
        a2aVersion: 'auto',
      });
      const [result] = run.scenarios;
      expect(result.verdict, `${result.reason} ${JSON.stringify(result.checks)}`).toBe('passed');
      expect(agent.calls.filter((m) => m === 'tasks/get').length).toBeGreaterThan(1);
    },
  );

  it(
    'agent-card passes a v1.0 ProtoJSON card declaring the extension as {uri, params: {}}',
    { timeout: 60_000 },
    async () => {
      agent = await startFakeSdkAgent({ generation: '1.0', refuseSubscribe: 'in-stream' });
      const run = await runScenarios(selectScenarios(all, ['agent-card']), {
        profile: 'smoke',
        target: agent.url,
        toxiproxy: 'none',
        agentFault: [],
        a2aVersion: 'auto',
      });
      const [result] = run.scenarios;
      expect(result.verdict, JSON.stringify(result.checks)).toBe('passed');
      expect(result.checks.find((c) => c.name === 'hitl-prompt/v1 is declared with required: false')?.detail).toContain(
        'required left out',
      );
    },
  );
});
