// Failures below the A2A layer: the agent did not answer in time, answered too much, closed the
// connection, or sent bytes that are not the protocol. Each carries a one-line message naming the
// agent, what was bounded and by how much, so a run report can print it as it is.

export type TransportFailure =
  /** The whole exchange (or stream) outlived its overall bound. */
  | 'timeout'
  /** No response headers within the headers bound. */
  | 'headers-timeout'
  /** The body stalled (no bytes) longer than the idle bound. */
  | 'idle-timeout'
  /** The body (or stream, or frame) exceeded its byte bound. */
  | 'too-large'
  /** No connection (refused, unreachable, connect timeout, a failed TLS handshake): the rig's reach, not the agent. */
  | 'connect'
  /** The connection broke mid-exchange. */
  | 'socket'
  /** Bytes that are not what the protocol says (not JSON, not JSON-RPC, wrong id, unknown event shape). */
  | 'protocol'
  /** The caller aborted (its own signal), or the client was closed. */
  | 'aborted'
  /** HTTP 401 or 403: the agent refused the rig's credentials (or their absence), not a request's content. */
  | 'unauthorized';

export class TransportError extends Error {
  override name = 'TransportError';

  constructor(
    readonly failure: TransportFailure,
    message: string,
    /** HTTP status, when the failure came after the status line. */
    readonly httpStatus?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const UNDICI_FAILURES: Record<string, TransportFailure> = {
  UND_ERR_HEADERS_TIMEOUT: 'headers-timeout',
  UND_ERR_BODY_TIMEOUT: 'idle-timeout',
  UND_ERR_CONNECT_TIMEOUT: 'connect',
  UND_ERR_SOCKET: 'socket',
  UND_ERR_RES_EXCEEDED_MAX_SIZE: 'too-large',
  UND_ERR_HEADERS_OVERFLOW: 'too-large',
  HPE_HEADER_OVERFLOW: 'too-large',
  // The rig's own HTTP/1.1 parser (http1Connection.ts): a reply that is not HTTP as it reads it.
  A2A_RIG_HTTP_PARSE: 'protocol',
  UND_ERR_CLOSED: 'aborted',
  UND_ERR_DESTROYED: 'aborted',
  ECONNREFUSED: 'connect',
  ECONNRESET: 'socket',
  EHOSTUNREACH: 'connect',
  ENETUNREACH: 'connect',
  ENOTFOUND: 'connect',
  EPIPE: 'socket',
};

const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * A TLS failure is met while connecting, before the agent has been asked anything: the handshake
 * (EPROTO, ERR_SSL_*) or the certificate. Node files it under codes no other failure uses; without
 * this it read as "connection failed", the agent's doing. Undefined for anything else.
 */
function tlsFailure(code: string | undefined, detail: string): string | undefined {
  if (code && CERTIFICATE_CODES.has(code)) return `the TLS certificate was not accepted (${code}: ${detail})`;
  if (code !== 'EPROTO' && !code?.startsWith('ERR_SSL_')) return undefined;
  // OpenSSL's words for a server that answered the ClientHello with something that is not TLS.
  const plain = /wrong version number|packet length too long|http request/i.test(detail);
  return `TLS handshake failed (${code})${plain ? ' — the URL names https:, the server there speaks plain http' : ''}`;
}

/** The rig never got a connection to ask over (its reach), as opposed to the agent breaking one. */
export function isReachFailure(err: unknown): err is TransportError {
  return err instanceof TransportError && err.failure === 'connect';
}

export interface ErrorContext {
  /** What was being done, e.g. "POST http://127.0.0.1:8080/ (SendMessage)". */
  what: string;
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  overallMs: number;
  /** Which of the exchange's own bounds cut it, if one did. */
  cutBy: 'deadline' | 'headers' | 'idle' | undefined;
  callerAborted: boolean;
  httpStatus?: number;
}

type TimeoutFailure = 'timeout' | 'headers-timeout' | 'idle-timeout';

/** The failure each of the exchange's own bounds makes when it cuts. */
const CUT_FAILURES: Record<NonNullable<ErrorContext['cutBy']>, TimeoutFailure> = {
  deadline: 'timeout',
  headers: 'headers-timeout',
  idle: 'idle-timeout',
};

/** A timeout in words, with the bound that ran out (the exchange's own cut, or undici's). */
function timeoutMessage(failure: TimeoutFailure, ctx: ErrorContext): string {
  if (failure === 'timeout') return `${ctx.what} did not complete within ${ctx.overallMs} ms`;
  if (failure === 'headers-timeout') return `${ctx.what}: no response headers within ${ctx.headersTimeoutMs} ms`;
  return `${ctx.what}: the body stalled for more than ${ctx.idleTimeoutMs} ms`;
}

/** What undici or node said, in words; `code` is its error code (absent for a plain Error). */
function failureMessage(failure: TransportFailure, ctx: ErrorContext, code: string | undefined, detail: string) {
  if (failure === 'headers-timeout' || failure === 'idle-timeout') return timeoutMessage(failure, ctx);
  if (failure === 'connect') {
    const connectCause = code === 'UND_ERR_CONNECT_TIMEOUT' ? `${code}: ${detail}` : (code ?? detail);
    return `${ctx.what}: cannot connect (${connectCause})`;
  }
  if (failure === 'too-large' || failure === 'protocol') return `${ctx.what}: ${detail}`;
  const broke = failure === 'aborted' ? 'client closed' : 'connection failed';
  return `${ctx.what}: ${broke} (${code ?? 'error'}: ${detail})`;
}

/** Turns whatever undici, node or an abort threw into a TransportError with a clear message. */
export function toTransportError(err: unknown, ctx: ErrorContext): TransportError {
  if (err instanceof TransportError) return err;
  const cause = { cause: err };
  if (ctx.cutBy !== undefined) {
    const failure = CUT_FAILURES[ctx.cutBy];
    return new TransportError(failure, timeoutMessage(failure, ctx), ctx.httpStatus, cause);
  }
  if (ctx.callerAborted)
    return new TransportError('aborted', `${ctx.what} was aborted by the rig`, ctx.httpStatus, cause);
  const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
  const detail = (err as Error).message ?? String(err);
  const tls = tlsFailure(code, detail);
  if (tls) return new TransportError('connect', `${ctx.what}: cannot connect: ${tls}`, ctx.httpStatus, cause);
  const failure = (code && UNDICI_FAILURES[code]) || 'socket';
  return new TransportError(failure, failureMessage(failure, ctx, code, detail), ctx.httpStatus, cause);
}

/** HTTP 401 and 403: the agent turned the rig away at the door (credentials.ts, securitySchemes.ts). */
export function isRefusedEntry(status: number): boolean {
  return status === 401 || status === 403;
}

/** The error of an exchange answered 401/403, naming what the card asks for (`hint`). */
export function unauthorizedError(what: string, status: number, hint: string | undefined): TransportError {
  const why = hint ?? 'pass the credentials it needs with --header';
  return new TransportError('unauthorized', `HTTP ${status} from ${what}: the agent refused the rig; ${why}`, status);
}
