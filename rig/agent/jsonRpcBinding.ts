// JSON-RPC 2.0 at POST /, both generations: v1.0 method names when the request carries
// `A2A-Version: 1.0`, v0.3 names when it carries none. hitl errors keep their HTTP status (409/422)
// as the spec asks; other errors travel with 200, as JSON-RPC over HTTP does.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Generation, JsonObject, Operation, StreamResponse } from '../protocol/a2aTypes.ts';
import { METHOD_NAMES, VERSION_HEADER } from '../protocol/a2aTypes.ts';
import {
  A2AError,
  A2A_VERSION_NOT_SUPPORTED,
  HITL_ALREADY_ANSWERED_OR_UNKNOWN,
  HITL_RESPONSE_INVALID,
  JSONRPC_INVALID_REQUEST,
  JSONRPC_METHOD_NOT_FOUND,
  JSONRPC_PARSE_ERROR,
  httpStatusFor,
  toA2AError,
} from '../protocol/errorCodes.ts';
import { UnsafeJsonError, parseUntrustedJson } from '../protocol/safeJson.ts';
import { streamEventOnWire } from '../protocol/wireGenerations.ts';
import type { Activation, AgentOperations, CallContext } from './agentOperations.ts';
import { logUnexpected } from './httpGuards.ts';
import { requireJsonContentType } from './jsonContentType.ts';
import { PUSH_CONFIG_METHODS, pushNotSupported } from './pushConfig.ts';
import { sseSink } from './taskStream.ts';

type RpcId = string | number | null;

/** The generation a request speaks, from its A2A-Version header (absent means 0.3). */
export function generationOf(req: IncomingMessage, fallbackQuery?: string | null): Generation {
  const raw = req.headers[VERSION_HEADER] ?? fallbackQuery ?? undefined;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') return '0.3';
  const trimmed = value.trim();
  if (trimmed === '1.0' || trimmed === '1') return '1.0';
  if (trimmed === '0.3' || trimmed === '0.3.0') return '0.3';
  throw new A2AError(A2A_VERSION_NOT_SUPPORTED, `A2A-Version ${trimmed} is not supported; use 1.0 or omit it for 0.3`);
}

/** A generation's method names to their operations, built once: a request pays one lookup. */
function operationsOf(generation: Generation): ReadonlyMap<string, Operation> {
  const named = Object.entries(METHOD_NAMES[generation]).filter(([, name]) => name !== undefined);
  return new Map(named.map(([op, name]) => [name!, op as Operation]));
}
const OPERATIONS: Record<Generation, ReadonlyMap<string, Operation>> = {
  '0.3': operationsOf('0.3'),
  '1.0': operationsOf('1.0'),
};

function operationOf(method: string, generation: Generation): Operation {
  const op = OPERATIONS[generation].get(method);
  if (op !== undefined) return op;
  if (PUSH_CONFIG_METHODS[generation].includes(method)) throw pushNotSupported();
  const other: Generation = generation === '1.0' ? '0.3' : '1.0';
  if (Object.values(METHOD_NAMES[other]).includes(method) || PUSH_CONFIG_METHODS[other].includes(method)) {
    const hint = other === '1.0' ? 'send A2A-Version: 1.0 to use it' : 'omit A2A-Version (or send 0.3) to use it';
    throw new A2AError(JSONRPC_METHOD_NOT_FOUND, `method ${method} belongs to A2A ${other}; ${hint}`);
  }
  throw new A2AError(JSONRPC_METHOD_NOT_FOUND, `method ${method} not found`);
}

function reply(res: ServerResponse, id: RpcId, body: { result: unknown } | { error: unknown }, status = 200): void {
  const text = JSON.stringify({ jsonrpc: '2.0', id, ...body });
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Renders an error in the shape of the request's generation: A2A 1.0 puts an ErrorInfo in
 * `error.data` (§9.5); a 0.3 request keeps 0.3's shape (no ErrorInfo rule then, and 0.3 clients
 * read `data` as the error's own context). An error met before the generation is known (a bad
 * A2A-Version, a body that is not JSON) renders as 1.0: the A2A-Version header is a 1.0 device.
 *
 * `inStream`: the error as the only frame of an event stream (a refused 0.3 resubscription, see below).
 */
