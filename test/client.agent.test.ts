// The rig's client against the real reference agent, in both wire generations: discovery, the
// unary calls, SSE streams, answer classification, the replay plane and the event history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_KEY } from '../rig/agent/script.ts';
import type { Generation, Task } from '../rig/protocol/a2aTypes.ts';
import { HITL_PROMPT_URI } from '../rig/protocol/hitlPrompt.ts';
import { statusOfEvent } from '../rig/protocol/wireInbound.ts';
import { A2AClient } from '../rig/client/a2aClient.ts';
import type { Binding } from '../rig/client/cardInterfaces.ts';
import { checkReplay } from '../rig/engine/kit/replayChecker.ts';
import { AnswerSynthesizer } from '../rig/client/answerSynthesizer.ts';
import { answerMessage, userMessage } from '../rig/client/outgoingMessage.ts';
import type { ReceivedEvent } from '../rig/client/receivedEvents.ts';
import { inProcessAgent } from './support/inProcessAgent.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent([], undefined, { grpcPort: 0 });
});
afterAll(async () => agent?.cleanup());

const stateOf = (e: ReceivedEvent) => statusOfEvent(e.event)?.state;
const script = (steps: unknown[]) => userMessage({ data: { [SCRIPT_KEY]: { steps } } });

/** Sends the default script (prompt "Approve?") and returns the parked task and its prompt id. */
async function parked(client: A2AClient): Promise<{ task: Task; promptId: string }> {
  const sent = await client.send(userMessage());
  if (!sent.ok || !('task' in sent.value)) throw new Error(`send failed: ${JSON.stringify(sent)}`);
  const prompt = client.promptOf(sent.value.task);
  if (!prompt?.ok) throw new Error(`no usable prompt: ${JSON.stringify(prompt)}`);
  return { task: sent.value.task, promptId: prompt.envelope.prompt_id };
}

