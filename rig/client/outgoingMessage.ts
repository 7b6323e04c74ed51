// Messages the rig sends, built in canonical (v1.0) shape and put on the wire in the agent's
// generation by the client: plain user messages, and hitl-prompt/v1 answers (the response envelope
// under metadata.hitl_response_for, the extension URI listed in `extensions`).
import { randomUUID } from 'node:crypto';
import type { JsonObject, Message, Part, Role } from '../protocol/a2aTypes.ts';
import { HITL_PROMPT_URI, HITL_RESPONSE_KEY } from '../protocol/hitlPrompt.ts';

/** A message as callers write it: `messageId` and `role` may be left out (a UUID and ROLE_USER). */
export type OutgoingMessage = Omit<Message, 'messageId' | 'role'> & { messageId?: string; role?: Role };

export function completeMessage(message: OutgoingMessage): Message {
  // The same object as `{ ...message, messageId, role }` (same keys, same order), made with
  // Object.assign: in V8, adding properties to an object made by spread leaves the fast path and
  // costs many times the copy, on every message a load sends. Object.assign would set the prototype
  // for an own `__proto__` key, so such a message takes the spread.
  if (Object.hasOwn(message, '__proto__'))
    return { ...message, messageId: message.messageId ?? randomUUID(), role: message.role ?? 'ROLE_USER' };
  const complete = Object.assign({}, message) as Message;
  complete.messageId ??= randomUUID();
  complete.role ??= 'ROLE_USER';
  return complete;
}

/** A user message with an optional text part and an optional data part (e.g. an `a2a-rig/script`). */
export function userMessage(
  options: { text?: string; data?: JsonObject; taskId?: string; contextId?: string; metadata?: JsonObject } = {},
): OutgoingMessage {
  const parts: Part[] = [];
  if (options.text !== undefined || options.data === undefined) parts.push({ text: options.text ?? 'hello' });
  if (options.data !== undefined) parts.push({ data: options.data });
  return {
    parts,
    ...(options.taskId ? { taskId: options.taskId } : {}),
    ...(options.contextId ? { contextId: options.contextId } : {}),
    ...(options.metadata ? { metadata: options.metadata } : {}),
  };
}

/**
 * The answer to a prompt: a user message to the task whose metadata holds
 * `hitl_response_for: {prompt_id, payload}`. The payload is also sent as a data part, for agents
 * that read answers from parts when the extension is not activated.
 */
export function answerMessage(
  taskId: string,
  promptId: string,
  payload: unknown,
  options: { contextId?: string } = {},
): OutgoingMessage {
  return {
    taskId,
    ...(options.contextId ? { contextId: options.contextId } : {}),
    parts: [{ data: payload }],
    metadata: { [HITL_RESPONSE_KEY]: { prompt_id: promptId, payload } },
    extensions: [HITL_PROMPT_URI],
  };
}