export function replyError(
  res: ServerResponse,
  id: RpcId,
  err: unknown,
  generation?: Generation,
  inStream = false,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (!(err instanceof A2AError)) logUnexpected('JSON-RPC binding', err);
  const error = toA2AError(err);
  if (inStream) {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const wireError = generation === '0.3' ? error.toJson() : error.toJsonV1();
    res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id, error: wireError })}\n\n`);
    return;
  }
  const status =
    error.code === HITL_ALREADY_ANSWERED_OR_UNKNOWN || error.code === HITL_RESPONSE_INVALID
      ? httpStatusFor(error.code)
      : 200;
  reply(res, id, { error: generation === '0.3' ? error.toJson() : error.toJsonV1() }, status);
}

/** An event stream's frames for request `id`. Made only for streams, and anonymous: under tsx's
 * keepNames a named function made per request costs a defineProperty (commitHold.ts). */
function streamFrames(id: RpcId, generation: Generation): (event: StreamResponse) => JsonObject {
  return (event) => ({ jsonrpc: '2.0', id, result: streamEventOnWire(event, generation) });
}

/** The request as a JSON object; throws the error to answer with id null (none is read yet). */
function requestOf(req: IncomingMessage, body: string): JsonObject {
  requireJsonContentType(req.headers['content-type']);
  let request: unknown;
  try {
    request = parseUntrustedJson(body);
  } catch (err) {
    throw new A2AError(JSONRPC_PARSE_ERROR, err instanceof UnsafeJsonError ? err.message : 'parse error');
  }
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    throw new A2AError(
      JSONRPC_INVALID_REQUEST,
      Array.isArray(request) ? 'batch requests are not supported' : 'request must be a JSON-RPC 2.0 object',
    );
  }
  return request as JsonObject;
}

/**
 * The request's id. JSON-RPC 2.0 §4: an id is a string, a number or null. Any other is an Invalid
 * Request, answered with id null and without running the method.
 */
function rpcIdOf(r: JsonObject): RpcId {
  if (typeof r.id === 'string' || typeof r.id === 'number') return r.id;
  if (r.id !== undefined && r.id !== null)
    throw new A2AError(JSONRPC_INVALID_REQUEST, 'request "id" must be a string, a number or null');
  return null;
}

/**
 * A2A 1.0 §3.2.6: the version MAY come as the `A2A-Version` request parameter instead of the header.
 * Parsed only when there is a query: the common `POST /` pays no URL construction.
 */
function versionParameter(req: IncomingMessage): string | null {
  return req.url !== undefined && req.url.includes('?')
    ? new URL(req.url, 'http://agent').searchParams.get('A2A-Version')
    : null;
}

export async function handleJsonRpc(
  req: IncomingMessage,
  res: ServerResponse,
  body: string,
  ops: AgentOperations,
  activation: Activation,
): Promise<void> {
  let id: RpcId = null;
  let generation: Generation | undefined;
  try {
    const r = requestOf(req, body);
    id = rpcIdOf(r);
    if (r.jsonrpc !== '2.0' || typeof r.method !== 'string') {
      throw new A2AError(JSONRPC_INVALID_REQUEST, 'request needs "jsonrpc": "2.0" and a string "method"');
    }
    generation = generationOf(req, versionParameter(req));
    const ctx: CallContext = { generation, ...activation };
    const op = operationOf(r.method, ctx.generation);
    switch (op) {
      case 'send': {
        const result = await ops.send(r.params, ctx);
        return reply(res, id, { result }, ctx.successStatus);
      }
      case 'stream':
        return ops.stream(r.params, ctx, sseSink(res, streamFrames(id, ctx.generation)));
      case 'subscribe':
        // A refused 0.3 tasks/resubscribe is an event stream whose one frame is the JSON-RPC error:
        // 0.3's SendStreamingMessageResponse is a success or a JSONRPCErrorResponse per frame, and
        // that is what 0.3 clients read as a typed error. The 0.3 TCK's client cannot read a 4xx
        // (its error path reads an unread streaming body) and refuses a 200 JSON reply.
        try {
          return ops.subscribe(r.params, sseSink(res, streamFrames(id, ctx.generation)));
        } catch (err) {
          return replyError(res, id, err, ctx.generation, ctx.generation === '0.3');
        }
      case 'get':
        return reply(res, id, { result: ops.get(r.params, ctx) });
      case 'cancel':
        return reply(res, id, { result: ops.cancel(r.params, ctx) });
      case 'list':
        return reply(res, id, { result: await ops.list(r.params, ctx) });
    }
  } catch (err) {
    replyError(res, id, err, generation);
  }
}
