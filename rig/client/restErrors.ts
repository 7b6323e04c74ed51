// An HTTP+JSON error reply read back as the error the rest of the client knows (a JSON-RPC error
// object), so that every check reads one shape whatever the binding. The code comes from, in order:
// the google.rpc.ErrorInfo `reason` of an AIP-193 body (A2A 1.0 §11.6: `{error: {code, status,
// message, details[]}}`), the 0.3 REST body's `code` or error type name, and last the HTTP status
// as the hitl-prompt/v1 spec maps it (409 already answered or unknown, 422 invalid) and A2A does
// (404 task not found, 415 content type...). `data` is the body's `error.data` when the body is
// AIP-193, else the whole body: a 422 that puts `validation_errors` at the top of its body is read
// with them, one that has only `{"detail": …}` without.
import type { JsonObject } from '../protocol/a2aTypes.ts';
import { ACCEPTANCE_ERROR_MESSAGES } from '../protocol/acceptance.ts';
import {
  A2A_CONTENT_TYPE_NOT_SUPPORTED,
  A2A_TASK_NOT_CANCELABLE,
  A2A_TASK_NOT_FOUND,
  A2A_TOO_MANY_STREAMS,
  A2A_UNSUPPORTED_OPERATION,
  HITL_ALREADY_ANSWERED_OR_UNKNOWN,
  HITL_RESPONSE_INVALID,
  JSONRPC_INTERNAL_ERROR,
  JSONRPC_INVALID_PARAMS,
  JSONRPC_INVALID_REQUEST,
  JSONRPC_METHOD_NOT_FOUND,
  JSONRPC_PARSE_ERROR,
  codeForReason,
} from '../protocol/errorCodes.ts';
import type { RpcErrorBody } from './rpcReply.ts';

/** ErrorInfo reasons neither A2A (§9.5) nor hitl-prompt/v1 define (codeForReason): JSON-RPC's, acceptance's. */
const OTHER_REASONS = new Map<string, number>([
  ['PARSE_ERROR', JSONRPC_PARSE_ERROR],
  ['INVALID_REQUEST', JSONRPC_INVALID_REQUEST],
  ['METHOD_NOT_FOUND', JSONRPC_METHOD_NOT_FOUND],
  ['INVALID_PARAMS', JSONRPC_INVALID_PARAMS],
  ['INTERNAL_ERROR', JSONRPC_INTERNAL_ERROR],
  ...Object.entries(ACCEPTANCE_ERROR_MESSAGES).map(([code, m]): [string, number] => [m.toUpperCase(), Number(code)]),
]);

/** 0.3 REST error type names (restV03Binding.ts writes them; a2a-java and the 0.3 TCK read them). */
const V03_TYPES = new Map<string, number>([
  ['TaskNotFoundError', A2A_TASK_NOT_FOUND],
  ['HitlAlreadyAnsweredOrUnknownError', HITL_ALREADY_ANSWERED_OR_UNKNOWN],
  ['HitlResponseInvalidError', HITL_RESPONSE_INVALID],
  ['InvalidParamsError', JSONRPC_INVALID_PARAMS],
  ['UnsupportedOperationError', A2A_UNSUPPORTED_OPERATION],
]);

/** What an HTTP status means when the body names no error (hitl-prompt/v1 spec, A2A 1.0 §11.6). */
const BY_STATUS = new Map<number, number>([
  [400, JSONRPC_INVALID_PARAMS],
  [404, A2A_TASK_NOT_FOUND],
  [409, HITL_ALREADY_ANSWERED_OR_UNKNOWN],
  [415, A2A_CONTENT_TYPE_NOT_SUPPORTED],
  [422, HITL_RESPONSE_INVALID],
  [429, A2A_TOO_MANY_STREAMS],
  [500, JSONRPC_INTERNAL_ERROR],
  [501, A2A_UNSUPPORTED_OPERATION],
]);

/** A bare 409 to a cancel is A2A's TaskNotCancelable (a2a-sdk 0.3 answers it so); to anything else hitl's. */
const CANCEL_METHODS = new Set(['CancelTask', 'tasks/cancel']);

function codeOfStatus(status: number, method: string | undefined): number | undefined {
  if (status === 409 && method !== undefined && CANCEL_METHODS.has(method)) return A2A_TASK_NOT_CANCELABLE;
  return BY_STATUS.get(status);
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function reasonCode(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const d of details.slice(0, 16)) {
    if (!isObject(d) || typeof d.reason !== 'string') continue;
    const code = codeForReason(d.reason) ?? OTHER_REASONS.get(d.reason);
    if (code !== undefined) return code;
  }
  return undefined;
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/**
 * The error of a non-2xx HTTP+JSON reply to `method` (the client's method name, either generation),
 * or undefined when its status names no A2A error and its body none either (401, 403, 502...: not an
 * answer of the binding; the caller reports the status).
 */
export function restErrorOf(status: number, body: unknown, method?: string): RpcErrorBody | undefined {
  const aip = isObject(body) && isObject(body.error) ? body.error : undefined;
  return aip ? aipErrorOf(aip, status, method) : v03ErrorOf(body, status, method);
}

/** A v1.0 (AIP-193) error body: the code from its ErrorInfo reason, else from the status. */
function aipErrorOf(aip: JsonObject, status: number, method: string | undefined): RpcErrorBody | undefined {
  const code = reasonCode(aip.details) ?? codeOfStatus(status, method);
  if (code === undefined) return undefined;
  return {
    code,
    message: text(aip.message) ?? text(aip.status) ?? `HTTP ${status}`,
    ...(aip.data !== undefined ? { data: aip.data } : {}),
    ...(aip.details !== undefined ? { details: aip.details } : {}),
  };
}

/** A v0.3 error body (or none): the code it carries, else its error type's, else the status's. */
function v03ErrorOf(body: unknown, status: number, method: string | undefined): RpcErrorBody | undefined {
  const fields = isObject(body) ? body : {};
  const typed = typeof fields.error === 'string' ? V03_TYPES.get(fields.error) : undefined;
  const code = (typeof fields.code === 'number' ? fields.code : undefined) ?? typed ?? codeOfStatus(status, method);
  if (code === undefined) return undefined;
  const message = text(fields.message) ?? text(fields.detail) ?? text(fields.error) ?? `HTTP ${status}`;
  const data = isObject(fields.data) ? fields.data : body;
  return { code, message, ...(data !== undefined ? { data } : {}) };
}
