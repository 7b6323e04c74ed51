// Request validation as the official A2A TCK (a2aproject/a2a-tck, branches 1.0-dev and 0.3.x)
// sends it: each case is the TCK's request and the answer the agent must give.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessAgent } from './support/inProcessAgent.ts';
import { METHOD, rpc, rpcStream, stateOf, taskOf, type Gen } from './support/rpcClient.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent.cleanup());

let n = 0;
const role = (gen: Gen) => (gen === '1.0' ? 'ROLE_USER' : 'user');
const textPart = (gen: Gen, text: string) => (gen === '1.0' ? { text } : { kind: 'text', text });

async function postRaw(body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(agent.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function completedTask(gen: Gen): Promise<string> {
  const sent = await rpc(
    agent.url,
    gen,
    METHOD[gen].send,
    { message: { messageId: `tck-complete-task-${n++}`, role: role(gen), parts: [textPart(gen, 'x')] } },
    false,
  );
  return taskOf(gen, sent.body.result).id;
}

describe.each<Gen>(['0.3', '1.0'])('message validation (%s)', (gen) => {
  it(
    'refuses parts: [] with -32602 and creates no task (0.3 test_empty_arrays, ' + 'test_empty_message_parts)',
    async () => {
      const reply = await rpc(
        agent.url,
        gen,
        METHOD[gen].send,
        {
          message: {
            messageId: `test-empty-array-message-id-${n++}`,
            role: role(gen),
            parts: [],
            ...(gen === '0.3' ? { kind: 'message' } : {}),
          },
        },
        false,
      );
      expect(reply.body.error.code).toBe(-32602);
      expect(reply.body.error.message).toContain('parts');
    },
  );

  it('refuses a message without parts (0.3 test_missing_required_message_fields)', async () => {
    const reply = await rpc(
      agent.url,
      gen,
      METHOD[gen].send,
      { message: { messageId: `test-no-parts-message-id-${n++}`, role: role(gen) } },
      false,
    );
    expect(reply.body.error.code).toBe(-32602);
  });

  it('refuses historyLength -1 in GetTask and in the send configuration', async () => {
    const id = await completedTask(gen);
    const get = await rpc(agent.url, gen, METHOD[gen].get, { id, historyLength: -1 }, false);
    expect(get.body.error.code).toBe(-32602);
    const send = await rpc(
      agent.url,
      gen,
      METHOD[gen].send,
      {
        message: { messageId: `m-${n++}`, role: role(gen), parts: [textPart(gen, 'x')] },
        configuration: { historyLength: -1 },
      },
      false,
    );
    expect(send.body.error.code).toBe(-32602);
  });
});

describe('HTTP+JSON', () => {
  it('POST /message:send with parts: [] is 400', async () => {
    const res = await fetch(`${agent.url}/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ message: { messageId: `m-${n++}`, role: 'ROLE_USER', parts: [] } }),
    });
    expect(res.status).toBe(400);
  });

  it('GET /tasks/{id} reads ?history_length= as historyLength, and refuses both at once', async () => {
    const id = await completedTask('1.0');
    const get = (query: string) => fetch(`${agent.url}/tasks/${id}?${query}`, { headers: { 'A2A-Version': '1.0' } });
    const one = await get('history_length=1');
    expect((await one.json()).history).toHaveLength(1);
    expect((await get('history_length=-1')).status).toBe(400);
    expect((await get('historyLength=1&history_length=1')).status).toBe(400);
  });

  it('GET /tasks reads page_size and include_artifacts', async () => {
    await completedTask('1.0');
    const res = await fetch(`${agent.url}/tasks?page_size=1&include_artifacts=true`, {
      headers: { 'A2A-Version': '1.0' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).tasks).toHaveLength(1);
  });
});

describe('0.3 parts need a kind', () => {
  it('refuses a part without kind (test_unsupported_part_kind) with -32602, not as text', async () => {
    const reply = await rpc(
      agent.url,
      '0.3',
      'message/send',
      {
        message: {
          kind: 'message',
          messageId: `test-unsupported-part-message-id-${n++}`,
          role: 'user',
          parts: [{ type: 'unsupported_type', text: 'This should be rejected' }],
        },
      },
      false,
    );
    expect(reply.body.error.code).toBe(-32602);
    expect(reply.body.error.message).toContain('kind');
  });

  it('still reads a 1.0 text part, which has no kind', async () => {
    const reply = await rpc(
      agent.url,
      '1.0',
      'SendMessage',
      { message: { messageId: `tck-complete-task-${n++}`, role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
      false,
    );
    expect(stateOf('1.0', reply.body.result.task)).toBe('TASK_STATE_COMPLETED');
  });
});

describe('ProtoJSON field names (1.0 TCK test_get_task_history_does_not_exceed_limit[jsonrpc])', () => {
  it('GetTask reads history_length as historyLength', async () => {
    const id = await completedTask('1.0');
    const reply = await rpc(agent.url, '1.0', 'GetTask', { id, history_length: 1 }, false);
    expect(reply.body.result.history).toHaveLength(1);
    const negative = await rpc(agent.url, '1.0', 'GetTask', { id, history_length: -1 }, false);
    expect(negative.body.error.code).toBe(-32602);
  });

  it('refuses a field named both ways', async () => {
    const id = await completedTask('1.0');
    const reply = await rpc(agent.url, '1.0', 'GetTask', { id, history_length: 1, historyLength: 2 }, false);
    expect(reply.body.error.code).toBe(-32602);
  });

  it('reads message_id, task_id and configuration.history_length in SendMessage, and ListTasks page_size', async () => {
    const sent = await rpc(
      agent.url,
      '1.0',
      'SendMessage',
      {
        message: { message_id: `tck-complete-task-${n++}`, role: 'ROLE_USER', parts: [{ text: 'x' }] },
        configuration: { history_length: 0 },
      },
      false,
    );
    expect(sent.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(sent.body.result.task.history).toEqual([]);
    const listed = await rpc(agent.url, '1.0', 'ListTasks', { page_size: 1 }, false);
    expect(listed.body.result.tasks).toHaveLength(1);
  });
});

describe('JSON-RPC id of a wrong type (0.3 test_rejects_invalid_json_rpc_requests[invalid_request3--32600])', () => {
  it.each([{ bad: 'type' }, [1], true])('id %j: -32600 with id null, and the method does not run', async (id) => {
    const messageId = `tck-complete-task-badid-${n++}`;
    const reply = await postRaw({
      jsonrpc: '2.0',
      method: 'message/send',
      params: { message: { kind: 'message', messageId, role: 'user', parts: [{ kind: 'text', text: 'x' }] } },
      id,
    });
    expect(reply.body.error.code).toBe(-32600);
    expect(reply.body.id).toBeNull();
    expect(reply.body.result).toBeUndefined();
    const listed = await rpc(agent.url, '1.0', 'ListTasks', { pageSize: 100 }, false);
    expect(JSON.stringify(listed.body.result.tasks)).not.toContain(messageId);
  });

  it('the TCK request itself (params {}) gets -32600 too', async () => {
    const reply = await postRaw({ jsonrpc: '2.0', method: 'message/send', params: {}, id: { bad: 'type' } });
    expect(reply.body).toMatchObject({ id: null, error: { code: -32600 } });
  });
});

describe(
  'a refused 0.3 tasks/resubscribe is an event stream ' + 'holding the error (0.3 test_tasks_resubscribe_nonexistent)',
  () => {
    it('unknown task: text/event-stream, one frame with -32001 "not found"', async () => {
      const { status, headers, events } = await rpcStream(agent.url, '0.3', 'tasks/resubscribe', {
        id: `non-existent-task-id-${n++}`,
      });
      expect(status).toBe(200);
      expect(headers.get('content-type')).toContain('text/event-stream');
      expect(events).toHaveLength(1);
      expect(events[0].error.code).toBe(-32001);
      expect(events[0].error.message).toContain('not found');
    });

    it('terminal task: one frame with -32004', async () => {
      const id = await completedTask('0.3');
      const { headers, events } = await rpcStream(agent.url, '0.3', 'tasks/resubscribe', { id });
      expect(headers.get('content-type')).toContain('text/event-stream');
      expect(events.map((e) => e.error.code)).toEqual([-32004]);
    });
  },
);
