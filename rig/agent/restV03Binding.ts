// The HTTP+JSON binding of A2A 0.3, under /v1/ (the google.api.http paths of the 0.3 a2a.proto):
// POST /v1/message:send, POST /v1/message:stream (SSE), GET /v1/tasks/{id}, POST /v1/tasks/{id}:cancel,
// GET|POST /v1/tasks/{id}:subscribe (SSE), GET /v1/card, and the push-config routes, which answer
// PushNotificationNotSupported (this agent has no push). 0.3 has no ListTasks, so GET /v1/tasks is
// not a route. Bodies are 0.3 ProtoJSON (protoJsonV03Reader/Writer.ts); the operations run on canonical shapes.
//
// Errors: an HTTP status (the same mapping as the 1.0 binding) and the body 0.3 REST servers and
// the 0.3 TCK use, `{"error": "<A2A error type>", "message": ...}` (a2a-java writes exactly these
// two; the TCK reads the type name to recover the A2A code), plus `code` (the JSON-RPC/A2A code)
// and, when there is one, `data`: the hitl-prompt/v1 rejections keep the contract's fields there
// ({extension, prompt_id, validation_errors} with code -32010/-32011 and the contract's message).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonObject, Message, StreamResponse, Task } from '../protocol/a2aTypes.ts';
import {
  A2AError,
  A2A_PUSH_NOT_SUPPORTED,
  JSONRPC_INVALID_PARAMS,
  JSONRPC_METHOD_NOT_FOUND,
  httpStatusFor,
  toA2AError,
} from '../protocol/errorCodes.ts';
import { sendRequestFromProtoJsonV03 } from '../protocol/protoJsonV03Reader.ts';
import {
  sendResponseToProtoJsonV03,
  streamResponseToProtoJsonV03,
  taskToProtoJsonV03,
} from '../protocol/protoJsonV03Writer.ts';
import type { Activation, AgentOperations, CallContext } from './agentOperations.ts';
import { logUnexpected, parseJsonBody, safeDecode } from './httpGuards.ts';
import { fromQuery } from './requestParams.ts';
import { sseSink } from './taskStream.ts';

const PREFIX = '/v1/';
const TASK_ROUTE = /^\/v1\/tasks\/([^/:]+)(?::(cancel|subscribe))?$/;
const PUSH_ROUTE = /^\/v1\/tasks\/[^/:]+\/pushNotificationConfigs(?:\/[^/]+)?$/;

/** The error type names of 0.3 (the spec's and the SDKs' class names), by code. */
const ERROR_TYPES = new Map<number, string>([
  [-32700, 'JSONParseError'],
  [-32600, 'InvalidRequestError'],
  [-32601, 'MethodNotFoundError'],
  [-32602, 'InvalidParamsError'],
  [-32603, 'InternalError'],
  [-32001, 'TaskNotFoundError'],
  [-32002, 'TaskNotCancelableError'],
  [-32003, 'PushNotificationNotSupportedError'],
  [-32004, 'UnsupportedOperationError'],
  [-32005, 'ContentTypeNotSupportedError'],
  [-32006, 'InvalidAgentResponseError'],
  [-32007, 'AuthenticatedExtendedCardNotConfiguredError'],
  [-32009, 'VersionNotSupportedError'],
  [-32010, 'HitlAlreadyAnsweredOrUnknownError'],
  [-32011, 'HitlResponseInvalidError'],
  [-32029, 'TooManyStreamsError'],
  // The acceptance-criteria extension's errors (rig/protocol/acceptance.ts).
  [-32040, 'AcceptanceCriteriaInvalidError'],
  [-32041, 'AcceptanceCriteriaNotMetError'],
  [-32042, 'AcceptanceDecisionConflictError'],
  [-32043, 'AcceptanceDecisionUnauthorizedError'],
  [-32044, 'AcceptanceDecisionInvalidError'],
]);

