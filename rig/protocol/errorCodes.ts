// Error codes of JSON-RPC 2.0, A2A (both generations) and hitl-prompt/v1, with the HTTP status
// each maps to on the HTTP+JSON binding (and on JSON-RPC for the two hitl errors, per the spec).

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
]);

export function httpStatusFor(code: number): number {
  return httpStatusByCode.get(code) ?? 500;
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

  toJson(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}
