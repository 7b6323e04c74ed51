// One URL the JSON-RPC transport calls (jsonRpcTransport.ts), with what a call to it reuses: the
// origin's connection pool, the request line's target and Host header, how messages name a call by
// method, and the head of a POST up to its Content-Length value. A client calls a handful of URLs
// and methods with the same header lines nearly every time, so a call adds only its length and body.
import type { Http1Pool } from './http1Pool.ts';

export class RpcEndpoint {
  private readonly whats = new Map<string, string>();
  private postHead: { lines: string; head: string } | undefined;

  constructor(
    readonly pool: Http1Pool,
    /** The request line's target and the Host header, ready to put in a request. */
    readonly path: string,
    readonly host: string,
    /** How messages name the URL (the target, and the proxy hop when there is one). */
    private readonly shown: string,
  ) {}

  /** `POST <url as messages name it> (<method>)`, built once per method. */
  what(method: string): string {
    let what = this.whats.get(method);
    if (what === undefined) {
      what = `POST ${this.shown} (${method})`;
      if (this.whats.size >= 64) this.whats.clear();
      this.whats.set(method, what);
    }
    return what;
  }

  /** The whole request: `verb`, these header `lines` (each ending in CRLF) and the JSON `body`, if any. */
  request(verb: 'GET' | 'POST', lines: string, body: string | undefined, bodyBytes: number): string {
    if (verb === 'POST' && body !== undefined) return `${this.postHeadOf(lines)}${bodyBytes}\r\n\r\n${body}`;
    const content = body === undefined ? '' : `content-type: application/json\r\ncontent-length: ${bodyBytes}\r\n`;
    return `${this.headOf(verb, lines)}${content}\r\n${body ?? ''}`;
  }

  private headOf(verb: string, lines: string): string {
    return `${verb} ${this.path} HTTP/1.1\r\nhost: ${this.host}\r\naccept: application/json\r\n${lines}`;
  }

  /** The head of a POST with a JSON body up to the Content-Length value, kept for the last header lines. */
  private postHeadOf(lines: string): string {
    if (this.postHead?.lines === lines) return this.postHead.head;
    const head = `${this.headOf('POST', lines)}content-type: application/json\r\ncontent-length: `;
    this.postHead = { lines, head };
    return head;
  }
}
