// The header block of an HTTP/1.1 response as the rig's unary connection reads it
// (http1Connection.ts): the status line, header lines into a plain object, the one Content-Length a
// body may have, the server's keep-alive hint, and the error the connection raises, with a code
// transportError.ts maps to a failure kind.

export type ResponseHeaders = Record<string, string | string[]>;

/** An error the connection raises itself, with a code transportError.ts maps to a failure kind. */
export class Http1Error extends Error {
  constructor(
    readonly code: 'UND_ERR_SOCKET' | 'UND_ERR_CONNECT_TIMEOUT' | 'UND_ERR_HEADERS_OVERFLOW' | 'A2A_RIG_HTTP_PARSE',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The status code of an `HTTP/1.0` or `HTTP/1.1` status line (`HTTP/1.x NNN`, then a space and a
 * reason or nothing), else -1. Read by character: no match object per response.
 */
export function statusCodeOf(line: string): number {
  if (!line.startsWith('HTTP/1.') || (line.length > 12 && line.charCodeAt(12) !== 0x20)) return -1;
  const minor = line.charCodeAt(7);
  if ((minor !== 0x30 && minor !== 0x31) || line.charCodeAt(8) !== 0x20 || line.length < 12) return -1;
  let code = 0;
  for (let i = 9; i < 12; i++) {
    const digit = line.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    code = code * 10 + digit;
  }
  return code;
}

/** The last `Keep-Alive` header value read and its timeout in ms: servers send the same one each time. */
let lastKeepAlive: { value: string; ms: number | undefined } = { value: '', ms: undefined };

export function keepAliveTimeoutMs(value: string): number | undefined {
  if (value !== lastKeepAlive.value) {
    const hint = /timeout=(\d+)/i.exec(value);
    lastKeepAlive = { value, ms: hint ? Number(hint[1]) * 1000 : undefined };
  }
  return lastKeepAlive.ms;
}
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The header lines of a head's `text` from offset `at` (just past the status line) to its end. */
export function readHeaderLines(text: string, at: number): ResponseHeaders {
  // A plain object (fast properties for the handful of headers a reply has); a header named
  // `__proto__` is refused so no name can reach the prototype.
  const headers: ResponseHeaders = {};
  while (at < text.length) {
    let eol = text.indexOf('\r\n', at);
    if (eol < 0) eol = text.length;
    const colon = text.indexOf(':', at);
    if (colon <= at || colon > eol)
      throw new Http1Error(
        'A2A_RIG_HTTP_PARSE',
        `invalid header line ${JSON.stringify(text.slice(at, Math.min(eol, at + 40)))}`,
      );
    const name = text.slice(at, colon).toLowerCase();
    if (!TOKEN.test(name) || name === '__proto__')
      throw new Http1Error('A2A_RIG_HTTP_PARSE', `invalid header name ${JSON.stringify(name.slice(0, 40))}`);
    const value = text.slice(colon + 1, eol).trim();
    const had = headers[name];
    headers[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
    at = eol + 2;
  }
  return headers;
}

const DIGITS = /^\d{1,15}$/;

/** One Content-Length, or the same one repeated (`5, 5` or twice); anything else is refused. */
export function contentLength(cl: string | string[]): number {
  if (typeof cl === 'string' && DIGITS.test(cl)) return Number(cl);
  const values = new Set((Array.isArray(cl) ? cl.join(',') : cl).split(',').map((v) => v.trim()));
  const only = values.size === 1 ? [...values][0] : '';
  if (!DIGITS.test(only))
    throw new Http1Error('A2A_RIG_HTTP_PARSE', `invalid content-length ${JSON.stringify(String(cl).slice(0, 40))}`);
  return Number(only);
}
