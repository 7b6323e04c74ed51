// The HTTP+JSON binding (v1.0): /message:send, /message:stream, /tasks/{id}, /tasks/{id}:cancel,
// /tasks/{id}:subscribe, /tasks, and the push-config routes (always refused: pushConfig.ts). Errors
// carry their mapped HTTP status and the AIP-193 body `{error:{code: <HTTP status>, status,
// message, details: [ErrorInfo]}}` (A2A 1.0 §11.6); a hitl-prompt/v1 error also keeps the
// contract's object in `error.data` (A2AError.toRestJson).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonObject, StreamResponse } from '../protocol/a2aTypes.ts';
import {
  A2AError,
  A2A_VERSION_NOT_SUPPORTED,
  JSONRPC_INVALID_PARAMS,
  JSONRPC_METHOD_NOT_FOUND,
  httpStatusFor,
  toA2AError,
} from '../protocol/errorCodes.ts';
import { HITL_PROMPT_URI } from '../protocol/hitlPrompt.ts';
import type { Activation, AgentOperations, CallContext } from './agentOperations.ts';
import { logUnexpected, parseJsonBody, safeDecode } from './httpGuards.ts';
import { requireJsonContentType } from './jsonContentType.ts';
import { PUSH_CONFIG_ROUTE, pushNotSupported } from './pushConfig.ts';
import { fromQuery } from './requestParams.ts';
import { sseSink } from './taskStream.ts';

const TASK_ROUTE = /^\/tasks\/([^/:]+)(?::(cancel|subscribe))?$/;
/** ListTasks query parameters that are not strings, under both ProtoJSON names (ops.list reads either). */
const TYPED_LIST_QUERY = [
  'pageSize',
  'page_size',
  'historyLength',
  'history_length',
  'includeArtifacts',
  'include_artifacts',
];

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

export function restError(res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (!(err instanceof A2AError)) logUnexpected('HTTP+JSON binding', err);
  const error = toA2AError(err);
  json(res, httpStatusFor(error.code), error.toRestJson(HITL_PROMPT_URI));
}

/** True when the path belongs to this binding (whatever the outcome). */
export function isRestPath(pathname: string): boolean {
  return (
    pathname === '/message:send' ||
    pathname === '/message:stream' ||
    pathname === '/tasks' ||
    TASK_ROUTE.test(pathname) ||
    PUSH_CONFIG_ROUTE.test(pathname)
  );
}

/** True for an empty version or 1.0: what a binding that exists only in A2A 1.0 (HTTP+JSON, gRPC) serves. */
export function asksForVersion1(value: string): boolean {
  return value === '' || value === '1.0' || value === '1';
}

/**
 * These paths are the A2A 1.0 binding, so a request without A2A-Version is read as 1.0 (there is
 * no 0.3 binding at these paths for "absent means 0.3" to pick; 0.3 REST lives under /v1/). Any
 * other version, 0.3 included, is refused before anything runs: answering a 0.3 client in 1.0
 * shapes would hand it objects it misreads. The header wins over the `A2A-Version` query parameter.
 */
function requireVersion1(req: IncomingMessage, url: URL): void {
  const raw = req.headers['a2a-version'] ?? url.searchParams.get('A2A-Version') ?? undefined;
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (value === undefined || asksForVersion1(value)) return;
  const hint = value === '0.3' || value === '0.3.0' ? '; the A2A 0.3 HTTP+JSON binding is under /v1/' : '';
  throw new A2AError(
    A2A_VERSION_NOT_SUPPORTED,
    `A2A-Version ${value.slice(0, 40)} is not supported by the HTTP+JSON binding at ${url.pathname}; use 1.0${hint}`,
  );
}

function notARoute(method: string, url: URL): A2AError {
  return new A2AError(JSONRPC_METHOD_NOT_FOUND, `${method} ${url.pathname} is not a route of the HTTP+JSON binding`);
}

/** /tasks/{id}, /tasks/{id}:cancel and /tasks/{id}:subscribe (`match` is TASK_ROUTE's). */
function taskRoute(
  res: ServerResponse,
  match: RegExpExecArray,
  method: string,
  url: URL,
  ops: AgentOperations,
  ctx: CallContext,
): void {
  const query = Object.fromEntries(url.searchParams);
  const id = safeDecode(match[1]);
  if (id === undefined)
    throw new A2AError(JSONRPC_INVALID_PARAMS, 'the task id in the path is not valid percent-encoded UTF-8');
  if (!match[2] && method === 'GET') {
    // Query parameters go by either ProtoJSON name too (ops.get reads both, refuses both at once).
    return json(
      res,
      200,
      ops.get(
        { id, historyLength: fromQuery(query.historyLength), history_length: fromQuery(query.history_length) },
        ctx,
      ),
    );
  }
  if (match[2] === 'cancel' && method === 'POST') return json(res, 200, ops.cancel({ id }, ctx));
  if (match[2] === 'subscribe' && (method === 'POST' || method === 'GET'))
    return ops.subscribe({ id }, sseSink(res, restFrame));
  throw notARoute(method, url);
}

/** An event as this binding's frame: the canonical (v1.0) shape as it is. */
function restFrame(event: StreamResponse): JsonObject {
  return event as unknown as JsonObject;
}

export async function handleRest(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  body: string,
  ops: AgentOperations,
  activation: Activation,
): Promise<void> {
  // This binding exists only in v1.0, so its shapes are always v1.0.
  const ctx: CallContext = { generation: '1.0', ...activation };
  try {
    const method = req.method ?? 'GET';
    requireVersion1(req, url);
    if (method === 'POST') requireJsonContentType(req.headers['content-type']);
    if (PUSH_CONFIG_ROUTE.test(url.pathname)) throw pushNotSupported();
    if (url.pathname === '/message:send' && method === 'POST') {
      const result = await ops.send(parseJsonBody(body), ctx);
      return json(res, ctx.successStatus ?? 200, result);
    }
    if (url.pathname === '/message:stream' && method === 'POST')
      return ops.stream(parseJsonBody(body), ctx, sseSink(res, restFrame));
    if (url.pathname === '/tasks' && method === 'GET') {
      const query = Object.fromEntries(url.searchParams);
      const typed = Object.fromEntries(TYPED_LIST_QUERY.map((name) => [name, fromQuery(query[name])]));
      return json(res, 200, await ops.list({ ...query, ...typed }, ctx));
    }
    const match = TASK_ROUTE.exec(url.pathname);
    if (match) return taskRoute(res, match, method, url, ops, ctx);
    throw notARoute(method, url);
  } catch (err) {
    restError(res, err);
  }
}