describe('discovery', () => {
  it('picks 1.0 from the card when a JSON-RPC 1.0 interface exists, and sees hitl-prompt/v1 declared', async () => {
    const client = await A2AClient.open(agent.url);
    try {
      expect(client.generation).toBe('1.0');
      expect(client.agent.generationSource).toBe('card');
      expect(client.agent.jsonRpcInterfaces).toEqual({ '1.0': `${agent.url}/`, '0.3': `${agent.url}/` });
      expect(client.agent.hitl).toEqual({ declared: true, required: false, params: {} });
      expect(client.agent.streaming).toBe(true);
      expect(client.agent.problems).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('honours an explicit generation (--a2a-version)', async () => {
    const client = await A2AClient.open(agent.url, { generation: '0.3' });
    try {
      expect(client.generation).toBe('0.3');
      expect(client.agent.generationSource).toBe('override');
    } finally {
      await client.close();
    }
  });

  it('fails with a one-line DiscoveryError when nothing answers at the URL', async () => {
    const err = await A2AClient.open('http://127.0.0.1:1', { limits: { connectTimeoutMs: 500 } }).catch(
      (e: Error) => e,
    );
    expect(err).toMatchObject({ name: 'DiscoveryError' });
    expect((err as Error).message).toMatch(
      /cannot read the agent card: GET http:\/\/127\.0\.0\.1:1\/\.well-known\/agent-card\.json: cannot connect/,
    );
  });
});

describe.each<[Generation, Binding]>([
  ['1.0', 'JSONRPC'],
  ['0.3', 'JSONRPC'],
  ['1.0', 'HTTP+JSON'],
  ['0.3', 'HTTP+JSON'],
  ['1.0', 'GRPC'],
])('A2A %s over %s against the reference agent', (generation, binding) => {
  let client: A2AClient;
  beforeAll(async () => {
    client = await A2AClient.open(agent.url, { generation, binding });
    expect(client.agent.binding).toBe(binding);
  });
  afterAll(async () => client?.close());

  it('send parks the task with a checked envelope; the echo header and latency are reported', async () => {
    const sent = await client.send(userMessage());
    expect(sent.ok).toBe(true);
    if (!sent.ok || !('task' in sent.value)) return;
    expect(sent.value.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(sent.meta).toMatchObject({ httpStatus: 200, echoedExtensions: [HITL_PROMPT_URI] });
    expect(sent.meta.latencyMs).toBeGreaterThan(0);
    const prompt = client.promptOf(sent.value.task);
    expect(prompt?.ok && prompt.envelope.prompt).toBe('Approve?');
    expect(prompt?.ok && prompt.problems).toEqual([]);
  });

  it('answer: invalid (422 + validation_errors, task stays parked), accepted, then conflict (409)', async () => {
    const { task, promptId } = await parked(client);
    const invalid = await client.answer(task.id, promptId, { approved: 'yes' });
    expect(invalid).toMatchObject({ kind: 'invalid', httpStatus: 422, rpcCode: -32011, problems: [] });
    expect(invalid.validationErrors).toEqual([{ path: '/approved', keyword: 'type', message: 'must be boolean' }]);
    const still = await client.getTask(task.id);
    expect(still.ok && still.value.status.state).toBe('TASK_STATE_INPUT_REQUIRED');

    const accepted = await client.answer(task.id, promptId, { approved: true });
    expect(accepted).toMatchObject({
      kind: 'accepted',
      httpStatus: 200,
      rpcCode: undefined,
      problems: [],
      echoedExtensions: [HITL_PROMPT_URI],
    });
    expect(accepted.result && 'task' in accepted.result && accepted.result.task.status.state).not.toBe(
      'TASK_STATE_INPUT_REQUIRED',
    );
    expect(accepted.latencyMs).toBeGreaterThan(0);

    const again = await client.answer(task.id, promptId, { approved: false });
    expect(again).toMatchObject({
      kind: 'conflict',
      httpStatus: 409,
      rpcCode: -32010,
      rpcMessage: 'hitl_already_answered_or_unknown',
      problems: [],
    });
    const unknown = await client.answer(task.id, '00000000-0000-4000-8000-000000000000', { approved: true });
    expect(unknown.kind).toBe('conflict');
  });

  it('getTask and cancelTask return canonical tasks; refusals come back as JSON-RPC errors', async () => {
    const { task } = await parked(client);
    const got = await client.getTask(task.id, { historyLength: 1 });
    expect(got.ok && got.value).toMatchObject({ id: task.id, status: { state: 'TASK_STATE_INPUT_REQUIRED' } });
    expect(got.ok && got.value.history).toHaveLength(1);
    const canceled = await client.cancelTask(task.id);
    expect(canceled.ok && canceled.value.status.state).toBe('TASK_STATE_CANCELED');
    const twice = await client.cancelTask(task.id);
    expect(twice).toMatchObject({ ok: false, error: { code: -32002 } });
    const missing = await client.getTask('no-such-task');
    expect(missing).toMatchObject({ ok: false, error: { code: -32001 } });
  });

  it('sendStream: snapshot, WORKING, the prompt; the agent ends the stream at INPUT_REQUIRED', async () => {
    const opened = await client.sendStream(userMessage());
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    expect(opened.meta.echoedExtensions).toEqual([HITL_PROMPT_URI]);
    const { events, end } = await opened.stream.collect();
    expect(end).toEqual({ reason: 'ended' });
    expect(events.map((e) => Object.keys(e.event)[0])).toEqual(['task', 'statusUpdate', 'statusUpdate']);
    expect(events.map(stateOf)).toEqual(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING', 'TASK_STATE_INPUT_REQUIRED']);
    const last = events[2];
    expect(last.prompt?.ok).toBe(true);
    // The reference agent's SSE ids carry the outbox seq; a gRPC message has no id to carry it.
    expect(last.seq).toBe(binding === 'GRPC' ? undefined : 3);
    expect(events.every((e) => e.taskId === events[0].taskId && e.kind === 'sse')).toBe(true);
    expect(client.history.connection(opened.stream.connectionId)?.taskId).toBe(events[0].taskId);
  });

  it('an answer sent over a stream resumes the task to COMPLETED with the artifact', async () => {
    const { task, promptId } = await parked(client);
    const opened = await client.sendStream(answerMessage(task.id, promptId, { approved: true, comment: 'fine' }));
    if (!opened.ok) throw new Error(JSON.stringify(opened.error));
    const done = await opened.stream.waitForState('TASK_STATE_COMPLETED', 5_000);
    expect(done.taskId).toBe(task.id);
    await opened.stream.ended;
    expect(opened.stream.sawTerminal).toBe(true);
    expect(opened.stream.events.some((e) => 'artifactUpdate' in e.event)).toBe(true);
  });

  it('subscribe: snapshot first, then the live resume; a terminal task is refused with -32004', async () => {
    const { task, promptId } = await parked(client);
    const sub = await client.subscribe(task.id);
    if (!sub.ok) throw new Error(JSON.stringify(sub.error));
    await sub.stream.waitFor((e) => 'task' in e.event, 5_000);
    const answer = await client.answer(task.id, promptId, { approved: true });
    expect(answer.kind).toBe('accepted');
    const { events, end } = await sub.stream.collect();
    expect(end.reason).toBe('ended');
    expect(events.map(stateOf).at(-1)).toBe('TASK_STATE_COMPLETED');
    const late = await client.subscribe(task.id);
    expect(late).toMatchObject({ ok: false, error: { code: -32004 } });
  });

  it('the rig can drop a stream mid-way; it ends as closed, not failed', async () => {
    const sent = await client.send(script([{ work: { ms: 10_000 } }, { complete: {} }]), { returnImmediately: true });
    const taskId = sent.ok && 'task' in sent.value ? sent.value.task.id : '';
    const sub = await client.subscribe(taskId);
    if (!sub.ok) throw new Error('subscribe refused');
    await sub.stream.waitFor(() => true, 5_000);
    expect(await sub.stream.close()).toEqual({ reason: 'closed' });
    await client.cancelTask(taskId);
  });

  it('without the activation header the agent emits no envelope and echoes nothing', async () => {
    const sent = await client.send(userMessage(), { extensions: [] });
    if (!sent.ok || !('task' in sent.value)) throw new Error('send failed');
    expect(sent.value.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(client.promptOf(sent.value.task)).toBeUndefined();
    expect(sent.meta.echoedExtensions).toEqual([]);
  });

  it('replay: stored events then live ones; a dropped socket resumes from lastSeq with the same prompt', async () => {
    const { task, promptId } = await parked(client);
    const first = await client.replay(task.id);
    const prompted = await first.waitFor((e) => e.prompt?.ok === true, 5_000);
    expect(first.events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(first.events.every((e) => typeof e.eventId === 'string' && e.kind === 'replay')).toBe(true);
    expect(await first.drop()).toMatchObject({ reason: 'closed' });

    const again = await client.replay(task.id, { since: 0 });
    const replayed = await again.waitFor((e) => e.prompt?.ok === true, 5_000);
    const [a, b] = [prompted.prompt, replayed.prompt];
    expect(a?.ok && b?.ok && [a.envelope.prompt_id, a.envelope.response_schema]).toEqual(
      b?.ok && [b.envelope.prompt_id, b.envelope.response_schema],
    );
    expect(replayed.eventId).toBe(prompted.eventId);
    await again.close();

    expect((await client.answer(task.id, promptId, { approved: true })).kind).toBe('accepted');
    const resumed = await first.reconnect();
    expect(resumed.since).toBe(3);
    expect(client.history.connection(resumed.connectionId)?.since).toBe(3);
    const end = await resumed.ended;
    expect(end).toMatchObject({ reason: 'closed-by-agent', code: 1000 });
    expect(resumed.events[0].seq).toBe(4);
    expect(resumed.events.map(stateOf).at(-1)).toBe('TASK_STATE_COMPLETED');
  });

  it('replay of an unknown task ends with the agent close code 4404', async () => {
    const socket = await client.replay('no-such-task');
    expect(await socket.ended).toMatchObject({ reason: 'closed-by-agent', code: 4404 });
  });

  it(
    'the history records every event of every connection with connection, ' + 'seq, eventId and monotonic time',
    async () => {
      const before = client.history.size;
      const { task, promptId } = await parked(client);
      const sub = await client.subscribe(task.id);
      if (!sub.ok) throw new Error('subscribe refused');
      await sub.stream.waitFor(() => true, 5_000);
      await client.answer(task.id, promptId, { approved: true });
      await sub.stream.ended;
      const socket = await client.replay(task.id);
      await socket.ended;

      const entries = client.history.entries({ taskId: task.id });
      expect(entries.length).toBeGreaterThan(0);
      expect(entries.every((e) => e.index >= before)).toBe(true);
      expect(new Set(entries.map((e) => e.kind))).toEqual(new Set(['response', 'sse', 'replay']));
      for (let i = 1; i < entries.length; i++)
        expect(entries[i].receivedAt).toBeGreaterThanOrEqual(entries[i - 1].receivedAt);
      const replayed = client.history.entries({ connectionId: socket.connectionId });
      expect(replayed.map((e) => e.seq)).toEqual(replayed.map((_, i) => i + 1));
      const live = client.history.entries({ connectionId: sub.stream.connectionId });
      const liveSeqs = live.slice(1).map((e) => e.seq);
      expect(liveSeqs).toEqual(
        binding === 'GRPC' ? liveSeqs.map(() => undefined) : replayed.slice(3).map((e) => e.seq),
      );
      const record = client.history.connection(sub.stream.connectionId);
      expect(record).toMatchObject({ kind: 'sse', taskId: task.id, closeReason: 'ended', events: live.length });
      expect(client.history.connection(socket.connectionId)).toMatchObject({
        kind: 'replay',
        since: 0,
        closeReason: 'closed-by-agent 1000',
      });
      expect(client.history.replayCursors(task.id)).toEqual(new Map([[socket.connectionId, 0]]));
      // The history is what the engine's replay checker reads: a correct agent gives no finding.
      const fullReplay = replayed.map((e) => ({ seq: e.seq!, eventId: e.eventId!, event: e.event }));
      expect(
        checkReplay({
          taskId: task.id,
          fullReplay,
          seen: entries,
          replayCursors: client.history.replayCursors(task.id),
        }),
      ).toEqual([]);
    },
  );

  it('answers synthesized from the emitted schema: the valid one is accepted, each invalid one is a 422', async () => {
    const responseSchema = {
      type: 'object',
      additionalProperties: false,
      required: ['choice', 'count', 'when'],
      properties: {
        choice: { enum: ['red', 'green'] },
        count: { type: 'integer', minimum: 2, multipleOf: 2 },
        when: { type: 'string', format: 'date-time' },
        note: { type: 'string', maxLength: 10 },
      },
    };
    const sent = await client.send(
      script([{ prompt: { text: 'Pick', response_schema: responseSchema } }, { complete: {} }]),
    );
    if (!sent.ok || !('task' in sent.value)) throw new Error('send failed');
    const prompt = client.promptOf(sent.value.task);
    if (!prompt?.ok) throw new Error('no prompt');
    const synthesis = new AnswerSynthesizer(client.guard.validator).synthesize(prompt.envelope.response_schema);
    if (!synthesis.ok) throw new Error(synthesis.reason);
    const { valid, invalid } = synthesis.answers;
    expect(invalid.map((i) => i.kind)).toEqual(['wrong-type', 'missing-required', 'unknown-property']);
    for (const bad of invalid) {
      const outcome = await client.answer(sent.value.task.id, prompt.envelope.prompt_id, bad.payload);
      expect(outcome.kind, bad.kind).toBe('invalid');
      expect(outcome.validationErrors.map((e) => e.path)).toContain(bad.path);
    }
    expect((await client.answer(sent.value.task.id, prompt.envelope.prompt_id, valid)).kind).toBe('accepted');
  });
});
