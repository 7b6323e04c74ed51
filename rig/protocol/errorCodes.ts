// Error codes of JSON-RPC 2.0, A2A (both generations), hitl-prompt/v1 and the acceptance-criteria
// extension, with the HTTP status each maps to on the HTTP+JSON binding (and on JSON-RPC for the
// two hitl errors, per the spec; acceptance errors travel with HTTP 200 on JSON-RPC).
import { ACCEPTANCE_HTTP_STATUS, ACCEPTANCE_URI } from './acceptance.ts';

export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_REQUEST = -32600;
export const JSONRPC_METHOD_NOT_FOUND = -32601;
export const JSONRPC_INVALID_PARAMS = -32602;
export const JSONRPC_INTERNAL_ERROR = -32603;

export const A2A_TASK_NOT_FOUND = -32001;
export const A2A_TASK_NOT_CANCELABLE = -32002;
export const A2A_PUSH_NOT_SUPPORTED = -32003;
export const A2A_UNSUPPORTED_OPERATION = -32004;
export const A2A_CONTENT_TYPE_NOT_SUPPORTED = -32005;
export const A2A_VERSION_NOT_SUPPORTED = -32009;

/** The reference agent's refusal of one more event stream (implementation-defined server error). */
export const A2A_TOO_MANY_STREAMS = -32029;

export const HITL_ALREADY_ANSWERED_OR_UNKNOWN = -32010;
export const HITL_RESPONSE_INVALID = -32011;

export const HITL_ALREADY_ANSWERED_OR_UNKNOWN_MESSAGE = 'hitl_already_answered_or_unknown';
export const HITL_RESPONSE_INVALID_MESSAGE = 'hitl_response_invalid';

const httpStatusByCode = new Map<number, number>([
  [JSONRPC_PARSE_ERROR, 400],
  [JSONRPC_INVALID_REQUEST, 400],
  [JSONRPC_METHOD_NOT_FOUND, 404],
  [JSONRPC_INVALID_PARAMS, 400],
  [JSONRPC_INTERNAL_ERROR, 500],
  [A2A_TASK_NOT_FOUND, 404],
  [A2A_TASK_NOT_CANCELABLE, 409],
  [A2A_PUSH_NOT_SUPPORTED, 400],
  [A2A_UNSUPPORTED_OPERATION, 400],
  [A2A_CONTENT_TYPE_NOT_SUPPORTED, 415],
  [A2A_VERSION_NOT_SUPPORTED, 400],
  [A2A_TOO_MANY_STREAMS, 429],
  [HITL_ALREADY_ANSWERED_OR_UNKNOWN, 409],
  [HITL_RESPONSE_INVALID, 422],
  ...Object.entries(ACCEPTANCE_HTTP_STATUS).map(([code, status]): [number, number] => [Number(code), status]),
]);

/** The acceptance extension's own error codes (its `error.data` is `{extension, ...}`). */
function isAcceptanceCode(code: number): boolean {
  return ACCEPTANCE_HTTP_STATUS[code] !== undefined;
}

export function httpStatusFor(code: number): number {
  return httpStatusByCode.get(code) ?? 500;
}

/** ErrorInfo `domain` of the A2A errors (A2A 1.0 §9.5, §11.6). */
export const A2A_ERROR_DOMAIN = 'a2a-protocol.org';
export const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';

/** The ErrorInfo `reason` of each A2A-specific error: its type in UPPER_SNAKE_CASE without "Error" (§9.5). */
const a2aReasonByCode = new Map<number, string>([
  [A2A_TASK_NOT_FOUND, 'TASK_NOT_FOUND'],
  [A2A_TASK_NOT_CANCELABLE, 'TASK_NOT_CANCELABLE'],
  [A2A_PUSH_NOT_SUPPORTED, 'PUSH_NOTIFICATION_NOT_SUPPORTED'],
  [A2A_UNSUPPORTED_OPERATION, 'UNSUPPORTED_OPERATION'],
  [A2A_CONTENT_TYPE_NOT_SUPPORTED, 'CONTENT_TYPE_NOT_SUPPORTED'],
  [A2A_VERSION_NOT_SUPPORTED, 'VERSION_NOT_SUPPORTED'],
]);

/**
 * The google.rpc.Code name AIP-193 puts in `error.status`: the spec's gRPC column (§5.4) for A2A
 * errors, the AIP-193 name of the HTTP status for the rest. The hitl errors are not A2A errors and
 * have no gRPC mapping; 409 reads ABORTED (a conflict with the task's state) and 422 INVALID_ARGUMENT.
 */
const statusNameByCode = new Map<number, string>([
  [JSONRPC_PARSE_ERROR, 'INVALID_ARGUMENT'],
  [JSONRPC_INVALID_REQUEST, 'INVALID_ARGUMENT'],
  [JSONRPC_METHOD_NOT_FOUND, 'NOT_FOUND'],
  [JSONRPC_INVALID_PARAMS, 'INVALID_ARGUMENT'],
  [JSONRPC_INTERNAL_ERROR, 'INTERNAL'],
  [A2A_TASK_NOT_FOUND, 'NOT_FOUND'],
  [A2A_TASK_NOT_CANCELABLE, 'FAILED_PRECONDITION'],
  [A2A_PUSH_NOT_SUPPORTED, 'UNIMPLEMENTED'],
  [A2A_UNSUPPORTED_OPERATION, 'UNIMPLEMENTED'],
  [A2A_CONTENT_TYPE_NOT_SUPPORTED, 'INVALID_ARGUMENT'],
  [A2A_VERSION_NOT_SUPPORTED, 'UNIMPLEMENTED'],
  [A2A_TOO_MANY_STREAMS, 'RESOURCE_EXHAUSTED'],
  [HITL_ALREADY_ANSWERED_OR_UNKNOWN, 'ABORTED'],
  [HITL_RESPONSE_INVALID, 'INVALID_ARGUMENT'],
]);

