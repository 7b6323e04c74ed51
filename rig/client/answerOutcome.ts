// What became of an answer (a hitl-prompt/v1 response envelope sent to a parked task), classified as
// the spec's §Acceptance and rejection maps it: accepted (200 / JSON-RPC success), conflict (409 /
// -32010, unknown or already answered prompt), invalid (422 / -32011 with validation_errors), or
// error (anything else, transport failures included). Half-right replies (the right code with the
// wrong HTTP status, a 422 without validation_errors...) keep their class and list the deviation in
// `problems`, so conformance checks can be as strict as they choose.
import type { Message, Task } from '../protocol/a2aTypes.ts';
import {
  HITL_ALREADY_ANSWERED_OR_UNKNOWN,
  HITL_ALREADY_ANSWERED_OR_UNKNOWN_MESSAGE,
  HITL_RESPONSE_INVALID,
  HITL_RESPONSE_INVALID_MESSAGE,
} from '../protocol/errorCodes.ts';
import type { ValidationErrorEntry } from '../protocol/hitlPrompt.ts';
import { sendResultFromWire } from '../protocol/wireInbound.ts';
import type { RpcReply } from './transportTypes.ts';
import { exampleEntry, rejectionContractBreaches } from './rejectionContract.ts';
import type { TransportError } from './transportError.ts';

export type AnswerKind = 'accepted' | 'conflict' | 'invalid' | 'error';

/** What every timed message to a task (an answer, a decision) reports of its exchange. */
export interface ExchangeFacts {
  /** Undefined when no HTTP status arrived (connect failure, headers timeout). */
  httpStatus: number | undefined;
  /** The JSON-RPC error code; undefined on success or transport failure. */
  rpcCode: number | undefined;
  rpcMessage: string | undefined;
  /** `performance.now()` just before the message was sent. */
  startedAt: number;
  /** Monotonic time from sending to the whole reply (or to the failure). */
  latencyMs: number;
  echoedExtensions: string[];
}

export interface AnswerOutcome extends ExchangeFacts {
  kind: AnswerKind;
  /** accepted: the task (or message) the agent returned. */
  result: { task: Task } | { message: Message } | undefined;
  /**
   * invalid: the agent's validation_errors entries shaped as the example's {path, keyword, message}
   * (empty if it sent none, which `problems` then says; other entries are a `contract` breach).
   */
  validationErrors: ValidationErrorEntry[];
  /** invalid: how many entries error.data.validation_errors holds, whatever their shape (the MUST is the array). */
  validationErrorCount: number;
  /** error: why, in one line. */
  reason: string | undefined;
  /** Deviations from the spec's mapping that did not change the class. */
  problems: string[];
  /** invalid: how the error departs from the contract's examples/invalid-response-422.json (empty: it matches). */
  contract: string[];
}

function blank(startedAt: number, latencyMs: number): AnswerOutcome {
  return {
    kind: 'error',
    httpStatus: undefined,
    rpcCode: undefined,
    rpcMessage: undefined,
    startedAt,
    latencyMs,
    echoedExtensions: [],
    result: undefined,
    validationErrors: [],
    validationErrorCount: 0,
    reason: undefined,
    problems: [],
    contract: [],
  };
}

/** An answer that never got a JSON-RPC reply. */
export function answerFailed(error: TransportError, startedAt: number): AnswerOutcome {
  return { ...blank(startedAt, performance.now() - startedAt), httpStatus: error.httpStatus, reason: error.message };
}

/** `promptId`: the prompt the answer was for, which a 422's error.data must name. */
export function classifyAnswer(reply: RpcReply, promptId?: string): AnswerOutcome {
  const { meta } = reply;
  const outcome: AnswerOutcome = {
    ...blank(meta.startedAt, meta.latencyMs),
    httpStatus: meta.httpStatus,
    echoedExtensions: meta.echoedExtensions,
  };
  const status = meta.httpStatus;
  if (reply.ok) {
    outcome.kind = 'accepted';
    if (status !== 200) outcome.problems.push(`accepted with HTTP ${status}; the spec expects 200`);
    try {
      outcome.result = sendResultFromWire(reply.result);
    } catch (err) {
      outcome.problems.push(`the accepted reply is not a Task or Message: ${(err as Error).message}`);
    }
    return outcome;
  }
  const { code, message, data } = reply.error;
  outcome.rpcCode = code;
  outcome.rpcMessage = message;
  if (code === HITL_ALREADY_ANSWERED_OR_UNKNOWN || status === 409) {
    outcome.kind = 'conflict';
    if (code !== HITL_ALREADY_ANSWERED_OR_UNKNOWN)
      outcome.problems.push(
        `HTTP 409 carried JSON-RPC code ${code}; the spec maps it to ${HITL_ALREADY_ANSWERED_OR_UNKNOWN}`,
      );
    else if (status !== 409) outcome.problems.push(`JSON-RPC ${code} came with HTTP ${status}; the spec asks for 409`);
    if (message !== HITL_ALREADY_ANSWERED_OR_UNKNOWN_MESSAGE)
      outcome.problems.push(`error message is "${message}", not "${HITL_ALREADY_ANSWERED_OR_UNKNOWN_MESSAGE}"`);
    return outcome;
  }
  if (code === HITL_RESPONSE_INVALID || status === 422) {
    outcome.kind = 'invalid';
    if (code !== HITL_RESPONSE_INVALID)
      outcome.problems.push(`HTTP 422 carried JSON-RPC code ${code}; the spec maps it to ${HITL_RESPONSE_INVALID}`);
    else if (status !== 422) outcome.problems.push(`JSON-RPC ${code} came with HTTP ${status}; the spec asks for 422`);
    if (message !== HITL_RESPONSE_INVALID_MESSAGE)
      outcome.problems.push(`error message is "${message}", not "${HITL_RESPONSE_INVALID_MESSAGE}"`);
    outcome.contract = rejectionContractBreaches(reply.error, promptId);
    const entries =
      typeof data === 'object' && data !== null ? (data as Record<string, unknown>).validation_errors : undefined;
    const misplaced = outcome.contract.find((c) => c.startsWith('validation_errors is at'));
    if (!Array.isArray(entries) || entries.length === 0)
      outcome.problems.push(`the rejection has no data.validation_errors entries${misplaced ? ` (${misplaced})` : ''}`);
    else {
      outcome.validationErrorCount = entries.length;
      outcome.validationErrors = entries.filter(exampleEntry) as ValidationErrorEntry[];
    }
    return outcome;
  }
  outcome.reason = `JSON-RPC error ${code}: ${message}`;
  return outcome;
}
