// Stream shapes A2A allows and SDKs send, read for what they say (issue 24, items 5 and 6): a stream
// of whole Task snapshots is the task's transitions like a stream of status updates (a snapshot
// that repeats the state is no new transition); a subscription whose headers come only with its
// first event is handed over after the caller's wait, open and silent, and shows the events when
// they come — so a resubscribe with nothing to replay is judged as one that replayed nothing (cf6
// fails on the replay check), and the scenarios that only watch later events pass.
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, userMessage } from '../rig/client/index.ts';
import { loadScenarios, selectScenarios } from '../rig/engine/scenarioCatalog.ts';
import { runScenarios } from '../rig/engine/runScenarios.ts';
import type { ScenarioResult } from '../rig/results/runResult.ts';
import type { LiveShape } from './support/fakeLiveStreams.ts';
import { startFakeSdkAgent, type FakeAgent } from './support/fakeSdkAgent.ts';

let agent: FakeAgent | undefined;
let client: A2AClient | undefined;
afterEach(async () => {
  await client?.close();
  await agent?.close();
  agent = client = undefined;
});

const HEADLESS: LiveShape = { snapshots: false, replay: false, headersWithFirstEvent: true };
const SNAPSHOTS: LiveShape = { snapshots: true, replay: true, headersWithFirstEvent: false };

const all = await loadScenarios();
const failing = (s: ScenarioResult) => s.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail ?? ''}`);
const explain = (s: ScenarioResult) =>
  `${s.name}: ${s.verdict} (${s.reason ?? ''}); failing: ${failing(s).join(' | ')}`;

async function run(live: LiveShape, names: string[]): Promise<Record<string, ScenarioResult>> {
  agent = await startFakeSdkAgent({ generation: '1.0', refuseSubscribe: 'json', live });
  const result = await runScenarios(selectScenarios(all, names), {
    profile: 'smoke',
    target: agent.url,
    toxiproxy: 'none',
    agentFault: [],
    a2aVersion: 'auto',
  });
  return Object.fromEntries(result.scenarios.map((s) => [s.name, s]));
}

describe('a subscription whose headers come with its first event', () => {
  it('is handed over after headerWaitMs, silent, and shows the resume when it comes', async () => {
    agent = await startFakeSdkAgent({ generation: '1.0', refuseSubscribe: 'json', live: HEADLESS });
    client = await A2AClient.open(agent.url);
    const sent = await client.send(userMessage({ text: 'ask me' }));
    if (!sent.ok || !('task' in sent.value)) throw new Error('no task');
    const taskId = sent.value.task.id;
    const prompt = client.promptOf(sent.value.task);
    if (!prompt?.ok) throw new Error('no usable prompt');
    const sub = await client.subscribe(taskId, { headerWaitMs: 200 });
    expect(sub.ok).toBe(true);
    if (!sub.ok) return;
    expect(sub.stream.headersPending).toBe(true);
    expect(sub.stream.events).toEqual([]);
    expect(sub.stream.end).toBeUndefined();
    const answered = await client.answer(taskId, prompt.envelope.prompt_id, { approved: true });
    expect(answered.kind).toBe('accepted');
    const left = await sub.stream.waitForState('TASK_STATE_WORKING', 10_000);
    expect(left.taskId).toBe(taskId);
    expect(sub.stream.headersPending).toBe(false);
    expect(sub.stream.meta.httpStatus).toBe(200);
    expect((await sub.stream.ended).reason).toBe('ended');
  });

  it('turns into the refusal it gets once the headers come: a plain JSON-RPC error ends it', async () => {
    let release!: () => void;
    const heldUntil = new Promise<void>((resolve) => (release = resolve));
    agent = await startFakeSdkAgent({ generation: '1.0', refuseSubscribe: { heldUntil } });
    client = await A2AClient.open(agent.url);
    const sent = await client.send(userMessage({ text: 'ask me' }));
    if (!sent.ok || !('task' in sent.value)) throw new Error('no task');
    const sub = await client.subscribe(sent.value.task.id, { headerWaitMs: 50 });
    expect(sub.ok && sub.stream.headersPending).toBe(true);
    if (!sub.ok) return;
    release();
    expect(await sub.stream.ended).toEqual({ reason: 'rpc-error', error: { code: -32001, message: 'Task not found' } });
    expect(sub.stream.meta.httpStatus).toBe(200);
  });

  it(
    'cf6 fails on the replay check, naming it; cf1, cf2, cf4 and duplicate-flood pass',
    { timeout: 120_000 },
    async () => {
      const byName = await run(HEADLESS, ['cf1', 'cf2', 'cf4', 'cf6', 'duplicate-flood']);
      expect(byName.cf6.verdict, explain(byName.cf6)).toBe('failed');
      expect(failing(byName.cf6).join('\n')).toMatch(
        /a subscription to the parked task shows the open prompt: the subscription sent not even its response headers/,
      );
      for (const name of ['cf1', 'cf2', 'cf4', 'duplicate-flood'])
        expect(byName[name].verdict, explain(byName[name])).toBe('passed');
      const resumed = byName.cf2.checks.find((c) => c.name === 'the task transitions out of INPUT_REQUIRED');
      expect(resumed?.detail).toMatch(/observed on stream/);
    },
  );
});

describe('a stream of Task snapshots', () => {
  it(
    'cf2, cf6 and duplicate-flood pass: a snapshot in another state is a transition',
    { timeout: 120_000 },
    async () => {
      const byName = await run(SNAPSHOTS, ['cf2', 'cf6', 'duplicate-flood']);
      for (const name of ['cf2', 'cf6', 'duplicate-flood'])
        expect(byName[name].verdict, explain(byName[name])).toBe('passed');
      const transition = byName['duplicate-flood'].checks.find((c) => c.name.startsWith('exactly one transition'));
      // Two WORKING snapshots came (the second a repeated view): one move into WORKING.
      expect(transition?.detail).toMatch(/^1 \(1 moves into WORKING after the prompt\) on a subscription/);
    },
  );
});
