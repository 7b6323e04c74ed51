// What became of an acceptance decision (or of a creating send the agent refused), classified from
// the JSON-RPC reply. The extension's errors carry `error.data = {extension: ACCEPTANCE_URI,
// reason?, ...}` as a plain object in both generations (A2A 1.0 wraps only its own errors in
// google.rpc.ErrorInfo; this project keeps extension errors' data an object, as the hitl ones).
// A foreign 1.0 agent may still render it the SDK way, `data: [ErrorInfo{metadata: {extension}},
// ...]`: that is read too and noted in `problems`. On JSON-RPC the HTTP status is 200 like any A2A
// error; a 409/403/400 with an unknown code still classifies by the status, with a problem noted.
import type { Message, Task, TaskState } from '../protocol/a2aTypes.ts';
import {
  ACCEPTANCE_CRITERIA_INVALID,
  ACCEPTANCE_CRITERIA_NOT_MET,
  ACCEPTANCE_DECISION_CONFLICT,
  ACCEPTANCE_DECISION_INVALID,
  ACCEPTANCE_DECISION_UNAUTHORIZED,
  ACCEPTANCE_ERROR_MESSAGES,
  ACCEPTANCE_URI,
} from '../protocol/acceptance.ts';
import { sendResultFromWire } from '../protocol/wireInbound.ts';
import type { ExchangeFacts } from './answerOutcome.ts';
import type { RpcReply } from './transportTypes.ts';
import type { RpcErrorBody } from './rpcReply.ts';
import type { TransportError } from './transportError.ts';

export type AcceptanceErrorKind = 'criteria-invalid' | 'not-met' | 'conflict' | 'unauthorized' | 'invalid' | 'other';

export interface AcceptanceErrorFacts {
  kind: AcceptanceErrorKind;
  code: number;
  message: string;
  /** `data.extension` (or an ErrorInfo's `metadata.extension`); undefined when absent. */
  extension: string | undefined;
  /** `data.reason` when it is a string (why the criteria or the decision were refused). */
  reason: string | undefined;
  data: unknown;
  /** Departures from the extension's error shape that did not change the kind. */
  problems: string[];
}

/** `data.reason` is kept up to this many characters: an agent's text must not flood a report. */
export const MAX_ERROR_REASON_CHARS = 1_000;

const KIND_BY_CODE = new Map<number, AcceptanceErrorKind>([
  [ACCEPTANCE_CRITERIA_INVALID, 'criteria-invalid'],
  [ACCEPTANCE_CRITERIA_NOT_MET, 'not-met'],
  [ACCEPTANCE_DECISION_CONFLICT, 'conflict'],
  [ACCEPTANCE_DECISION_UNAUTHORIZED, 'unauthorized'],
  [ACCEPTANCE_DECISION_INVALID, 'invalid'],
]);
const KIND_BY_STATUS = new Map<number, AcceptanceErrorKind>([
  [409, 'conflict'],
  [403, 'unauthorized'],
]);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The object holding `extension`: `data` itself, or (SDK rendering) an entry of a `data` array or its metadata. */
function extensionHolder(data: unknown): { holder: Record<string, unknown>; where: string } | undefined {
  if (isObject(data)) return { holder: data, where: 'error.data' };
  if (!Array.isArray(data)) return undefined;
  for (const [i, entry] of data.slice(0, 16).entries()) {
    if (!isObject(entry)) continue;
    if (typeof entry.extension === 'string') return { holder: entry, where: `error.data[${i}]` };
    if (isObject(entry.metadata) && typeof entry.metadata.extension === 'string')
      return { holder: entry.metadata, where: `error.data[${i}].metadata` };
  }
  return undefined;
}

/** Reads a JSON-RPC error as one of the extension's, or 'other'. */
/** What error.data is when no extension entry was found in it, for the problem line. */
function describeData(data: unknown): string {
  if (data === undefined) return 'absent';
  return Array.isArray(data) ? 'an array without an extension entry' : 'not an object';
}