/** AIP-193 names of the HTTP statuses the acceptance errors use (422, like hitl's, reads INVALID_ARGUMENT). */
const statusNameByHttp = new Map<number, string>([
  [400, 'INVALID_ARGUMENT'],
  [403, 'PERMISSION_DENIED'],
  [409, 'ABORTED'],
  [422, 'INVALID_ARGUMENT'],
]);

export interface ErrorInfo {
  '@type': typeof ERROR_INFO_TYPE;
  reason: string;
  domain: string;
  metadata?: Record<string, string>;
}

/** The ErrorInfo of an A2A-specific error; undefined for JSON-RPC's own and the extension's errors. */
export function a2aErrorInfo(code: number): ErrorInfo | undefined {
  const reason = a2aReasonByCode.get(code);
  return reason === undefined ? undefined : { '@type': ERROR_INFO_TYPE, reason, domain: A2A_ERROR_DOMAIN };
}

/** The error code an ErrorInfo `reason` names: an A2A error's (§9.5) or a hitl-prompt/v1 error's. */
export function codeForReason(reason: string): number | undefined {
  for (const [code, name] of a2aReasonByCode) if (name === reason) return code;
  if (reason === HITL_RESPONSE_INVALID_MESSAGE.toUpperCase()) return HITL_RESPONSE_INVALID;
  if (reason === HITL_ALREADY_ANSWERED_OR_UNKNOWN_MESSAGE.toUpperCase()) return HITL_ALREADY_ANSWERED_OR_UNKNOWN;
  return undefined;
}

/** An error that travels to the caller as a JSON-RPC error object (or its HTTP+JSON mapping). */
export class A2AError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'A2AError';
  }

  /** The JSON-RPC error object as A2A 0.3 has it: `data` is whatever the error carries, or absent. */
  toJson(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /**
   * The JSON-RPC error object for an A2A 1.0 request: an A2A-specific error's `data` is an array
   * holding its ErrorInfo (§9.5 MUST), then the error's own context if it has any (MAY). JSON-RPC's
   * own errors and the extensions' errors keep their `data` as it is: the hitl contract
   * (examples/invalid-response-422.json) puts `{extension, prompt_id, validation_errors}` in
   * `error.data` as an object, and clients of the contract read it there; the acceptance errors
   * carry `{extension, reason}` the same way.
   */
  toJsonV1(): { code: number; message: string; data?: unknown } {
    const info = a2aErrorInfo(this.code);
    if (!info) return this.toJson();
    return { code: this.code, message: this.message, data: this.data === undefined ? [info] : [info, this.data] };
  }

  /**
   * The HTTP+JSON (AIP-193) body: `error.code` is the HTTP status, `status` its google.rpc.Code
   * name, `details[]` the ErrorInfo (§11.6). A hitl-prompt/v1 error keeps the contract's object
   * in `error.data` beside `details` (AIP-193 has no place for it and the contract names `data`),
   * and gets an ErrorInfo of the extension's own (reason = the contract's message in upper case,
   * domain = the extension's host) so a generic AIP-193 reader still finds a reason. The acceptance
   * extension's errors do the same with ACCEPTANCE_URI, whatever `extensionUri` the binding passes.
   */
  toRestJson(extensionUri: string): { error: Record<string, unknown> } {
    const info = errorInfoFor(this, extensionUri);
    const error: Record<string, unknown> = {
      code: httpStatusFor(this.code),
      status: statusNameFor(this.code),
      message: this.message,
      details: info ? [info] : [],
    };
    if (this.data !== undefined) error.data = this.data;
    return { error };
  }
}

/** The google.rpc.Code name of an error: AIP-193's `error.status`, and the gRPC binding's status code. */
export function statusNameFor(code: number): string {
  const httpStatus = httpStatusFor(code);
  return (
    statusNameByCode.get(code) ??
    (isAcceptanceCode(code) ? statusNameByHttp.get(httpStatus) : undefined) ??
    (httpStatus >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT')
  );
}

/**
 * The ErrorInfo an error carries on the HTTP+JSON and gRPC bindings: the A2A one for A2A errors;
 * for a hitl-prompt/v1 or acceptance error one of the extension's own (see toRestJson).
 */
export function errorInfoFor(error: A2AError, extensionUri: string): ErrorInfo | undefined {
  const acceptance = isAcceptanceCode(error.code);
  const hitl = error.code === HITL_ALREADY_ANSWERED_OR_UNKNOWN || error.code === HITL_RESPONSE_INVALID;
  if (!hitl && !acceptance) return a2aErrorInfo(error.code);
  const uri = acceptance ? ACCEPTANCE_URI : extensionUri;
  return {
    '@type': ERROR_INFO_TYPE,
    reason: error.message.toUpperCase(),
    domain: new URL(uri).host,
    metadata: { extension: uri },
  };
}

/** Any thrown value as the error a caller gets: an A2AError as it is, anything else -32603. */
export function toA2AError(err: unknown): A2AError {
  return err instanceof A2AError
    ? err
    : new A2AError(JSONRPC_INTERNAL_ERROR, `internal error: ${(err as Error).message}`);
}
