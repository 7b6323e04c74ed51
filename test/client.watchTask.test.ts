// watchTask is the one way the rig waits for a task's state, so the cases issue 24 fixed live in it
// once: against a small real HTTP agent (the fake SDK agent), a live stream shows the awaited state;
// a refused subscription is polled with GetTask and the fallback quotes the agent's code; a stream
// of whole Task snapshots counts as the states it shows; a subscription whose headers come only with
// its first event is handed over silent at the watch's own wait, not the transport's header bound;
// the deadline and the abort signal end the watch with what was last seen.
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, userMessage } from '../rig/client/index.ts';
import { watchTask, type Sighting, type WatchOptions } from '../rig/client/watchTask.ts';
import type { LiveShape } from './support/fakeLiveStreams.ts';
import { startFakeSdkAgent, type FakeAgent, type FakeAgentOptions } from './support/fakeSdkAgent.ts';

let agent: FakeAgent | undefined;
let client: A2AClient | undefined;
afterEach(async () => {
  await client?.close();
  await agent?.close();
  agent = client = undefined;
});

const LIVE: LiveShape = { snapshots: false, replay: true, headersWithFirstEvent: false };
const SNAPSHOTS: LiveShape = { snapshots: true, replay: true, headersWithFirstEvent: false };
const HEADLESS: LiveShape = { snapshots: false, replay: false, headersWithFirstEvent: true };

const resumed = (s: Sighting) => s.status.state !== 'TASK_STATE_INPUT_REQUIRED';
const completed = (s: Sighting) => s.status.state === 'TASK_STATE_COMPLETED';

async function parked(options: FakeAgentOptions): Promise<{ taskId: string; promptId: string }> {
  agent = await startFakeSdkAgent(options);
  client = await A2AClient.open(agent.url);
  const sent = await client.send(userMessage({ text: 'ask me' }));
  if (!sent.ok || !('task' in sent.value)) throw new Error('no task');
  const prompt = client.promptOf(sent.value.task);
  if (!prompt?.ok) throw new Error('no usable prompt');
  return { taskId: sent.value.task.id, promptId: prompt.envelope.prompt_id };
}

/** Answers the prompt as the watch's act: the moment before it was sent, or undefined if not accepted. */
function answering(taskId: string, promptId: string, timeoutMs = 10_000): WatchOptions['act'] {
  return {
    run: async () => {
      const outcome = await client!.answer(taskId, promptId, { approved: true });
      return outcome.kind === 'accepted' ? outcome.startedAt : undefined;
    },
    timeoutMs,
  };
}

const watch = (deadlineMs: number, more: Partial<WatchOptions> = {}): WatchOptions => ({
  method: 'stream',
  deadline: performance.now() + deadlineMs,
  pollIntervalMs: 5,
  awaited: 'the resume',
  ...more,
});

