// How a raw HTTP/1.1 reply is framed, as far as an attack needs to read it: the head's status and
// headers (names lower-cased), and the data of a chunked body however far it got.

/** A reply's status and headers (names lower-cased, one value each). */
export interface Head {
  status: number;
  headers: Record<string, string>;
}

/** The status and headers from a head's text; undefined unless it starts with an HTTP/1.x status line. */
export function parseHead(text: string): Head | undefined {
  const lines = text.split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]);
  if (!m) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { status: Number(m[1]), headers };
}

export function isChunked(head: Head): boolean {
  return head.headers['transfer-encoding']?.toLowerCase().includes('chunked') ?? false;
}

/** The data of a chunked body as far as it goes (a cut-off last chunk gives what it has). */
export function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(eol + 2, Math.min(body.length, eol + 2 + size)));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
