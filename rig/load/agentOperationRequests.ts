// The agent operations the closed model drives (send, get, answer), as autocannon requests: JSON-RPC
// bodies in the agent's wire generation, with its version and extension headers, built by the same
// protocol code the rig's client uses. Also the classification of a JSON-RPC reply (accepted, 409,
// 422, other error) that turns a raw throughput run into "valid answers per second".
import { randomUUID } from 'node:crypto';
import { accessRequestHeaders, answerMessage, type AgentDescription } from '../client/index.ts';
import type { TargetAccess } from '../client/credentials.ts';
import { METHOD_NAMES, type Generation } from '../protocol/a2aTypes.ts';
import { HITL_ALREADY_ANSWERED_OR_UNKNOWN, HITL_RESPONSE_INVALID } from '../protocol/errorCodes.ts';
import { HITL_PROMPT_URI } from '../protocol/hitlPrompt.ts';
import { messageOnWire } from '../protocol/wireGenerations.ts';
import type { ClosedModelRequest } from './closedModel.ts';

export type OperationTarget = Pick<AgentDescription, 'rpcUrl' | 'generation'> & {
  /** Extensions activated on every request (default hitl-prompt/v1). */
  extensions?: readonly string[];
  /** The user's headers and `--activate` extensions. */
  access?: TargetAccess;
};

export interface ParkedPrompt {
  taskId: string;
  promptId: string;
  payload: unknown;
}

function rpcRequest(target: OperationTarget, method: string, params: unknown): ClosedModelRequest {
  const url = new URL(target.rpcUrl);
  return {
    method: 'POST',
    path: `${url.pathname}${url.search}`,
    headers: {
      'content-type': 'application/json',
      ...accessRequestHeaders(
        { generation: target.generation, extensions: target.extensions ?? [HITL_PROMPT_URI] },
        target.access,
      ),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  };
}

function method(generation: Generation, op: 'send' | 'get'): string {
  return METHOD_NAMES[generation][op]!;
}

/** GetTask of one task, again and again. */
export function getTaskRequests(target: OperationTarget, taskId: string): ClosedModelRequest[] {
  return [rpcRequest(target, method(target.generation, 'get'), { id: taskId })];
}

/** A blocking send of a new task each time (each request gets its own messageId). */
export function sendMessageRequests(
  target: OperationTarget,
  text = 'a2a-rig: closed-model send',
): ClosedModelRequest[] {
  const body = (messageId: string) => ({
    message: messageOnWire({ messageId, role: 'ROLE_USER', parts: [{ text }] }, target.generation),
  });
  const template = rpcRequest(target, method(target.generation, 'send'), body('template'));
  return [
    {
      ...template,
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: method(target.generation, 'send'),
          params: body(randomUUID()),
        }),
      }),
    },
  ];
}

/**
 * One valid answer per parked prompt, in order; run it with `amount: prompts.length`. Past the last
 * prompt it starts over, and the agent's 409s say so in the outcomes.
 */
export function answerRequests(target: OperationTarget, prompts: readonly ParkedPrompt[]): ClosedModelRequest[] {
  if (prompts.length === 0) throw new RangeError('answerRequests needs at least one parked prompt');
  const configuration = target.generation === '1.0' ? { returnImmediately: true } : { blocking: false };
  const sendMethod = method(target.generation, 'send');
  const bodyOf = (p: ParkedPrompt) => {
    const message = {
      ...answerMessage(p.taskId, p.promptId, p.payload),
      messageId: randomUUID(),
      role: 'ROLE_USER' as const,
    };
    return JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: sendMethod,
      params: { message: messageOnWire(message, target.generation), configuration },
    });
  };
  let next = 0;
  const template = rpcRequest(target, sendMethod, {});
  return [{ ...template, setupRequest: (request) => ({ ...request, body: bodyOf(prompts[next++ % prompts.length]) }) }];
}

/** accepted (a JSON-RPC result), conflict (409 / -32010), invalid (422 / -32011), or `error <code|HTTP status>`. */
export function classifyRpcResponse(status: number, body: string): string {
  let reply: { result?: unknown; error?: { code?: unknown } };
  try {
    reply = JSON.parse(body) as typeof reply;
  } catch {
    return `error HTTP ${status}`;
  }
  if (status === 200 && reply.result !== undefined) return 'accepted';
  const code = reply.error?.code;
  if (code === HITL_ALREADY_ANSWERED_OR_UNKNOWN) return 'conflict';
  if (code === HITL_RESPONSE_INVALID) return 'invalid';
  return typeof code === 'number' ? `error ${code}` : `error HTTP ${status}`;
}
