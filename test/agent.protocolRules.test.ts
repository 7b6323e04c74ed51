// The rest of the agent's wire contract: the card, version negotiation, activation (no envelope
// without it), the HTTP+JSON binding, cancel, deadlines (S-4), S-5 uniqueness, and the TCK prefixes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HITL, inProcessAgent } from './support/inProcessAgent.ts';
import {
  METHOD,
  answerMessage,
  envelopeOf,
  replay,
  rpc,
  scriptData,
  stateOf,
  taskOf,
  userMessage,
  type Gen,
} from './support/rpcClient.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent.cleanup());

describe('agent card', () => {
  it(
    'declares v1.0 fields, both JSON-RPC versions and HTTP+JSON, ' +
      'streaming, and the extension (required false, params {})',
    async () => {
      const res = await fetch(`${agent.url}/.well-known/agent-card.json`);
      const card = await res.json();
      for (const field of [
        'name',
        'description',
        'supportedInterfaces',
        'version',
        'capabilities',
        'defaultInputModes',
        'defaultOutputModes',
        'skills',
      ]) {
        expect(card).toHaveProperty(field);
      }
      expect(card.supportedInterfaces).toEqual(
        expect.arrayContaining([
          { url: agent.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
          { url: agent.url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
          { url: agent.url, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        ]),
      );
      expect(card.capabilities.streaming).toBe(true);
      expect(card.capabilities.extensions[0]).toEqual({
        uri: HITL,
        description: expect.any(String),
        required: false,
        params: {},
      });
    },
  );
});

describe('version negotiation', () => {
  it('refuses an unsupported A2A-Version with -32009', async () => {
    const res = await fetch(agent.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '2.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: {} }),
    });
    expect((await res.json()).error.code).toBe(-32009);
  });

  it('points a method of the other generation at the right header', async () => {
    const v03 = await rpc(agent.url, '0.3', 'SendMessage', { message: userMessage('0.3') });
    expect(v03.body.error).toMatchObject({ code: -32601 });
    expect(v03.body.error.message).toContain('A2A-Version: 1.0');
    const v10 = await rpc(agent.url, '1.0', 'message/send', { message: userMessage('1.0') });
    expect(v10.body.error.code).toBe(-32601);
  });
});

describe.each<Gen>(['0.3', '1.0'])('activation (%s)', (gen) => {
  it('without the extension: no envelope, no echo, and a plain message answers the prompt', async () => {
    const sent = await rpc(agent.url, gen, METHOD[gen].send, { message: userMessage(gen) }, false);
    expect(sent.headers.get('a2a-extensions')).toBeNull();
    const task = taskOf(gen, sent.body.result);
    expect(stateOf(gen, task)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(task.status.message.metadata).toBeUndefined();
    expect(task.status.message.parts[0].text).toBe('Approve?');
    const answered = await rpc(
      agent.url,
      gen,
      METHOD[gen].send,
      { message: userMessage(gen, { taskId: task.id, data: { approved: true } }) },
      false,
    );
    expect(stateOf(gen, taskOf(gen, answered.body.result))).toBe('TASK_STATE_COMPLETED');
  });

  it('with the extension, a plain message cannot satisfy a structured prompt', async () => {
    const sent = await rpc(agent.url, gen, METHOD[gen].send, { message: userMessage(gen) });
    const task = taskOf(gen, sent.body.result);
    const plain = await rpc(agent.url, gen, METHOD[gen].send, {
      message: userMessage(gen, { taskId: task.id, data: { approved: true } }),
    });
    expect(plain.body.error.code).toBe(-32602);
    expect(plain.body.error.message).toContain('hitl_response_for');
  });

  it('unknown prompt_id is 409; a malformed response envelope is invalid params', async () => {
    const sent = await rpc(agent.url, gen, METHOD[gen].send, { message: userMessage(gen) });
    const task = taskOf(gen, sent.body.result);
    const unknown = await rpc(agent.url, gen, METHOD[gen].send, {
      message: answerMessage(gen, task.id, '00000000-0000-4000-8000-000000000000', { approved: true }),
    });
    expect(unknown.status).toBe(409);
    const extra = await rpc(agent.url, gen, METHOD[gen].send, {
      message: userMessage(gen, {
        taskId: task.id,
        metadata: { hitl_response_for: { prompt_id: envelopeOf(task).prompt_id, payload: {}, extra: 1 } },
      }),
    });
    expect(extra.body.error.code).toBe(-32602);
  });
});

describe('HTTP+JSON binding', () => {
  const headers = { 'content-type': 'application/json', 'A2A-Extensions': HITL };
  it('sends, gets, answers (422, 200, 409) and cancels with mapped HTTP statuses', async () => {
    const sent = await fetch(`${agent.url}/message:send`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ message: userMessage('1.0') }),
    });
    expect(sent.status).toBe(200);
    expect(sent.headers.get('a2a-extensions')).toBe(HITL);
    const { task } = await sent.json();
    const promptId = envelopeOf(task).prompt_id;
    const got = await (await fetch(`${agent.url}/tasks/${task.id}`)).json();
    expect(got.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const answer = (payload: unknown) =>
      fetch(`${agent.url}/message:send`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ message: answerMessage('1.0', task.id, promptId, payload) }),
      });
    const invalid = await answer({});
    expect(invalid.status).toBe(422);
    expect((await invalid.json()).error.data.validation_errors[0]).toEqual({
      path: '/approved',
      keyword: 'required',
      message: "must have required property 'approved'",
    });
    expect((await answer({ approved: true })).status).toBe(200);
    expect((await answer({ approved: true })).status).toBe(409);
    expect((await fetch(`${agent.url}/tasks/${task.id}:cancel`, { method: 'POST' })).status).toBe(409);
    expect((await fetch(`${agent.url}/tasks/nope`)).status).toBe(404);
  });

  it('cancels an open task and closes its prompt', async () => {
    const { task } = await (
      await fetch(`${agent.url}/message:send`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ message: userMessage('1.0') }),
      })
    ).json();
    const canceled = await (await fetch(`${agent.url}/tasks/${task.id}:cancel`, { method: 'POST' })).json();
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    const late = await fetch(`${agent.url}/message:send`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ message: answerMessage('1.0', task.id, envelopeOf(task).prompt_id, { approved: true }) }),
    });
    expect(late.status).toBe(409);
  });
});

