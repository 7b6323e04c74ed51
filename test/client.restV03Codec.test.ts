// The client's A2A 0.3 HTTP+JSON calls (restV03Codec.ts): each 0.3 JSON-RPC method to its /v1/
// route with a 0.3 ProtoJSON body, and the agent's 0.3 ProtoJSON answers handed on as the 0.3
// JSON-RPC shapes; an answer that is not 0.3 ProtoJSON is the agent's protocol fault.
import { describe, expect, it } from 'vitest';
import { restV03Frame, restV03Result, restV03Route } from '../rig/client/restV03Codec.ts';
import { TransportError } from '../rig/client/transportError.ts';

const BASE = 'http://127.0.0.1:9/agents/a1/';
const message = { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'data', data: { ok: true } }] };

describe('0.3 HTTP+JSON routes', () => {
  it('sends the 0.3 JSON-RPC params as a 0.3 ProtoJSON SendMessageRequest under {url}/v1/', () => {
    const params = JSON.stringify({ message, configuration: { blocking: false } });
    for (const [method, action] of [
      ['message/send', 'send'],
      ['message/stream', 'stream'],
    ]) {
      const route = restV03Route(BASE, method!, params);
      expect(route).toMatchObject({ verb: 'POST', url: `http://127.0.0.1:9/agents/a1/v1/message:${action}` });
      expect(JSON.parse(route.body!)).toEqual({
        message: { messageId: 'm', role: 'ROLE_USER', content: [{ data: { data: { ok: true } } }] },
        configuration: { blocking: false },
      });
    }
  });

  it('routes get (with historyLength), cancel and resubscribe; 0.3 has no list', () => {
    const at = (method: string, params: object) => restV03Route(BASE, method, JSON.stringify(params));
    expect(at('tasks/get', { id: 't/1', historyLength: 2 })).toEqual({
      verb: 'GET',
      url: 'http://127.0.0.1:9/agents/a1/v1/tasks/t%2F1?historyLength=2',
    });
    expect(at('tasks/cancel', { id: 't', metadata: { x: 1 } })).toEqual({
      verb: 'POST',
      url: 'http://127.0.0.1:9/agents/a1/v1/tasks/t:cancel',
      body: '{}',
    });
    expect(at('tasks/resubscribe', { id: 't' })).toEqual({
      verb: 'GET',
      url: 'http://127.0.0.1:9/agents/a1/v1/tasks/t:subscribe',
    });
    expect(() => at('tasks/list', {})).toThrow(/has no route for tasks\/list/);
  });

  it('writes an answer payload of any depth as it came (deep-nesting sends 100,000 levels)', () => {
    const payload = '['.repeat(100_000) + ']'.repeat(100_000);
    const params = JSON.stringify({ message: { ...message, parts: [{ kind: 'data', data: { r: 'slot' } }] } });
    const route = restV03Route(BASE, 'message/send', params.replace('"slot"', payload));
    expect(route.body).toBe(
      `{"message":{"messageId":"m","role":"ROLE_USER","content":[{"data":{"data":{"r":${payload}}}}]},` +
        '"configuration":{"blocking":true}}',
    );
  });

  it("refuses what it cannot say in 0.3 ProtoJSON as the rig's limit, not the agent's fault", () => {
    const refused = () => restV03Route(BASE, 'message/send', JSON.stringify({ message: { role: 'user' } }));
    expect(refused).toThrow(/the rig cannot say these message\/send params in A2A 0\.3 ProtoJSON: .*messageId/);
    expect(refused).not.toThrow(TransportError);
  });
});

describe('0.3 HTTP+JSON answers', () => {
  const task = { id: 't', contextId: 'c', status: { state: 'TASK_STATE_INPUT_REQUIRED' } };

  it('hands a task, a send response and a frame on as 0.3 JSON-RPC shapes', () => {
    expect(restV03Result('tasks/get', task, 'GET x', 200)).toEqual({
      kind: 'task',
      id: 't',
      contextId: 'c',
      status: { state: 'input-required' },
      artifacts: [],
      history: [],
    });
    expect(restV03Result('message/send', { task }, 'POST x', 200)).toMatchObject({ kind: 'task', id: 't' });
    const frame = {
      statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_CANCELLED' }, final: true },
    };
    expect(JSON.parse(restV03Frame(JSON.stringify(frame), 'GET x'))).toEqual({
      kind: 'status-update',
      taskId: 't',
      contextId: 'c',
      status: { state: 'canceled' },
      final: true,
    });
  });

  it('fails an answer in the 0.3 JSON-RPC shape as a protocol fault naming the field', () => {
    const jsonRpcShaped = { kind: 'task', ...task, status: { state: 'input-required' } };
    const read = () => restV03Result('tasks/get', jsonRpcShaped, 'GET x', 200);
    expect(read).toThrow(TransportError);
    expect(read).toThrow(/GET x: the HTTP 200 reply is not A2A 0\.3 ProtoJSON: task\.kind is not a field/);
    const frame = () => restV03Frame(JSON.stringify({ kind: 'status-update', taskId: 't' }), 'GET y');
    expect(frame).toThrow(/GET y: a stream frame is not an A2A 0\.3 ProtoJSON StreamResponse: event\.kind/);
    expect(frame).toThrow(expect.objectContaining({ failure: 'protocol' }));
  });
});
