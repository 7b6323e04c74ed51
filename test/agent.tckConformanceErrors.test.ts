// Issue 11, errors, push and version, as the A2A 1.0 TCK asks them (jsonrpc/test_error_info.py,
// jsonrpc/test_error_codes.py, http_json/test_problem_details.py, http_json/test_http_status.py,
// core_operations/test_error_handling.py): ErrorInfo in JSON-RPC `error.data` (1.0 requests) and
// AIP-193 bodies on HTTP+JSON; push-config refused with -32003 / 400 on every binding; HTTP+JSON
// refuses an A2A-Version it does not speak before anything runs; a non-JSON Content-Type is
// -32005 / 415. The hitl-prompt/v1 errors keep the contract's object in `error.data`.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../rig/client/a2aClient.ts';
import { HITL, inProcessAgent } from './support/inProcessAgent.ts';
import { answerMessage, envelopeOf, rpc, userMessage } from './support/rpcClient.ts';

const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';
const errorInfo = (reason: string) => ({ '@type': ERROR_INFO, reason, domain: 'a2a-protocol.org' });

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent?.cleanup());

const V1 = { 'content-type': 'application/json', 'A2A-Version': '1.0' };

async function rest(method: string, path: string, init: { headers?: Record<string, string>; body?: unknown } = {}) {
  const res = await fetch(`${agent.url}${path}`, {
    method,
    headers: init.headers ?? V1,
    ...(init.body === undefined ? {} : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
  });
  return { status: res.status, contentType: res.headers.get('content-type'), body: (await res.json()) as any };
}

/** A 1.0 task waiting in INPUT_REQUIRED, with the prompt it waits on. */
async function waitingTask(): Promise<{ taskId: string; promptId: string }> {
  const sent = await rpc(agent.url, '1.0', 'SendMessage', { message: userMessage('1.0') });
  const task = sent.body.result.task;
  return { taskId: task.id, promptId: envelopeOf(task).prompt_id };
}

describe('JSON-RPC errors', () => {
  it('1.0: an A2A error carries an ErrorInfo in error.data (TASK_NOT_FOUND)', async () => {
    const reply = await rpc(agent.url, '1.0', 'GetTask', { id: 'tck-nonexistent-errinfo-001' });
    expect(reply.body.error.code).toBe(-32001);
    expect(reply.body.error.data).toEqual([errorInfo('TASK_NOT_FOUND')]);
  });

  it('0.3 (no A2A-Version): the 0.3 shape, no data (0.3 has no ErrorInfo rule)', async () => {
    const reply = await rpc(agent.url, '0.3', 'tasks/get', { id: 'nonexistent' });
    expect(reply.body.error.code).toBe(-32001);
    expect(reply.body.error).not.toHaveProperty('data');
  });

  it('an unsupported A2A-Version: -32009 with VERSION_NOT_SUPPORTED', async () => {
    const res = await fetch(agent.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '99.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: userMessage('1.0') } }),
    });
    const body = await res.json();
    expect(body.error.code).toBe(-32009);
    expect(body.error.data).toEqual([errorInfo('VERSION_NOT_SUPPORTED')]);
  });

  it('the version may come as the A2A-Version query parameter (§3.2.6): 1.0 method names, 99.0 refused', async () => {
    const call = (query: string) =>
      fetch(`${agent.url}/?A2A-Version=${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id: 'nope' } }),
      }).then((r) => r.json());
    expect((await call('1.0')).error.code).toBe(-32001);
    expect((await call('99.0')).error.code).toBe(-32009);
  });

  it('JSON-RPC errors of its own (-32601) carry no ErrorInfo: they are not A2A errors', async () => {
    const reply = await rpc(agent.url, '1.0', 'NoSuchMethod', {});
    expect(reply.body.error.code).toBe(-32601);
    expect(reply.body.error).not.toHaveProperty('data');
  });

  it(
    '1.0: a hitl-prompt/v1 422 keeps the contract object ' + 'in error.data (examples/invalid-response-422.json)',
    async () => {
      const { taskId, promptId } = await waitingTask();
      const reply = await rpc(agent.url, '1.0', 'SendMessage', { message: answerMessage('1.0', taskId, promptId, {}) });
      expect(reply.status).toBe(422);
      expect(reply.body.error).toMatchObject({ code: -32011, message: 'hitl_response_invalid' });
      expect(reply.body.error.data).toEqual({
        extension: HITL,
        prompt_id: promptId,
        validation_errors: expect.any(Array),
      });
    },
  );

  it(
    'a Content-Type that is not JSON is -32005 ContentTypeNotSupported, ' +
      'not a parse error (test_content_type_not_supported_error)',
    async () => {
      // The TCK's body is Python's str() of the request (single quotes), labelled text/plain.
      const res = await fetch(agent.url, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'A2A-Version': '1.0' },
        body: "{'jsonrpc': '2.0', 'id': 1, 'method': 'SendMessage', 'params': {}}",
      });
      const body = await res.json();
      expect(body.error.code).toBe(-32005);
      expect(body.error.data).toEqual([errorInfo('CONTENT_TYPE_NOT_SUPPORTED')]);
    },
  );

  it('a body without a Content-Type, or labelled application/a2a+json, is still read', async () => {
    const request = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'GetTask', params: { id: 'nope' } });
    const variants: Array<Record<string, string>> = [
      { 'A2A-Version': '1.0' },
      { 'A2A-Version': '1.0', 'content-type': 'application/a2a+json; charset=utf-8' },
    ];
    for (const headers of variants) {
      // A byte body: fetch adds no Content-Type of its own.
      const res = await fetch(agent.url, { method: 'POST', headers, body: new TextEncoder().encode(request) });
      expect((await res.json()).error.code).toBe(-32001);
    }
  });
});

describe('HTTP+JSON errors (AIP-193)', () => {
  it('404: error.code is the HTTP status, status NOT_FOUND, details[] has TASK_NOT_FOUND', async () => {
    const reply = await rest('GET', '/tasks/tck-nonexistent-pd-001');
    expect(reply.status).toBe(404);
    expect(reply.contentType).toContain('application/json');
    expect(reply.body.error).toEqual({
      code: 404,
      status: 'NOT_FOUND',
      message: expect.any(String),
      details: [errorInfo('TASK_NOT_FOUND')],
    });
  });

  it('409 on cancelling a finished task: TASK_NOT_CANCELABLE', async () => {
    const { taskId } = await waitingTask();
    expect((await rest('POST', `/tasks/${taskId}:cancel`)).status).toBe(200);
    const again = await rest('POST', `/tasks/${taskId}:cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({
      code: 409,
      status: 'FAILED_PRECONDITION',
      details: [errorInfo('TASK_NOT_CANCELABLE')],
    });
  });

  it('a hitl-prompt/v1 422 keeps the contract object in error.data beside details', async () => {
    const { taskId, promptId } = await waitingTask();
    const reply = await rest('POST', '/message:send', {
      headers: { ...V1, 'A2A-Extensions': HITL },
      body: { message: answerMessage('1.0', taskId, promptId, {}) },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.error).toMatchObject({ code: 422, status: 'INVALID_ARGUMENT', message: 'hitl_response_invalid' });
    expect(reply.body.error.data).toEqual({
      extension: HITL,
      prompt_id: promptId,
      validation_errors: expect.any(Array),
    });
    expect(reply.body.error.details).toEqual([
      {
        '@type': ERROR_INFO,
        reason: 'HITL_RESPONSE_INVALID',
        domain: 'agentic-sandbox.aiwg.io',
        metadata: { extension: HITL },
      },
    ]);
  });

  it('a Content-Type that is not JSON is 415 CONTENT_TYPE_NOT_SUPPORTED', async () => {
    const reply = await rest('POST', '/message:send', {
      headers: { 'content-type': 'text/plain', 'A2A-Version': '1.0' },
      body: { message: userMessage('1.0', { messageId: 'tck-status-ct-004' }) },
    });
    expect(reply.status).toBe(415);
    expect(reply.body.error).toMatchObject({ code: 415, details: [errorInfo('CONTENT_TYPE_NOT_SUPPORTED')] });
  });
});

describe('push notifications are not supported', () => {
  const v10 = [
    'CreateTaskPushNotificationConfig',
    'GetTaskPushNotificationConfig',
    'ListTaskPushNotificationConfigs',
    'DeleteTaskPushNotificationConfig',
  ];
  const v03 = [
    'tasks/pushNotificationConfig/set',
    'tasks/pushNotificationConfig/get',
    'tasks/pushNotificationConfig/list',
    'tasks/pushNotificationConfig/delete',
  ];

  it.each(v10)('JSON-RPC 1.0 %s: -32003 with PUSH_NOTIFICATION_NOT_SUPPORTED', async (method) => {
    const reply = await rpc(agent.url, '1.0', method, {
      taskId: 'tck-error-code-003',
      config: { url: 'https://example.com' },
    });
    expect(reply.body.error.code).toBe(-32003);
    expect(reply.body.error.data).toEqual([errorInfo('PUSH_NOTIFICATION_NOT_SUPPORTED')]);
  });

  it.each(v03)('JSON-RPC 0.3 %s: -32003', async (method) => {
    const reply = await rpc(agent.url, '0.3', method, {
      id: 'task-1',
      pushNotificationConfig: { url: 'https://example.com' },
    });
    expect(reply.body.error.code).toBe(-32003);
  });

  it.each([
    ['POST', '/tasks/tck-status-push-005/pushNotificationConfigs', { url: 'https://example.com' }],
    ['GET', '/tasks/tck-status-push-005/pushNotificationConfigs', undefined],
    ['GET', '/tasks/tck-status-push-005/pushNotificationConfigs/cfg-1', undefined],
    ['DELETE', '/tasks/tck-status-push-005/pushNotificationConfigs/cfg-1', undefined],
  ])('HTTP+JSON %s %s: 400 with PUSH_NOTIFICATION_NOT_SUPPORTED', async (method, path, body) => {
    const reply = await rest(method, path, { body });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({
      code: 400,
      status: 'UNIMPLEMENTED',
      details: [errorInfo('PUSH_NOTIFICATION_NOT_SUPPORTED')],
    });
  });
});

describe('HTTP+JSON checks A2A-Version before anything runs', () => {
  async function tasksIn(contextId: string): Promise<number> {
    const listed = await rpc(agent.url, '1.0', 'ListTasks', { contextId });
    return listed.body.result.tasks.length;
  }

  it('POST /message:send with A2A-Version: 99.0 is 400 VERSION_NOT_SUPPORTED and creates no task', async () => {
    const contextId = `ctx-${randomUUID()}`;
    const reply = await rest('POST', '/message:send', {
      headers: { 'content-type': 'application/json', 'A2A-Version': '99.0' },
      body: { message: { ...userMessage('1.0', { messageId: 'tck-status-ver-006' }), contextId } },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({
      code: 400,
      status: 'UNIMPLEMENTED',
      details: [errorInfo('VERSION_NOT_SUPPORTED')],
    });
    expect(await tasksIn(contextId)).toBe(0);
  });

  it('A2A-Version: 0.3 on the 1.0 paths is refused too, pointing at /v1/; none and 1.0 are served', async () => {
    const refused = await rest('GET', '/tasks/nope', { headers: { 'A2A-Version': '0.3' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('/v1/');
    expect((await rest('GET', '/tasks/nope?A2A-Version=2.0', { headers: {} })).status).toBe(400);
    expect((await rest('GET', '/tasks/nope', { headers: {} })).status).toBe(404);
    expect((await rest('GET', '/tasks/nope?A2A-Version=1.0', { headers: {} })).status).toBe(404);
  });
});

describe("the rig's own client reads both error shapes", () => {
  it.each(['1.0', '0.3'] as const)(
    'A2A %s: TaskNotFound comes back as -32001, the ErrorInfo kept (1.0) or no data (0.3)',
    async (generation) => {
      const client = await A2AClient.open(agent.url, { generation });
      try {
        const missing = await client.getTask('no-such-task');
        expect(missing).toMatchObject({ ok: false, error: { code: -32001 } });
        if (!missing.ok)
          expect(missing.error.data).toEqual(generation === '1.0' ? [errorInfo('TASK_NOT_FOUND')] : undefined);
      } finally {
        await client.close();
      }
    },
  );
});