describe('deadline (S-4) and prompt_id uniqueness (S-5)', () => {
  it('signals an elapsed deadline with a status event and keeps the prompt answerable', async () => {
    const sent = await rpc(agent.url, '1.0', 'SendMessage', {
      message: userMessage('1.0', {
        data: scriptData([{ prompt: { text: 'Soon?', response_schema: { type: 'object' }, deadline_ms: 50 } }]),
      }),
    });
    const task = sent.body.result.task;
    const envelope = envelopeOf(task);
    expect(Date.parse(envelope.deadline)).toBeGreaterThan(Date.parse(task.status.timestamp));
    const { frames } = await replay(agent.url, task.id, 0, { version: '1.0', until: (f) => f.length >= 4 });
    expect(frames[3].event.statusUpdate.metadata['a2a-rig/deadline-elapsed']).toEqual({
      prompt_id: envelope.prompt_id,
      deadline: envelope.deadline,
    });
    expect(frames[3].event.statusUpdate.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const late = await rpc(agent.url, '1.0', 'SendMessage', {
      message: answerMessage('1.0', task.id, envelope.prompt_id, {}),
    });
    expect(late.status).toBe(200);
  });

  it('issues a fresh RFC 4122 prompt_id for every prompt, across tasks and steps', async () => {
    const ids = new Set<string>();
    const steps = [
      { prompt: { text: 'A?', response_schema: { type: 'object' } } },
      { prompt: { text: 'B?', response_schema: { type: 'object' } } },
    ];
    for (let i = 0; i < 5; i++) {
      const sent = await rpc(agent.url, '1.0', 'SendMessage', {
        message: userMessage('1.0', { data: scriptData(steps) }),
      });
      const first = envelopeOf(sent.body.result.task);
      const second = await rpc(agent.url, '1.0', 'SendMessage', {
        message: answerMessage('1.0', sent.body.result.task.id, first.prompt_id, {}),
      });
      const again = await rpc(agent.url, '1.0', 'SendMessage', {
        message: answerMessage('1.0', sent.body.result.task.id, first.prompt_id, {}),
      });
      expect(again.status).toBe(409);
      for (const id of [first.prompt_id, envelopeOf(second.body.result.task).prompt_id]) {
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        ids.add(id);
      }
    }
    expect(ids.size).toBe(10);
  });
});

describe('A2A TCK messageId prefixes', () => {
  it.each([
    ['tck-complete-task-1', 'TASK_STATE_COMPLETED'],
    ['tck-reject-task-1', 'TASK_STATE_REJECTED'],
    ['tck-input-required-1', 'TASK_STATE_INPUT_REQUIRED'],
    ['tck-artifact-data-1', 'TASK_STATE_COMPLETED'],
  ])('%s ends in %s', async (messageId, state) => {
    const sent = await rpc(agent.url, '0.3', 'message/send', { message: userMessage('0.3', { messageId }) }, false);
    expect(stateOf('0.3', sent.body.result)).toBe(state);
  });

  it('tck-message-response answers with a Message and creates no task', async () => {
    const sent = await rpc(
      agent.url,
      '0.3',
      'message/send',
      { message: userMessage('0.3', { messageId: 'tck-message-response-1', text: 'ping' }) },
      false,
    );
    expect(sent.body.result.kind).toBe('message');
    expect(sent.body.result.parts[0].text).toBe('Direct message response');
  });
});

describe('ListTasks (v1.0)', () => {
  it('pages newest first, filters by state and context, and counts every match', async () => {
    const fresh = await inProcessAgent();
    try {
      const contextId = 'ctx-list-test';
      for (let i = 0; i < 3; i++) {
        await rpc(fresh.url, '1.0', 'SendMessage', {
          message: { ...userMessage('1.0', { data: scriptData([{ complete: {} }]) }), contextId },
        });
      }
      await rpc(fresh.url, '1.0', 'SendMessage', { message: userMessage('1.0') });
      const all = await rpc(fresh.url, '1.0', 'ListTasks', { pageSize: 2 });
      expect(all.body.result.totalSize).toBe(4);
      expect(all.body.result.tasks).toHaveLength(2);
      expect(all.body.result.tasks[0].status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(all.body.result.nextPageToken).toBe('2');
      const rest = await rpc(fresh.url, '1.0', 'ListTasks', { pageSize: 2, pageToken: '2' });
      expect(rest.body.result.tasks).toHaveLength(2);
      expect(rest.body.result.nextPageToken).toBe('');
      const completed = await rpc(fresh.url, '1.0', 'ListTasks', { status: 'TASK_STATE_COMPLETED', contextId });
      expect(completed.body.result.totalSize).toBe(3);
      expect(completed.body.result.tasks.every((t: any) => t.contextId === contextId && t.artifacts.length === 0)).toBe(
        true,
      );
    } finally {
      await fresh.cleanup();
    }
  });
});
