// The bytes of an SSE stream exchange as the rig counts them (an ExchangeOptions tally): undici shows
// neither the request it writes nor the raw response head, so both are rebuilt from what it was given
// and what it parsed.
import type { IncomingHttpHeaders } from 'node:http';

/**
 * A stream request's bytes as undici writes them: request line, host, `connection: keep-alive`, the
 * rig's headers, content-length (none for a GET without a body), the body (undici's own framing, not
 * seen from here, is the same shape).
 */
export function streamRequestBytes(
  verb: string,
  path: string,
  host: string,
  headers: Record<string, string>,
  body: string,
): number {
  const bodyBytes = Buffer.byteLength(body);
  const length = verb === 'GET' && bodyBytes === 0 ? '' : `content-length: ${bodyBytes}\r\n`;
  let n = `${verb} ${path} HTTP/1.1\r\nhost: ${host}\r\nconnection: keep-alive\r\n${length}\r\n`.length + bodyBytes;
  for (const [name, value] of Object.entries(headers)) n += name.length + 2 + value.length + 2;
  return n;
}

/**
 * A response head's bytes from its parsed headers (undici gives no raw head): status line without
 * its reason phrase, one line per value.
 */
export function responseHeadBytes(headers: IncomingHttpHeaders): number {
  let n = 'HTTP/1.1 200 \r\n\r\n'.length;
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
      n += name.length + 2 + v.length + 2;
  }
  return n;
}