/** The body of a 0.3 REST error: `{error: <type>, code, message, data?}`. */
export function restV03ErrorBody(error: A2AError): JsonObject {
  return {
    error: ERROR_TYPES.get(error.code) ?? 'A2AError',
    code: error.code,
    message: error.message,
    ...(error.data !== undefined ? { data: error.data } : {}),
  };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

export function restV03Error(
  res: ServerResponse,
  err: unknown,
  status?: number,
  headers?: Record<string, string>,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (!(err instanceof A2AError)) logUnexpected('HTTP+JSON 0.3 binding', err);
  const error = toA2AError(err);
  json(res, status ?? httpStatusFor(error.code), restV03ErrorBody(error), headers);
}

/** A converter's TypeError is the caller's malformed request: -32602, HTTP 400. */
function readSend(body: string): JsonObject {
  try {
    return sendRequestFromProtoJsonV03(parseJsonBody(body));
  } catch (err) {
    if (err instanceof TypeError) throw new A2AError(JSONRPC_INVALID_PARAMS, err.message);
    throw err;
  }
}

/** historyLength from the query, under its JSON or proto name (not both). */
function historyLengthQuery(url: URL): unknown {
  const camel = url.searchParams.getAll('historyLength');
  const snake = url.searchParams.getAll('history_length');
  if (camel.length + snake.length > 1)
    throw new A2AError(JSONRPC_INVALID_PARAMS, 'historyLength is given more than once');
  const value = camel[0] ?? snake[0];
  // An empty value is not "absent" here: `?historyLength=` is a malformed request.
  if (value === '')
    throw new A2AError(JSONRPC_INVALID_PARAMS, 'historyLength must be an integer in 0..2147483647, got ""');
  return fromQuery(value);
}

/** True when the path belongs to this binding (whatever the outcome). */
export function isRestV03Path(pathname: string): boolean {
  return pathname.startsWith(PREFIX);
}

export interface RestV03Options {
  /** The 0.3 agent card, for GET /v1/card. */
  card: () => JsonObject;
}

export async function handleRestV03(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  body: string,
  ops: AgentOperations,
  activation: Activation,
  options: RestV03Options,
): Promise<void> {
  // The operations run on canonical (v1.0) shapes; this binding converts at its edge, so 0.3's
  // `blocking` arrives as `returnImmediately` and every result leaves as 0.3 ProtoJSON.
  const ctx: CallContext = { generation: '1.0', ...activation };
  const frame = (event: StreamResponse): JsonObject => streamResponseToProtoJsonV03(event);
  const method = req.method ?? 'GET';
  const notAllowed = (allow: string) =>
    restV03Error(
      res,
      new A2AError(JSONRPC_METHOD_NOT_FOUND, `${method} ${url.pathname} is not allowed; use ${allow}`),
      405,
      { Allow: allow },
    );
  try {
    const path = url.pathname;
    if (path === '/v1/message:send') {
      if (method !== 'POST') return notAllowed('POST');
      const result = (await ops.send(readSend(body), ctx)) as { task: Task } | { message: Message };
      return json(res, ctx.successStatus ?? 200, sendResponseToProtoJsonV03(result));
    }
    if (path === '/v1/message:stream') {
      if (method !== 'POST') return notAllowed('POST');
      return ops.stream(readSend(body), ctx, sseSink(res, frame));
    }
    if (path === '/v1/card') {
      if (method !== 'GET') return notAllowed('GET');
      return json(res, 200, options.card());
    }
    if (PUSH_ROUTE.test(path)) {
      throw new A2AError(A2A_PUSH_NOT_SUPPORTED, 'push notifications are not supported by this agent');
    }
    const match = TASK_ROUTE.exec(path);
    if (match) {
      const id = safeDecode(match[1]);
      if (id === undefined)
        throw new A2AError(JSONRPC_INVALID_PARAMS, 'the task id in the path is not valid percent-encoded UTF-8');
      if (!match[2]) {
        if (method !== 'GET') return notAllowed('GET');
        return json(
          res,
          200,
          taskToProtoJsonV03(ops.get({ id, historyLength: historyLengthQuery(url) }, ctx) as unknown as Task),
        );
      }
      if (match[2] === 'cancel') {
        if (method !== 'POST') return notAllowed('POST');
        return json(res, 200, taskToProtoJsonV03(ops.cancel({ id }, ctx) as unknown as Task));
      }
      // The proto says GET; some 0.3 clients (the TCK's among them) POST.
      if (method !== 'GET' && method !== 'POST') return notAllowed('GET, POST');
      return ops.subscribe({ id }, sseSink(res, frame));
    }
    throw new A2AError(JSONRPC_METHOD_NOT_FOUND, `${method} ${path} is not a route of the A2A 0.3 HTTP+JSON binding`);
  } catch (err) {
    restV03Error(res, err);
  }
}
