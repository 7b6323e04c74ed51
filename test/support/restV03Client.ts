// Requests shaped as the A2A 0.3 TCK's REST client sends them to the /v1/ HTTP+JSON binding: ProtoJSON
// of the 0.3 proto with proto field names (test/agent.restV03*.test.ts).
import { expect } from 'vitest';

let n = 0;
/** A message id no other request of this test file used, starting with `prefix`. */
export function uniqueId(prefix: string): string {
  return `${prefix}-${n++}`;
}

/** A 0.3 ProtoJSON user message as the TCK's convert_a2a_message_to_protobuf_json writes it. */
export function tckMessage(extra: Record<string, unknown> = {}, content: unknown[] = [{ text: 'Hello from TCK' }]) {
  return { message_id: uniqueId('rest03'), role: 'ROLE_USER', content, ...extra };
}

/** POST and a new task against the agent at `baseUrl()` (read at each call: the agent starts in beforeAll). */
export function restV03Client(baseUrl: () => string) {
  async function post(path: string, body?: unknown, headers: Record<string, string> = {}) {
    return fetch(`${baseUrl()}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      signal: AbortSignal.timeout(20_000),
    });
  }

  async function newTask(headers: Record<string, string> = {}) {
    const res = await post('/v1/message:send', { message: tckMessage() }, headers);
    expect(res.status).toBe(200);
    return (await res.json()).task;
  }

  return { post, newTask };
}
