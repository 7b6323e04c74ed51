// A2A requests as bytes, in the target's binding and wire generation: JSON-RPC (1.0 SendMessage /
// SubscribeToTask, 0.3 message/send / tasks/resubscribe) or HTTP+JSON (1.0 /message:send,
// /tasks/{id}:subscribe; 0.3 the same under /v1/). Messages are built by the rig's client
// (outgoingMessage.ts) in canonical form and put on the wire by the protocol's converters, so an
// attack request differs from a legitimate one only where the attack means it to.
import { answerMessage, completeMessage, type OutgoingMessage } from '../client/outgoingMessage.ts';
import { METHOD_NAMES } from '../protocol/a2aTypes.ts';
import { messageToProtoJsonV03 } from '../protocol/protoJsonV03Writer.ts';
import { messageOnWire } from '../protocol/wireGenerations.ts';
import type { AttackTarget, LivePrompt } from './attackTypes.ts';

/**
 * Stands in for a payload in a built body; replaced by the attack's own JSON text (which
 * JSON.stringify could not build, e.g. 10,000 levels deep). An object, as answers' payloads
 * usually are, so 0.3's data part carries it as it is (a non-object would be wrapped in `value`).
 */
const PAYLOAD_MARK = '{"a2a-rig-attack-payload-6b1d":true}';

let nextId = 1;

function basePath(target: AttackTarget): string {
  return target.endpoint.pathname.replace(/\/+$/, '');
}

/** The request target (path) and body of a send of `message`. */
export function sendRequest(target: AttackTarget, message: OutgoingMessage): { path: string; body: string } {
  const complete = completeMessage(message);
  if (target.binding === 'JSONRPC') {
    const params = { message: messageOnWire(complete, target.generation) };
    const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: METHOD_NAMES[target.generation].send, params });
    return { path: `${target.endpoint.pathname}${target.endpoint.search}` || '/', body };
  }
  if (target.generation === '1.0')
    return { path: `${basePath(target)}/message:send`, body: JSON.stringify({ message: complete }) };
  return {
    path: `${basePath(target)}/v1/message:send`,
    body: JSON.stringify({ message: messageToProtoJsonV03(complete) }),
  };
}

/**
 * The send of an answer to `prompt` whose payload is `payloadJson` verbatim (one JSON value the
 * caller vouches for); `promptId` overrides the prompt's own (unknown-prompt).
 */
export function answerRequest(
  target: AttackTarget,
  prompt: LivePrompt,
  payloadJson: string,
  promptId = prompt.promptId,
): { path: string; body: string } {
  const message = answerMessage(
    prompt.taskId,
    promptId,
    JSON.parse(PAYLOAD_MARK),
    prompt.contextId ? { contextId: prompt.contextId } : {},
  );
  const { path, body } = sendRequest(target, message);
  return { path, body: body.split(PAYLOAD_MARK).join(payloadJson) };
}

/** The request target, method and body of a subscription to a task's events (SSE). */
export function subscribeRequest(target: AttackTarget, taskId: string): { method: string; path: string; body: string } {
  if (target.binding === 'JSONRPC') {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: METHOD_NAMES[target.generation].subscribe,
      params: { id: taskId },
    });
    return { method: 'POST', path: `${target.endpoint.pathname}${target.endpoint.search}` || '/', body };
  }
  const prefix = target.generation === '1.0' ? basePath(target) : `${basePath(target)}/v1`;
  return { method: 'POST', path: `${prefix}/tasks/${encodeURIComponent(taskId)}:subscribe`, body: '' };
}

/** The path a malformed body goes to: the JSON-RPC endpoint, or the binding's send route. */
export function sendPath(target: AttackTarget): string {
  return sendRequest(target, { parts: [{ text: 'x' }] }).path;
}

/**
 * One HTTP/1.1 request head (ending in the blank line) with the target's A2A headers, `Connection:
 * close` (a hostile request never reuses its connection) and the given extra headers.
 */
export function requestHead(
  target: AttackTarget,
  method: string,
  path: string,
  options: { contentLength?: number; accept?: string; extra?: string; connection?: string } = {},
): string {
  const connection = options.connection ?? 'close';
  let head = `${method} ${path} HTTP/1.1\r\nhost: ${target.baseUrl.host}\r\nconnection: ${connection}\r\n`;
  if (options.contentLength !== undefined)
    head += `content-type: application/json\r\ncontent-length: ${options.contentLength}\r\n`;
  head += `accept: ${options.accept ?? 'application/json'}\r\n`;
  for (const [name, value] of Object.entries(target.headers)) head += `${name}: ${value}\r\n`;
  return `${head}${options.extra ?? ''}\r\n`;
}

/** A whole POST (head and body) as one buffer. */
export function postBytes(
  target: AttackTarget,
  path: string,
  body: string | Buffer,
  options: { accept?: string; extra?: string } = {},
): Buffer {
  const bodyBytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return Buffer.concat([
    Buffer.from(requestHead(target, 'POST', path, { ...options, contentLength: bodyBytes.length }), 'latin1'),
    bodyBytes,
  ]);
}
