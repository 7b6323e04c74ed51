// Attack requests on the wire (rig/attack/attackRequests.ts): the right method, path and message
// shape per generation and binding, the answer metadata where the rig puts it, and a payload put
// in verbatim (even one JSON.stringify could not build).
import { describe, expect, it } from 'vitest';
import { answerRequest, requestHead, subscribeRequest } from '../rig/attack/attackRequests.ts';
import { attackTarget } from '../rig/attack/attackTarget.ts';

const prompt = { taskId: 'task-1', promptId: 'prompt-1', responseSchema: {}, validPayload: { approved: true } };
const target = (generation: '1.0' | '0.3', binding: 'JSONRPC' | 'HTTP+JSON') =>
  attackTarget({ baseUrl: 'http://127.0.0.1:1', generation, binding });

describe('attack requests', () => {
  it('1.0 JSON-RPC: SendMessage, parts {data}, ROLE_USER, hitl_response_for in metadata', () => {
    const { path, body } = answerRequest(target('1.0', 'JSONRPC'), prompt, '{"approved":false}');
    const m = JSON.parse(body);
    expect(path).toBe('/');
    expect(m).toMatchObject({
      jsonrpc: '2.0',
      method: 'SendMessage',
      params: { message: { taskId: 'task-1', role: 'ROLE_USER', parts: [{ data: { approved: false } }] } },
    });
    expect(m.params.message.metadata.hitl_response_for).toEqual({
      prompt_id: 'prompt-1',
      payload: { approved: false },
    });
  });

  it('0.3 JSON-RPC: message/send with kind fields and role user', () => {
    const m = JSON.parse(answerRequest(target('0.3', 'JSONRPC'), prompt, '{"approved":true}', 'other').body);
    expect(m).toMatchObject({
      method: 'message/send',
      params: { message: { kind: 'message', role: 'user', parts: [{ kind: 'data', data: { approved: true } }] } },
    });
    expect(m.params.message.metadata.hitl_response_for.prompt_id).toBe('other');
  });

  it(
    'HTTP+JSON paths: /message:send and :subscribe for 1.0, ' +
      'under /v1/ for 0.3; JSON-RPC subscribe methods by generation',
    () => {
      expect(answerRequest(target('1.0', 'HTTP+JSON'), prompt, '{}').path).toBe('/message:send');
      expect(answerRequest(target('0.3', 'HTTP+JSON'), prompt, '{}').path).toBe('/v1/message:send');
      expect(subscribeRequest(target('1.0', 'HTTP+JSON'), 't 1')).toMatchObject({
        method: 'POST',
        path: '/tasks/t%201:subscribe',
      });
      expect(subscribeRequest(target('0.3', 'HTTP+JSON'), 't')).toMatchObject({ path: '/v1/tasks/t:subscribe' });
      expect(JSON.parse(subscribeRequest(target('1.0', 'JSONRPC'), 't').body)).toMatchObject({
        method: 'SubscribeToTask',
        params: { id: 't' },
      });
      expect(JSON.parse(subscribeRequest(target('0.3', 'JSONRPC'), 't').body)).toMatchObject({
        method: 'tasks/resubscribe',
        params: { id: 't' },
      });
    },
  );

  it('puts a payload in verbatim, twice (metadata and data part), however deep', () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const { body } = answerRequest(target('1.0', 'JSONRPC'), prompt, deep);
    expect(body.split(deep)).toHaveLength(3);
  });

  it('request heads carry the A2A headers and close the connection', () => {
    const head = requestHead(target('1.0', 'JSONRPC'), 'POST', '/', { contentLength: 5 });
    expect(head).toMatch(/^POST \/ HTTP\/1\.1\r\nhost: 127\.0\.0\.1:1\r\nconnection: close\r\n/);
    expect(head).toMatch(/\r\na2a-version: 1\.0\r\n/);
    expect(head).toMatch(/\r\na2a-extensions: https:\/\/agentic-sandbox\.aiwg\.io\/extensions\/hitl-prompt\/v1\r\n/);
    expect(head).toMatch(/content-length: 5\r\n[\s\S]*\r\n\r\n$/);
  });
});