export function readAcceptanceError(error: RpcErrorBody, httpStatus?: number): AcceptanceErrorFacts {
  const problems: string[] = [];
  let kind = KIND_BY_CODE.get(error.code);
  const byStatus = httpStatus === undefined ? undefined : KIND_BY_STATUS.get(httpStatus);
  if (!kind && byStatus) {
    kind = byStatus;
    problems.push(`HTTP ${httpStatus} carried JSON-RPC code ${error.code}, not one of the extension's`);
  }
  const found = extensionHolder(error.data);
  const extension = typeof found?.holder.extension === 'string' ? found.holder.extension : undefined;
  const rawReason = found?.holder.reason;
  const reason =
    typeof rawReason !== 'string'
      ? undefined
      : rawReason.length > MAX_ERROR_REASON_CHARS
        ? `${rawReason.slice(0, MAX_ERROR_REASON_CHARS)}… (${rawReason.length} characters)`
        : rawReason;
  if (kind && kind !== 'other') {
    const expected = ACCEPTANCE_ERROR_MESSAGES[error.code];
    if (expected !== undefined && error.message !== expected)
      problems.push(`error message is "${error.message.slice(0, 80)}", not "${expected}"`);
    if (!found) problems.push(`error.data is ${describeData(error.data)}; the extension puts {extension, ...} there`);
    else {
      if (found.where !== 'error.data') problems.push(`extension is at ${found.where}, not at error.data.extension`);
      if (extension !== ACCEPTANCE_URI)
        problems.push(`error data names extension ${JSON.stringify(extension)?.slice(0, 100)}, not ${ACCEPTANCE_URI}`);
    }
  }
  return {
    kind: kind ?? 'other',
    code: error.code,
    message: error.message,
    extension,
    reason,
    data: error.data,
    problems,
  };
}

export type DecisionKind = 'applied' | 'conflict' | 'unauthorized' | 'invalid' | 'error';

export interface DecisionOutcome extends ExchangeFacts {
  kind: DecisionKind;
  /** applied: the task the agent returned, in its state after the decision. */
  task: Task | undefined;
  /** applied: `task.status.state`. */
  state: TaskState | undefined;
  /** applied with a Message instead of a Task (odd, listed in `problems`). */
  message: Message | undefined;
  /** A JSON-RPC error, read as the extension's (also for kind 'error': e.g. 'criteria-invalid' or 'other'). */
  error: AcceptanceErrorFacts | undefined;
  /** error without a JSON-RPC reply: why, in one line. */
  reason: string | undefined;
  problems: string[];
}

function blank(startedAt: number, latencyMs: number): DecisionOutcome {
  return {
    kind: 'error',
    httpStatus: undefined,
    rpcCode: undefined,
    rpcMessage: undefined,
    startedAt,
    latencyMs,
    echoedExtensions: [],
    task: undefined,
    state: undefined,
    message: undefined,
    error: undefined,
    reason: undefined,
    problems: [],
  };
}

/** A decision that never got a JSON-RPC reply. */
export function decisionFailed(error: TransportError, startedAt: number): DecisionOutcome {
  return { ...blank(startedAt, performance.now() - startedAt), httpStatus: error.httpStatus, reason: error.message };
}

const DECISION_KINDS: ReadonlySet<string> = new Set(['conflict', 'unauthorized', 'invalid']);

export function classifyDecision(reply: RpcReply): DecisionOutcome {
  const { meta } = reply;
  const outcome: DecisionOutcome = {
    ...blank(meta.startedAt, meta.latencyMs),
    httpStatus: meta.httpStatus,
    echoedExtensions: meta.echoedExtensions,
  };
  if (reply.ok) {
    outcome.kind = 'applied';
    try {
      const result = sendResultFromWire(reply.result);
      if ('task' in result) {
        outcome.task = result.task;
        outcome.state = result.task.status.state;
      } else {
        outcome.message = result.message;
        outcome.problems.push('the agent answered the decision with a Message, not the Task');
      }
    } catch (err) {
      outcome.problems.push(`the reply is not a Task or Message: ${(err as Error).message}`);
    }
    if (!meta.echoedExtensions.includes(ACCEPTANCE_URI))
      outcome.problems.push(`the reply does not echo ${ACCEPTANCE_URI}`);
    return outcome;
  }
  const facts = readAcceptanceError(reply.error, meta.httpStatus);
  outcome.rpcCode = reply.error.code;
  outcome.rpcMessage = reply.error.message;
  outcome.error = facts;
  outcome.problems.push(...facts.problems);
  if (DECISION_KINDS.has(facts.kind)) outcome.kind = facts.kind as DecisionKind;
  else outcome.reason = `JSON-RPC error ${reply.error.code}: ${reply.error.message.slice(0, 200)}`;
  return outcome;
}