describe('watchTask on a stream', () => {
  it('sees the state on a live subscription, after the act, with no fallback', async () => {
    const { taskId, promptId } = await parked({ generation: '1.0', refuseSubscribe: 'json', live: LIVE });
    let actedAt = 0;
    const act = answering(taskId, promptId)!;
    const seen = await watchTask(client!, taskId, resumed, {
      ...watch(1_000),
      act: { ...act, run: async () => (actedAt = (await act.run())!) },
    });
    expect(seen).toMatchObject({ reached: true, via: 'stream', status: { state: 'TASK_STATE_WORKING' } });
    expect(seen.fallback).toBeUndefined();
    expect(seen.task).toBeUndefined();
    // The replayed snapshot came before the act and does not count; the sighting is after it.
    expect(seen.seenAt).toBeGreaterThanOrEqual(actedAt);
    expect(seen.events.map((e) => Object.keys(e.event)[0])).toEqual(['task', 'statusUpdate']);
    expect(agent!.calls).toEqual(['SendMessage', 'SubscribeToTask', 'SendMessage']);
  });

  it('reads a stream of whole Task snapshots as the states they show', async () => {
    const { taskId, promptId } = await parked({ generation: '1.0', refuseSubscribe: 'json', live: SNAPSHOTS });
    const seen = await watchTask(client!, taskId, completed, { ...watch(1_000), act: answering(taskId, promptId) });
    expect(seen).toMatchObject({ reached: true, via: 'stream', status: { state: 'TASK_STATE_COMPLETED' } });
    expect(seen.task).toMatchObject({ id: taskId, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(seen.fallback).toBeUndefined();
  });

  it('hands a subscription whose headers come with its first event over at its own wait; sees the resume', async () => {
    const { taskId, promptId } = await parked({ generation: '1.0', refuseSubscribe: 'json', live: HEADLESS });
    // The first-event wait (200 ms) is far below the transport's header bound: the act goes out on
    // a stream that has sent nothing, and the resume arrives on it with its headers.
    const seen = await watchTask(client!, taskId, resumed, { ...watch(200), act: answering(taskId, promptId) });
    expect(seen).toMatchObject({ reached: true, via: 'stream', status: { state: 'TASK_STATE_WORKING' } });
    expect(seen.fallback).toBeUndefined();
  }, 20_000);

  it("with headers: 'transport', awaits a late stream's headers and counts the state they came with", async () => {
    const { taskId, promptId } = await parked({ generation: '1.0', refuseSubscribe: 'json', live: HEADLESS });
    // The answer goes out after the watch's own deadline: the agent sends the stream's headers only
    // with the resume, so the watch sees the resume only if it awaited them past its deadline (the
    // load round trips: a late resume is timed as late, not failed).
    const answered = new Promise((resolve) => setTimeout(resolve, 400)).then(() =>
      client!.answer(taskId, promptId, { approved: true }),
    );
    const seen = await watchTask(client!, taskId, resumed, { ...watch(100), headers: 'transport' });
    expect((await answered).kind).toBe('accepted');
    expect(seen).toMatchObject({ reached: true, via: 'stream', status: { state: 'TASK_STATE_WORKING' } });
  }, 20_000);

  it('ends at the deadline on a stream still open, with the last state it showed and its own words', async () => {
    const { taskId } = await parked({ generation: '1.0', refuseSubscribe: 'json', live: LIVE });
    const seen = await watchTask(client!, taskId, completed, watch(300));
    expect(seen).toMatchObject({ reached: false, via: 'stream', status: { state: 'TASK_STATE_INPUT_REQUIRED' } });
    expect(seen.missed).toMatch(/no awaited event within/);
    expect(seen.fallback).toBeUndefined();
  });

  it('stops at once when the signal aborts, without polling', async () => {
    const { taskId } = await parked({ generation: '1.0', refuseSubscribe: 'json', live: LIVE });
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 50);
    // The deadline is far beyond the test's own timeout: only the abort can end this watch in time.
    const seen = await watchTask(client!, taskId, completed, { ...watch(600_000), signal: abort.signal });
    expect(seen).toMatchObject({ reached: false, via: 'stream', status: { state: 'TASK_STATE_INPUT_REQUIRED' } });
    expect(agent!.calls).not.toContain('GetTask');
  }, 20_000);

  it('stops without watching when the act says there is nothing to wait for', async () => {
    const { taskId } = await parked({ generation: '1.0', refuseSubscribe: 'json', live: LIVE });
    const seen = await watchTask(client!, taskId, resumed, {
      ...watch(1_000),
      act: { run: async () => undefined, timeoutMs: 10_000 },
    });
    expect(seen).toMatchObject({ reached: false, stopped: true, via: 'stream' });
  });
});

describe('watchTask without a stream', () => {
  it.each([
    ['as plain JSON', 'json', /^subscription refused: -32001 Task not found$/],
    ['inside the stream', 'in-stream', /^subscription refused: -32001 Task not found \(as the first frame/],
  ] as const)('polls GetTask when the subscription is refused %s, quoting the code', async (_, refuse, why) => {
    const { taskId, promptId } = await parked({ generation: '0.3', refuseSubscribe: refuse, resumeAfterMs: 30 });
    const seen = await watchTask(client!, taskId, completed, { ...watch(1_000), act: answering(taskId, promptId) });
    expect(seen).toMatchObject({ reached: true, via: 'poll', status: { state: 'TASK_STATE_COMPLETED' } });
    expect(seen.fallback).toMatch(why);
    expect(seen.refused).toMatchObject({ code: -32001 });
    // The resume happened between the last GetTask that still saw INPUT_REQUIRED and the reply that did not.
    expect(seen.pollResolutionMs).toBeGreaterThan(0);
    expect(agent!.calls).toContain('tasks/get');
  });

  it("polls until the deadline with method 'poll', returning the last task seen", async () => {
    const { taskId } = await parked({ generation: '0.3', refuseSubscribe: 'json' });
    const seen = await watchTask(client!, taskId, completed, watch(100, { method: 'poll' }));
    expect(seen).toMatchObject({ reached: false, via: 'poll', status: { state: 'TASK_STATE_INPUT_REQUIRED' } });
    expect(seen.task?.id).toBe(taskId);
    expect(seen.fallback).toBeUndefined();
    expect(agent!.calls).not.toContain('tasks/resubscribe');
  });

  it('ends on a refused GetTask when asked to, with the refusal', async () => {
    await parked({ generation: '0.3', refuseSubscribe: 'json' });
    const seen = await watchTask(client!, 'no-such-task', completed, watch(1_000, { stopOnReadError: true }));
    expect(seen).toMatchObject({ reached: false, via: 'poll', readError: { code: -32001 } });
    expect(seen.fallback).toMatch(/^subscription refused: -32001/);
  });
});
