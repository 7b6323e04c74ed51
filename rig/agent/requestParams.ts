// Strict readers for the scalar parameters of the A2A methods (historyLength, pageSize, pageToken,
// status, contextId, includeArtifacts). A value of the wrong type, out of range, or too large to be
// an exact integer is the caller's mistake: -32602 (400 on HTTP+JSON), never something SQLite or
// Array.slice is left to choke on (issue 9: a 23-digit pageToken reached SQLite's OFFSET as a float
// and came back as -32603 "datatype mismatch").
import type { TaskState } from '../protocol/a2aTypes.ts';
import { A2AError, JSONRPC_INVALID_PARAMS } from '../protocol/errorCodes.ts';
import { parseTaskState } from '../protocol/wireGenerations.ts';

/** Page tokens are offsets this agent issued: decimal, at most 15 digits (exact in a double and in SQLite). */
const PAGE_TOKEN = /^\d{1,15}$/;

function invalid(message: string): never {
  throw new A2AError(JSONRPC_INVALID_PARAMS, message);
}

/** Largest int32, the type of every count in A2A's proto (pageSize, historyLength). */
const INT32_MAX = 2_147_483_647;

/**
 * A non-negative int32, or undefined when absent (undefined/null). ProtoJSON writes int32 as a
 * number but accepts a decimal string too, so "10" is 10.
 */
export function optionalCount(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'string' && /^-?\d{1,12}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > INT32_MAX) {
    invalid(`${name} must be an integer in 0..${INT32_MAX}, got ${describe(value)}`);
  }
  return n;
}

/** pageSize: absent or 0 means `defaultSize`; above `maxSize` is clamped (agentLimits.ts sets both). */
export function pageSizeParam(value: unknown, defaultSize: number, maxSize: number): number {
  const size = optionalCount(value, 'pageSize');
  if (size === undefined || size === 0) return defaultSize;
  return Math.min(maxSize, size);
}

/** The offset a pageToken stands for; '' or absent is the first page. */
export function pageTokenParam(value: unknown): number {
  if (value === undefined || value === null || value === '') return 0;
  if (typeof value !== 'string' || !PAGE_TOKEN.test(value))
    invalid(`pageToken ${describe(value)} is not a token this agent issued`);
  return Number(value);
}

export function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') invalid(`${name} must be a string, got ${describe(value)}`);
  return value;
}

export function optionalBoolean(value: unknown, name: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') invalid(`${name} must be a boolean, got ${describe(value)}`);
  return value;
}

/** A task state in either generation's spelling, or undefined when absent. */
export function optionalTaskState(value: unknown, name: string): TaskState | undefined {
  if (value === undefined || value === null || value === '' || value === 'TASK_STATE_UNSPECIFIED') return undefined;
  const state = parseTaskState(value);
  if (!state) invalid(`${name} ${describe(value)} is not a task state`);
  return state;
}

/**
 * A query-string value as the JSON value it stands for: integers become numbers, true/false
 * booleans, anything else stays a string (so the strict readers above refuse it by type).
 */
export function fromQuery(value: string | undefined): unknown {
  if (value === undefined || value === '') return undefined;
  if (/^-?\d+$/.test(value)) return Number(value);
  if (value === 'true' || value === 'false') return value === 'true';
  return value;
}

// Computed once per name: the names are the callers' fixed field lists (never a request's keys,
// so the map stays as small as those lists), and this ran per field per request.
const protoNames = new Map<string, string>();

/** `historyLength` -> `history_length`: the proto field name a ProtoJSON field is declared with. */
function protoName(jsonName: string): string {
  let proto = protoNames.get(jsonName);
  if (proto === undefined) protoNames.set(jsonName, (proto = jsonName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)));
  return proto;
}

/**
 * `params` with each of `jsonNames` under its lowerCamelCase name. ProtoJSON parsers accept a
 * field under its JSON name or its original proto name (`historyLength` or `history_length`), and
 * the A2A 1.0 TCK's JSON-RPC client sends the latter; the 0.3 SDK's pydantic models accept both
 * too. Naming one field both ways is the caller's mistake, as it is for a ProtoJSON parser.
 * Only the listed fields are renamed: metadata and data parts keep their keys untouched.
 */
export function withJsonNames(params: Record<string, unknown>, jsonNames: readonly string[]): Record<string, unknown> {
  let out = params;
  for (const name of jsonNames) {
    const proto = protoName(name);
    if (proto === name || params[proto] === undefined) continue;
    if (params[name] !== undefined) invalid(`${name} is given twice, as "${name}" and as "${proto}"`);
    if (out === params) out = { ...params };
    out[name] = out[proto];
    delete out[proto];
  }
  return out;
}

function describe(value: unknown): string {
  const text =
    typeof value === 'string' ? JSON.stringify(value) : typeof value === 'number' ? String(value) : typeof value;
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
