// The HTTP+JSON binding (v1.0): /message:send, /message:stream, /tasks/{id}, /tasks/{id}:cancel,
// /tasks/{id}:subscribe, /tasks. Errors carry their mapped HTTP status and `{error:{code,message,data}}`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonObject, StreamResponse } from '../protocol/a2aTypes.ts';
import { A2AError, JSONRPC_INTERNAL_ERROR, JSONRPC_INVALID_PARAMS, JSONRPC_METHOD_NOT_FOUND, JSONRPC_PARSE_ERROR, httpStatusFor } from '../protocol/errorCodes.ts';
import { UnsafeJsonError, parseUntrustedJson } from '../protocol/safeJson.ts';
import type { AgentOperations, CallContext } from './agentOperations.ts';
import { logUnexpected, safeDecode } from './httpGuards.ts';
import { fromQuery } from './requestParams.ts';

const TASK_ROUTE = /^\/tasks\/([^/:]+)(?::(cancel|subscribe))?$/;
/** ListTasks query parameters that are not strings, under both ProtoJSON names (ops.list reads either). */
const TYPED_LIST_QUERY = ['pageSize', 'page_size', 'historyLength', 'history_length', 'includeArtifacts', 'include_artifacts'];

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
  const error = err instanceof A2AError ? err : new A2AError(JSONRPC_INTERNAL_ERROR, `internal error: ${(err as Error).message}`);
  json(res, httpStatusFor(error.code), { error: error.toJson() });
}

function parseBody(body: string): unknown {
  if (body.trim() === '') return {};
  try {
    return parseUntrustedJson(body);
  } catch (err) {
    throw new A2AError(JSONRPC_PARSE_ERROR, err instanceof UnsafeJsonError ? err.message : 'body is not valid JSON');
  }
}

/** True when the path belongs to this binding (whatever the outcome). */
export function isRestPath(pathname: string): boolean {
  return pathname === '/message:send' || pathname === '/message:stream' || pathname === '/tasks' || TASK_ROUTE.test(pathname);
}

export async function handleRest(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  body: string,
  ops: AgentOperations,
  hitl: boolean,
): Promise<void> {
  // This binding exists only in v1.0, so its shapes are always v1.0.
  const ctx: CallContext = { generation: '1.0', hitl };
  const frame = (event: StreamResponse): JsonObject => event as unknown as JsonObject;
  const query = Object.fromEntries(url.searchParams);
  try {
    const method = req.method ?? 'GET';
    if (url.pathname === '/message:send' && method === 'POST') return json(res, 200, await ops.send(parseBody(body), ctx));
    if (url.pathname === '/message:stream' && method === 'POST') return ops.stream(parseBody(body), ctx, res, frame);
    if (url.pathname === '/tasks' && method === 'GET') {
      const typed = Object.fromEntries(TYPED_LIST_QUERY.map((name) => [name, fromQuery(query[name])]));
      return json(res, 200, await ops.list({ ...query, ...typed }, ctx));
    }
    const match = TASK_ROUTE.exec(url.pathname);
    if (match) {
      const id = safeDecode(match[1]);
      if (id === undefined) throw new A2AError(JSONRPC_INVALID_PARAMS, 'the task id in the path is not valid percent-encoded UTF-8');
      if (!match[2] && method === 'GET') {
        // Query parameters go by either ProtoJSON name too (ops.get reads both, refuses both at once).
        return json(res, 200, ops.get({ id, historyLength: fromQuery(query.historyLength), history_length: fromQuery(query.history_length) }, ctx));
      }
      if (match[2] === 'cancel' && method === 'POST') return json(res, 200, ops.cancel({ id }, ctx));
      if (match[2] === 'subscribe' && (method === 'POST' || method === 'GET')) return ops.subscribe({ id }, res, frame);
    }
    throw new A2AError(JSONRPC_METHOD_NOT_FOUND, `${method} ${url.pathname} is not a route of the HTTP+JSON binding`);
  } catch (err) {
    restError(res, err);
  }
}
