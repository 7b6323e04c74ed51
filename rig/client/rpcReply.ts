// Reading an agent's reply without trusting it: the body is read up to a byte bound (declared
// Content-Length checked first), parsed with prototype-safe JSON, and held to the JSON-RPC 2.0
// response shape, including that it answers the request that was sent.
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import type { JsonObject } from '../protocol/a2aTypes.ts';
import { JsonRefusedError, UnsafeJsonError, parseAgentJson } from '../protocol/safeJson.ts';
import { TransportError } from './transportError.ts';

export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
  /** Not JSON-RPC, but some stacks put error details here (google.rpc style `details[]`). */
  details?: unknown;
}

export type RpcBody = { ok: true; result: unknown } | { ok: false; error: RpcErrorBody };

/** Comma-separated header values as a list (both repeated headers and lists are accepted). */
export function headerValues(headers: IncomingHttpHeaders, name: string): string[] {
  const raw = headers[name];
  if (raw === undefined) return [];
  return (Array.isArray(raw) ? raw.join(',') : raw)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Reads a body to its end, refusing more than `max` bytes (checked before and while reading);
 * `watch` sees each chunk.
 */
export async function readBounded(
  body: Dispatcher.ResponseData['body'],
  headers: IncomingHttpHeaders,
  max: number,
  what: string,
  watch: (chunks: AsyncIterable<Buffer>) => AsyncIterable<Buffer> = (chunks) => chunks,
): Promise<string> {
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    body.destroy();
    throw new TransportError(
      'too-large',
      `${what}: response declares ${declared} bytes; the rig accepts at most ${max}`,
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of watch(body as AsyncIterable<Buffer>)) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      throw new TransportError('too-large', `${what}: response body exceeded ${max} bytes; the rig cut it off`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Checks the JSON-RPC 2.0 response shape and that it answers request `id`. */
/** `document` names the text in a refusal of its shape ("the agent's reply nests 100000 levels deep..."). */
export function readRpcResponse(
  text: string,
  id: number,
  what: string,
  status: number,
  document = "the agent's reply",
): RpcBody {
  let body: unknown;
  try {
    body = parseAgentJson(text, document);
  } catch (err) {
    if (err instanceof JsonRefusedError) throw new TransportError('too-large', `${what}: ${err.message}`, status);
    const reason = err instanceof UnsafeJsonError ? err.message : 'not JSON';
    throw new TransportError(
      'protocol',
      `${what}: HTTP ${status} reply is not JSON-RPC (${reason}): ${JSON.stringify(text.slice(0, 120))}`,
      status,
    );
  }
  if (!isObject(body) || body.jsonrpc !== '2.0') {
    throw new TransportError('protocol', `${what}: HTTP ${status} reply is not a JSON-RPC 2.0 response object`, status);
  }
  const hasResult = 'result' in body;
  const hasError = 'error' in body;
  if (hasResult === hasError)
    throw new TransportError('protocol', `${what}: reply must carry exactly one of "result" and "error"`, status);
  if (hasError) {
    const e = body.error;
    if (!isObject(e) || typeof e.code !== 'number' || typeof e.message !== 'string') {
      throw new TransportError(
        'protocol',
        `${what}: reply "error" must have a numeric "code" and a string "message"`,
        status,
      );
    }
    // An error may carry a null id (e.g. when the agent could not read the request's).
    if (body.id !== id && body.id !== null)
      throw new TransportError(
        'protocol',
        `${what}: reply id ${JSON.stringify(body.id)} does not answer request id ${id}`,
        status,
      );
    return {
      ok: false,
      error: {
        code: e.code,
        message: e.message,
        ...(e.data !== undefined ? { data: e.data } : {}),
        ...(e.details !== undefined ? { details: e.details } : {}),
      },
    };
  }
  if (body.id !== id)
    throw new TransportError(
      'protocol',
      `${what}: reply id ${JSON.stringify(body.id)} does not answer request id ${id}`,
      status,
    );
  return { ok: true, result: body.result };
}

/**
 * Whether a 401/403 carries the agent's own JSON-RPC error for request `id` (an extension's refusal,
 * e.g. acceptance-criteria's -32043 decider not entitled, which REST maps to 403): that is an answer
 * to judge. Anything else at that status is the rig turned away at the door (transportError.ts).
 */
export function isRpcErrorReply(text: string, id: number): boolean {
  try {
    return !readRpcResponse(text, id, '', 0).ok;
  } catch {
    return false;
  }
}
