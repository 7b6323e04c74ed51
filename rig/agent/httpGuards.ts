// What stands between raw sockets and the agent's handlers: request targets and Host headers parsed
// without throwing, bodies decoded as strict UTF-8, the header/request timeouts, and the last-resort
// answers (a 4xx/5xx on a socket, a line on stderr) for anything that slips through. One hostile
// request must never take the process down (issue 9: a `//[` upgrade once did).
import type { Duplex } from 'node:stream';
import { A2AError, JSONRPC_PARSE_ERROR } from '../protocol/errorCodes.ts';
import { UnsafeJsonError, parseUntrustedJson } from '../protocol/safeJson.ts';

/** Time a client gets to send its complete request headers (Slowloris bound). */
export const DEFAULT_HEADERS_TIMEOUT_MS = 5_000;
/** Time a client gets to send its whole request, headers and body. Responses (SSE streams,
 * blocking sends) are not bounded by it: node stops the clock once the request is complete. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;

/** How often node enforces both timeouts: a tenth of the shorter one, within 50..1,000 ms, so a
 * timeout fires at most ~10 % late (node's default, 30 s, made a 5 s bound into 35 s). */
export function connectionsCheckingIntervalFor(headersTimeoutMs: number, requestTimeoutMs: number): number {
  return Math.min(1_000, Math.max(50, Math.floor(Math.min(headersTimeoutMs, requestTimeoutMs) / 10)));
}

/**
 * The request target as a URL against the agent's own origin, or undefined when it is not a path
 * this agent could serve (`//[`, `http://[::1/events`, `*`, `events`, ...). Only origin-form
 * targets (starting with one `/`) are accepted, so the target can never name another host.
 */
export function targetUrl(target: string | undefined, base: string): URL | undefined {
  if (target === undefined || !target.startsWith('/') || target.startsWith('//')) return undefined;
  try {
    return new URL(target, base);
  } catch {
    return undefined;
  }
}

/** `http://<host>` when the Host header is a plain host[:port] that parses back to itself. */
export function originFromHost(host: string | undefined): string | undefined {
  if (!host || host.length > 255 || !/^[A-Za-z0-9.\-:[\]]+$/.test(host)) return undefined;
  try {
    const url = new URL(`http://${host}`);
    const given = host.toLowerCase();
    // The URL parser drops the default port; a Host of `name:80` is still that host.
    return url.host === given || `${url.host}:80` === given ? `http://${given}` : undefined;
  } catch {
    return undefined;
  }
}

/** `decodeURIComponent` that answers undefined instead of throwing a URIError. */
export function safeDecode(component: string): string | undefined {
  try {
    return decodeURIComponent(component);
  } catch {
    return undefined;
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body as text; bytes that are not UTF-8 are a parse error (JSON text is UTF-8, RFC 8259). */
export function decodeBody(body: Buffer): string {
  try {
    return strictUtf8.decode(body);
  } catch {
    throw new A2AError(JSONRPC_PARSE_ERROR, 'request body is not valid UTF-8');
  }
}

/** Writes a minimal HTTP response on a raw (upgrade) socket and closes it; never throws. */
export function refuseSocket(socket: Duplex, status: 400 | 404 | 500, reason: string): void {
  const text = { 400: 'Bad Request', 404: 'Not Found', 500: 'Internal Server Error' }[status];
  const body = reason.replace(/[^\x20-\x7e]/g, '?').slice(0, 512);
  try {
    if (socket.writable) {
      socket.end(
        `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\n` +
          `Content-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
    } else socket.destroy();
  } catch {
    socket.destroy();
  }
}

/** One stderr line for a throw nothing else caught; the request fails, the agent goes on. */
export function logUnexpected(where: string, err: unknown): void {
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  // Control characters (newlines included) are blanked so a thrown message cannot forge log lines.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const oneLine = message.replace(/[\x00-\x1f\x7f]/g, ' ').slice(0, 500);
  process.stderr.write(`a2a-rig agent: unexpected error in ${where} (answered, agent continues): ${oneLine}\n`);
}

/** An HTTP+JSON request body as JSON (an empty body is `{}`); anything else is -32700 (400). */
export function parseJsonBody(body: string): unknown {
  if (body.trim() === '') return {};
  try {
    return parseUntrustedJson(body);
  } catch (err) {
    throw new A2AError(JSONRPC_PARSE_ERROR, err instanceof UnsafeJsonError ? err.message : 'body is not valid JSON');
  }
}
