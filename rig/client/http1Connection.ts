// One keep-alive HTTP/1.1 connection of the rig's unary JSON-RPC client, with its own response
// parser. Why not undici for this path: the open model must start tens of thousands of exchanges a
// second on one core, and undici's request() spent most of each one on machinery the rig does not
// use (a Readable body per response, AbortSignal plumbing, its request queue and wasm parser
// hand-offs, a write split into head and body); `dispatch` with handlers still pays the queue and the
// parser hand-offs. A unary A2A exchange is one request written as one string and one response read
// into memory under a byte bound, which takes a small parser: the status line, headers (bounded in
// bytes), then a body framed by Content-Length, chunked transfer coding, or the connection's end.
// No pipelining: one exchange at a time per connection, so a hostile or slow reply can only ever
// fail its own exchange, and a POST is never replayed or attributed to another request.
// Anything the parser does not accept fails the exchange with an error whose `code` says why (see
// transportError.ts), and the connection is dropped; it is reused only after a complete response
// that allows it (HTTP/1.1 without `Connection: close`, or 1.0 with `keep-alive`).
import { connect, isIP, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { ByteTally } from './byteTally.ts';
import {
  contentLength,
  Http1Error,
  keepAliveTimeoutMs,
  readHeaderLines,
  statusCodeOf,
  type ResponseHeaders,
} from './http1ResponseHead.ts';

/** What an exchange hears from its connection; a handler may call the connection's `abort` at any time. */
export interface ResponseHandler {
  onHeaders(status: number, headers: ResponseHeaders): void;
  onData(chunk: Buffer): void;
  onComplete(): void;
  onError(err: Error): void;
  /** When present, every byte the connection reads for this exchange is added to its `received`. */
  readonly tally?: ByteTally;
}

export interface ConnectionLimits {
  /** https: TLS to the host (its name checked against the certificate, Node's defaults). */
  tls?: boolean;
  /** The user's CA or `--insecure` (credentials.ts `credentialTls`). */
  tlsOptions?: Pick<import('node:tls').ConnectionOptions, 'ca' | 'rejectUnauthorized'>;
  connectTimeoutMs: number;
  /** Bytes of a response's status line and headers (and of a chunked body's trailers). */
  maxHeaderBytes: number;
}

const enum State {
  Idle,
  Head,
  Fixed,
  ChunkSize,
  ChunkData,
  ChunkEnd,
  Trailers,
  UntilClose,
  /** The response is complete; `read` settles it once it knows whether bytes follow it. */
  Done,
}

const CRLF2 = Buffer.from('\r\n\r\n');

/** A chunk-size line: hex digits, optional extensions. Bounded so a stream of digits cannot grow forever. */
const MAX_CHUNK_LINE = 1024;

export class Http1Connection {
  readonly socket: Socket;
  /** performance.now() when it last became idle; the pool drops connections idle too long. */
  idleSince = 0;
  /** The server's `Keep-Alive: timeout=N` hint in ms, when it sent one. */
  serverKeepAliveMs: number | undefined;
  private handler: ResponseHandler | undefined;
  private state = State.Idle;
  private pending: Buffer | undefined;
  private remaining = 0;
  private keepAlive = false;
  private connected = false;
  private connectTimer: NodeJS.Timeout | undefined;
  private dead = false;

  constructor(
    port: number,
    host: string,
    private readonly limits: ConnectionLimits,
    /** Told once the connection can take another exchange, or is gone (`reusable` false). */
    private readonly owner: { released(connection: Http1Connection, reusable: boolean): void },
  ) {
    this.socket = limits.tls
      ? connectTls({ port, host, ...(isIP(host) ? {} : { servername: host }), ...limits.tlsOptions })
      : connect(port, host);
    this.socket.setNoDelay(true);
    this.connectTimer = setTimeout(
      () => this.fail(new Http1Error('UND_ERR_CONNECT_TIMEOUT', `no connection within ${limits.connectTimeoutMs} ms`)),
      limits.connectTimeoutMs,
    );
    this.socket.once(limits.tls ? 'secureConnect' : 'connect', () => {
      this.connected = true;
      clearTimeout(this.connectTimer);
    });
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('end', () => this.ended());
    this.socket.on('error', (err) => this.fail(err));
    this.socket.on('close', () => this.fail(new Http1Error('UND_ERR_SOCKET', 'the connection closed')));
  }

  get alive(): boolean {
    return !this.dead;
  }

  /** Writes a whole request (head and body in one string) and reads its response. */
  send(request: string, handler: ResponseHandler): void {
    this.handler = handler;
    this.state = State.Head;
    this.pending = undefined;
    this.socket.write(request);
  }

  /** Ends the exchange in flight (if any) with `err` and drops the connection. */
  abort(err: Error): void {
    this.fail(err);
  }

  private fail(err: Error): void {
    if (this.dead) return;
    this.dead = true;
    clearTimeout(this.connectTimer);
    this.socket.destroy();
    const handler = this.handler;
    this.handler = undefined;
    this.state = State.Idle;
    if (handler)
      handler.onError(
        this.connected || (err as { code?: string }).code ? err : new Http1Error('UND_ERR_SOCKET', err.message),
      );
    this.owner.released(this, false);
  }

  private ended(): void {
    // The server closed its side: a body read to the connection's end is complete; anything else
    // (an idle connection the server let go, or a reply cut short) drops the connection.
    if (this.state === State.UntilClose) return this.complete(false);
    this.fail(
      new Http1Error(
        'UND_ERR_SOCKET',
        this.state === State.Idle
          ? 'the server closed the idle connection'
          : 'the server closed the connection before the reply was complete',
      ),
    );
  }

  private complete(reusable: boolean): void {
    const handler = this.handler!;
    this.handler = undefined;
    this.state = State.Idle;
    this.pending = undefined;
    const clean = reusable && this.keepAlive;
    if (!clean) {
      this.dead = true;
      clearTimeout(this.connectTimer);
      this.socket.destroy();
    }
    handler.onComplete();
    this.owner.released(this, clean);
  }

  private read(chunk: Buffer): void {
    if (this.dead) return;
    if (this.state === State.Idle)
      return this.fail(new Http1Error('A2A_RIG_HTTP_PARSE', 'the server sent bytes no request asked for'));
    const tally = this.handler!.tally;
    if (tally) tally.received += chunk.length;
    let buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    try {
      while (buf.length > 0 && this.state !== State.Done && !this.dead) buf = this.step(buf);
    } catch (err) {
      return this.fail(err as Error);
    }
    // Bytes past the response were never asked for (no pipelining): the connection is out of step.
    if (this.state === State.Done) this.complete(buf.length === 0);
  }

  /** Consumes what it can of `buf` in the current state; returns the rest (kept for the next chunk if unchanged). */
  private step(buf: Buffer): Buffer {
    switch (this.state) {
      case State.Head: {
        const end = buf.indexOf(CRLF2);
        if (end < 0) {
          if (buf.length > this.limits.maxHeaderBytes)
            throw new Http1Error(
              'UND_ERR_HEADERS_OVERFLOW',
              `response headers exceed ${this.limits.maxHeaderBytes} bytes`,
            );
          this.pending = buf;
          return EMPTY;
        }
        if (end > this.limits.maxHeaderBytes)
          throw new Http1Error(
            'UND_ERR_HEADERS_OVERFLOW',
            `response headers exceed ${this.limits.maxHeaderBytes} bytes`,
          );
        this.head(buf.toString('latin1', 0, end));
        return buf.subarray(end + 4);
      }
      case State.Fixed:
      case State.ChunkData: {
        const take = Math.min(this.remaining, buf.length);
        this.remaining -= take;
        const data = take === buf.length ? buf : buf.subarray(0, take);
        this.handler!.onData(data);
        if (this.remaining === 0) this.state = this.state === State.Fixed ? State.Done : State.ChunkEnd;
        return take === buf.length ? EMPTY : buf.subarray(take);
      }
      case State.UntilClose:
        this.handler!.onData(buf);
        return EMPTY;
      case State.ChunkSize:
      case State.ChunkEnd:
      case State.Trailers: {
        const eol = buf.indexOf('\r\n');
        const limit = this.state === State.Trailers ? this.limits.maxHeaderBytes : MAX_CHUNK_LINE;
        if (eol < 0) {
          if (buf.length > limit)
            throw new Http1Error('A2A_RIG_HTTP_PARSE', `a chunked body's framing line exceeds ${limit} bytes`);
          this.pending = buf;
          return EMPTY;
        }
        const line = buf.toString('latin1', 0, eol);
        this.line(line);
        return buf.subarray(eol + 2);
      }
      default:
        throw new Http1Error('A2A_RIG_HTTP_PARSE', 'the server sent bytes no request asked for');
    }
  }

  private line(line: string): void {
    if (this.state === State.ChunkEnd) {
      if (line !== '') throw new Http1Error('A2A_RIG_HTTP_PARSE', 'a chunk is longer than its declared size');
      this.state = State.ChunkSize;
      return;
    }
    if (this.state === State.Trailers) {
      // Trailers are read and ignored; the empty line ends the body.
      if (line === '') this.state = State.Done;
      else this.remaining += line.length + 2;
      if (this.remaining > this.limits.maxHeaderBytes)
        throw new Http1Error(
          'UND_ERR_HEADERS_OVERFLOW',
          `response trailers exceed ${this.limits.maxHeaderBytes} bytes`,
        );
      return;
    }
    const hex = /^([0-9a-fA-F]{1,8})[ \t]*(?:;.*)?$/.exec(line);
    if (!hex)
      throw new Http1Error('A2A_RIG_HTTP_PARSE', `invalid chunk size line ${JSON.stringify(line.slice(0, 40))}`);
    const size = parseInt(hex[1], 16);
    if (size === 0) {
      this.state = State.Trailers;
      this.remaining = 0;
    } else {
      this.state = State.ChunkData;
      this.remaining = size;
    }
  }

  private head(text: string): void {
    const firstEnd = text.indexOf('\r\n');
    const statusLine = firstEnd < 0 ? text : text.slice(0, firstEnd);
    const code = statusCodeOf(statusLine);
    if (code < 0)
      throw new Http1Error(
        'A2A_RIG_HTTP_PARSE',
        `not an HTTP/1.x status line: ${JSON.stringify(statusLine.slice(0, 40))}`,
      );
    const headers = readHeaderLines(text, firstEnd < 0 ? text.length : firstEnd + 2);
    if (code < 200) {
      // 100 Continue and other interim replies precede the real one; 101 would switch protocols.
      if (code === 101)
        throw new Http1Error('A2A_RIG_HTTP_PARSE', 'the server switched protocols (101) on a JSON-RPC request');
      return;
    }
    const connection = headers.connection;
    const tokens = connection === undefined ? '' : String(connection).toLowerCase();
    const http11 = statusLine.charCodeAt(7) === 0x31;
    this.keepAlive = http11 ? !tokens.includes('close') : tokens.includes('keep-alive');
    const keepAliveHint = headers['keep-alive'];
    this.serverKeepAliveMs = keepAliveHint === undefined ? undefined : keepAliveTimeoutMs(String(keepAliveHint));
    const te = headers['transfer-encoding'];
    const cl = headers['content-length'];
    this.remaining = 0;
    if (code === 204 || code === 304) this.state = State.Fixed;
    else if (te !== undefined) {
      if (!/(?:^|,)\s*chunked\s*$/i.test(String(te)))
        throw new Http1Error(
          'A2A_RIG_HTTP_PARSE',
          `unsupported transfer-encoding ${JSON.stringify(String(te).slice(0, 40))}`,
        );
      this.state = State.ChunkSize;
    } else if (cl !== undefined) {
      this.state = State.Fixed;
      this.remaining = contentLength(cl);
    } else {
      this.state = State.UntilClose;
      this.keepAlive = false;
    }
    if (this.state === State.Fixed && this.remaining === 0) this.state = State.Done;
    this.handler!.onHeaders(code, headers);
  }
}

const EMPTY = Buffer.alloc(0);
