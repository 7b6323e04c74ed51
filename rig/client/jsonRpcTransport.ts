// JSON-RPC 2.0 over HTTP. Unary exchanges (calls, the agent card) go through the rig's own
// keep-alive HTTP/1.1 pool per origin (http1Connection.ts says why: a few microseconds per exchange,
// so the open model keeps its schedule); SSE streams, long-lived and few, through an undici Agent. Each
// call carries its A2A headers (`A2A-Version: 1.0` for v1.0, none for v0.3; the activation header
// `A2A-Extensions`, or v0.3's `X-A2A-Extensions`) and reads the extension echo back. Every exchange
// is bounded: connect, headers, body idle and overall time, and response bytes; SSE streams by
// their own time, silence and byte bounds. A hostile agent can make a call fail, never hang it or
// fill memory.
import type { IncomingHttpHeaders } from 'node:http';
import { Agent } from 'undici';
import { EXTENSIONS_HEADER_V03, EXTENSIONS_HEADER_V1, VERSION_HEADER, type Generation } from '../protocol/a2aTypes.ts';
import { JsonRefusedError, parseAgentJson } from '../protocol/safeJson.ts';
import type { ByteTally } from './byteTally.ts';
import { ExchangeBounds } from './exchangeBounds.ts';
import { Http1Pool } from './http1Pool.ts';
import { headerValues, readBounded, readRpcResponse, type RpcBody } from './rpcReply.ts';
import { readSseEvents, type SseEvent } from './sseReader.ts';
import { TransportError, toTransportError } from './transportError.ts';
import { runUnary, type Abortable } from './unaryExchange.ts';

export interface TransportLimits {
  connectTimeoutMs: number;
  /** Until the status line and headers arrive. A blocking send gets headers only once the task settles. */
  headersTimeoutMs: number;
  /** Longest silence between two body chunks of a unary reply. */
  bodyIdleTimeoutMs: number;
  /** Whole unary exchange, from sending to the last body byte. */
  requestTimeoutMs: number;
  /** Bytes of one unary reply (JSON-RPC response, agent card). */
  maxResponseBytes: number;
  /** Whole life of one SSE stream. */
  streamTimeoutMs: number;
  /** Longest silence on an SSE stream (the reference agent sends a heartbeat every 15 s). */
  streamIdleTimeoutMs: number;
  /** Bytes one SSE stream may carry in all. */
  maxStreamBytes: number;
  /** Characters of one SSE event. */
  maxEventChars: number;
  /** Bytes of a unary reply's status line and headers (Node's and undici's default). */
  maxHeaderBytes: number;
}

export const DEFAULT_TRANSPORT_LIMITS: Readonly<TransportLimits> = Object.freeze({
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 30_000,
  bodyIdleTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxResponseBytes: 8 * 1024 * 1024,
  streamTimeoutMs: 120_000,
  streamIdleTimeoutMs: 45_000,
  maxStreamBytes: 64 * 1024 * 1024,
  maxEventChars: 4 * 1024 * 1024,
  maxHeaderBytes: 16 * 1024,
});

/** How long an idle keep-alive connection is kept for reuse (below Node's server default of 5 s). */
const KEEP_ALIVE_MS = 4_000;

export interface TransportOptions {
  /** Keep-alive connections per origin (default 32). */
  connections?: number;
  limits?: Partial<TransportLimits>;
  /**
   * How a URL is named in messages (default: as it is). A client that reaches its agent through a
   * proxy names the agent the user gave, and the hop: "http://127.0.0.1:8765/ via fault proxy 127.0.0.1:39019".
   */
  describeUrl?: (url: string) => string;
}

/** The A2A side of a request: which generation it speaks and which extensions it activates. */
export interface A2AHeaders {
  generation: Generation;
  extensions: readonly string[];
  /** Sent as `Authorization: Bearer <token>` (the acceptance extension authorizes decisions by it). */
  bearerToken?: string;
}

/** Visible ASCII, no space: what an HTTP header value can carry as a token without being split or refused. */
const BEARER_TOKEN = /^[\x21-\x7e]{1,4096}$/;

/** Refuses, in one line, a token undici would refuse deep in a request (or that would split the header). */
export function assertBearerToken(token: string): void {
  if (!BEARER_TOKEN.test(token))
    throw new TypeError('a bearer token must be 1 to 4096 visible ASCII characters without spaces');
}

export interface ExchangeOptions {
  /** Aborts the exchange (closing the transport aborts every exchange too). */
  signal?: AbortSignal;
  /** Overrides the overall bound of this one exchange (or stream). */
  timeoutMs?: number;
  /**
   * Told the exchange's bytes as they pass (a watcher's count, e.g. the scenario's traffic record):
   * unary, exactly what was written and read on the socket; a stream (undici), its request as undici
   * writes it and its response head as parsed (see streamRequestBytes, responseHeadBytes), then every body byte.
   */
  tally?: ByteTally;
}

/** What came back for one exchange, before any A2A interpretation. */
export interface ExchangeMeta {
  httpStatus: number;
  /** URIs the agent echoed in `A2A-Extensions` (or `X-A2A-Extensions`). */
  echoedExtensions: string[];
  /** `performance.now()` just before the request was handed to undici. */
  startedAt: number;
  /** `performance.now()` when the body was complete (unary) or the headers arrived (streams). */
  completedAt: number;
  latencyMs: number;
}

export type RpcReply = RpcBody & { meta: ExchangeMeta };

export interface SseOpen {
  kind: 'sse';
  meta: ExchangeMeta;
  /** The JSON-RPC request id, which every frame of the stream must carry. */
  requestId: number;
  /** The stream's events; throws TransportError when a bound is hit or the body breaks. */
  events: AsyncGenerator<SseEvent>;
  /** Closes the stream from the rig's side (the events generator then ends quietly). */
  close(): void;
}

export type StreamReply = SseOpen | { kind: 'json'; reply: RpcReply };

/** The request headers of a generation and its activated extensions (also for the replay plane). */
export function a2aRequestHeaders(a2a: A2AHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  if (a2a.generation === '1.0') headers[VERSION_HEADER] = '1.0';
  if (a2a.extensions.length > 0)
    headers[a2a.generation === '1.0' ? EXTENSIONS_HEADER_V1 : EXTENSIONS_HEADER_V03] = a2a.extensions.join(', ');
  if (a2a.bearerToken !== undefined) {
    assertBearerToken(a2a.bearerToken);
    headers.authorization = `Bearer ${a2a.bearerToken}`;
  }
  return headers;
}

/** The echoed extensions: the generation's own header, else the other spelling. */
export function echoedExtensions(headers: IncomingHttpHeaders, generation: Generation): string[] {
  const [own, other] =
    generation === '1.0'
      ? [EXTENSIONS_HEADER_V1, EXTENSIONS_HEADER_V03]
      : [EXTENSIONS_HEADER_V03, EXTENSIONS_HEADER_V1];
  const values = headerValues(headers, own);
  return values.length > 0 ? values : headerValues(headers, other);
}

/**
 * A stream request's bytes as undici writes them: request line, host, `connection: keep-alive`, the
 * rig's headers, content-length, the body (undici's own framing, not seen from here, is the same shape).
 */
function streamRequestBytes(path: string, host: string, headers: Record<string, string>, body: string): number {
  const bodyBytes = Buffer.byteLength(body);
  let n =
    `POST ${path} HTTP/1.1\r\nhost: ${host}\r\nconnection: keep-alive\r\ncontent-length: ${bodyBytes}\r\n\r\n`.length +
    bodyBytes;
  for (const [name, value] of Object.entries(headers)) n += name.length + 2 + value.length + 2;
  return n;
}

/**
 * A response head's bytes from its parsed headers (undici gives no raw head): status line without
 * its reason phrase, one line per value.
 */
function responseHeadBytes(headers: IncomingHttpHeaders): number {
  let n = 'HTTP/1.1 200 \r\n\r\n'.length;
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
      n += name.length + 2 + v.length + 2;
  }
  return n;
}

function target(url: string): { origin: string; path: string } {
  const u = new URL(url);
  return { origin: u.origin, path: `${u.pathname}${u.search}` };
}

/** Header values go into the request verbatim: visible ASCII, spaces and tabs only (no line breaks). */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

interface Endpoint {
  pool: Http1Pool;
  /** The request line's target and the Host header, ready to put in a request. */
  path: string;
  host: string;
}

export class JsonRpcTransport {
  readonly limits: Readonly<TransportLimits>;
  private streams: Agent | undefined;
  private readonly closing = new AbortController();
  private readonly describeUrl: (url: string) => string;
  private readonly connections: number;
  private readonly pools = new Map<string, Http1Pool>();
  /** Parsed URLs and built header blocks, by their inputs (a client uses a handful of each). */
  private readonly endpoints = new Map<string, Endpoint>();
  private readonly headerBlocks = new Map<string, string>();
  private readonly inFlight = new Set<Abortable>();
  private lastHeaders: (A2AHeaders & { block: string }) | undefined;
  private nextId = 1;

  constructor(options: TransportOptions = {}) {
    this.limits = Object.freeze({ ...DEFAULT_TRANSPORT_LIMITS, ...options.limits });
    this.describeUrl = options.describeUrl ?? ((url) => url);
    this.connections = options.connections ?? 32;
  }

  /** Unary connections open now, over every origin (tests watch the pool let go of closed ones). */
  get openConnections(): number {
    let n = 0;
    for (const pool of this.pools.values()) n += pool.size;
    return n;
  }

  /** The undici Agent for SSE streams, made on the first stream. */
  private get dispatcher(): Agent {
    return (this.streams ??= new Agent({
      connections: this.connections,
      pipelining: 1,
      keepAliveTimeout: KEEP_ALIVE_MS,
      connect: { timeout: this.limits.connectTimeoutMs },
      headersTimeout: this.limits.headersTimeoutMs,
      bodyTimeout: this.limits.bodyIdleTimeoutMs,
    }));
  }

  private endpoint(url: string): Endpoint {
    let e = this.endpoints.get(url);
    if (e) return e;
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      throw new TransportError(
        'connect',
        `${this.describeUrl(url)}: the rig's JSON-RPC client speaks http: and https:, not ${u.protocol}`,
      );
    let pool = this.pools.get(u.origin);
    if (!pool) {
      const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
      const tls = u.protocol === 'https:';
      pool = new Http1Pool(host, Number(u.port || (tls ? 443 : 80)), {
        tls,
        connections: this.connections,
        connectTimeoutMs: this.limits.connectTimeoutMs,
        maxHeaderBytes: this.limits.maxHeaderBytes,
        keepAliveMs: KEEP_ALIVE_MS,
      });
      if (this.closing.signal.aborted) pool.close(new Error('transport closed'));
      this.pools.set(u.origin, pool);
    }
    e = { pool, path: `${u.pathname}${u.search}`, host: u.host };
    if (this.endpoints.size >= 256) this.endpoints.clear();
    this.endpoints.set(url, e);
    return e;
  }

  /** The A2A header lines of a call (`name: value\r\n` each), built once per distinct set. */
  private headerBlock(a2a: A2AHeaders): string {
    // A client sends the same headers on almost every call: compared with the last set (a copy of
    // its extensions, so a caller's array changed in place is seen), that case skips building a key.
    const last = this.lastHeaders;
    if (
      last &&
      last.generation === a2a.generation &&
      last.bearerToken === a2a.bearerToken &&
      sameStrings(last.extensions, a2a.extensions)
    )
      return last.block;
    const block = this.buildHeaderBlock(a2a);
    this.lastHeaders = {
      extensions: [...a2a.extensions],
      generation: a2a.generation,
      bearerToken: a2a.bearerToken,
      block,
    };
    return block;
  }

  private buildHeaderBlock(a2a: A2AHeaders): string {
    const key = `${a2a.generation}\n${a2a.extensions.join(', ')}\n${a2a.bearerToken ?? ''}`;
    let block = this.headerBlocks.get(key);
    if (block !== undefined) return block;
    block = '';
    for (const [name, value] of Object.entries(a2aRequestHeaders(a2a))) {
      if (!HEADER_VALUE.test(value))
        throw new TypeError(
          `the ${name} header value must be visible ASCII without line breaks: ${JSON.stringify(value.slice(0, 80))}`,
        );
      block += `${name}: ${value}\r\n`;
    }
    if (this.headerBlocks.size >= 256) this.headerBlocks.clear();
    this.headerBlocks.set(key, block);
    return block;
  }

  private bounds(overallMs: number, options: ExchangeOptions): ExchangeBounds {
    const bounds = new ExchangeBounds(overallMs, options.signal, this.closing.signal);
    bounds.awaitHeaders(this.limits.headersTimeoutMs);
    return bounds;
  }

  private context(
    what: string,
    bounds: ExchangeBounds,
    httpStatus: number | undefined,
    idleTimeoutMs = this.limits.bodyIdleTimeoutMs,
  ) {
    return {
      what,
      headersTimeoutMs: this.limits.headersTimeoutMs,
      idleTimeoutMs,
      overallMs: bounds.overallMs,
      cutBy: bounds.cutBy,
      callerAborted: bounds.callerAborted,
      httpStatus,
    };
  }

  private unaryBounds(options: ExchangeOptions) {
    const l = this.limits;
    return {
      overallMs: options.timeoutMs ?? l.requestTimeoutMs,
      headersTimeoutMs: l.headersTimeoutMs,
      bodyIdleTimeoutMs: l.bodyIdleTimeoutMs,
      maxResponseBytes: l.maxResponseBytes,
    };
  }

  /**
   * GET a JSON document (the agent card) under the unary bounds; `body` is undefined unless 2xx. No
   * A2A headers are sent.
   */
  async getJson(url: string, options: ExchangeOptions = {}): Promise<{ status: number; body: unknown }> {
    const what = `GET ${url}`;
    if (this.closing.signal.aborted) throw new TransportError('aborted', `${what} was aborted by the rig`);
    const e = this.endpoint(url);
    const request = `GET ${e.path} HTTP/1.1\r\nhost: ${e.host}\r\naccept: application/json\r\n\r\n`;
    const { status, text } = await runUnary(
      e.pool,
      request,
      what,
      this.unaryBounds(options),
      options.signal,
      this.inFlight,
    );
    if (status < 200 || status > 299) return { status, body: undefined };
    try {
      return { status, body: parseAgentJson(text, "the agent's document") };
    } catch (err) {
      if (err instanceof JsonRefusedError) throw new TransportError('too-large', `${what}: ${err.message}`, status);
      throw new TransportError(
        'protocol',
        `${what}: HTTP ${status} body is not JSON (${(err as Error).message})`,
        status,
      );
    }
  }

  /** One JSON-RPC call; JSON-RPC errors come back as `{ok:false}`, transport failures throw TransportError. */
  call(
    url: string,
    method: string,
    params: unknown,
    a2a: A2AHeaders,
    options: ExchangeOptions = {},
  ): Promise<RpcReply> {
    return this.callRaw(url, method, JSON.stringify(params) as string | undefined, a2a, options);
  }

  /**
   * `call` with the params given as JSON text, put into the request verbatim (the body is the same
   * bytes `call` would send). For params JSON.stringify cannot produce, such as a payload nested
   * 100,000 levels deep; the caller vouches that the text is one JSON value.
   */
  async callRaw(
    url: string,
    method: string,
    paramsJson: string | undefined,
    a2a: A2AHeaders,
    options: ExchangeOptions = {},
  ): Promise<RpcReply> {
    const id = this.nextId++;
    const what = `POST ${this.describeUrl(url)} (${method})`;
    if (this.closing.signal.aborted) throw new TransportError('aborted', `${what} was aborted by the rig`);
    const e = this.endpoint(url);
    const params = paramsJson === undefined ? '' : `,"params":${paramsJson}`;
    const body = `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)}${params}}`;
    const bodyBytes = Buffer.byteLength(body);
    const request =
      `POST ${e.path} HTTP/1.1\r\nhost: ${e.host}\r\ncontent-type: application/json\r\naccept: application/json\r\n` +
      `${this.headerBlock(a2a)}content-length: ${bodyBytes}\r\n\r\n${body}`;
    // The head is ASCII (path, host and header values are checked or URL-encoded): one byte a character.
    if (options.tally) options.tally.sent += request.length - body.length + bodyBytes;
    const startedAt = performance.now();
    const res = await runUnary(
      e.pool,
      request,
      what,
      this.unaryBounds(options),
      options.signal,
      this.inFlight,
      options.tally,
    );
    const completedAt = performance.now();
    const meta: ExchangeMeta = {
      httpStatus: res.status,
      echoedExtensions: echoedExtensions(res.headers, a2a.generation),
      startedAt,
      completedAt,
      latencyMs: completedAt - startedAt,
    };
    const reply = readRpcResponse(res.text, id, what, res.status) as RpcReply;
    reply.meta = meta;
    return reply;
  }

  /**
   * A JSON-RPC call answered by an SSE stream (or, on refusal, by a plain JSON-RPC reply). The
   * stream is bounded by `streamTimeoutMs` overall (or `timeoutMs`), `streamIdleTimeoutMs` of
   * silence and `maxStreamBytes`; its events generator throws TransportError when one is hit.
   */
  async stream(
    url: string,
    method: string,
    params: unknown,
    a2a: A2AHeaders,
    options: ExchangeOptions = {},
  ): Promise<StreamReply> {
    const id = this.nextId++;
    const what = `POST ${this.describeUrl(url)} (${method})`;
    const limit = this.bounds(options.timeoutMs ?? this.limits.streamTimeoutMs, options);
    const rigClose = new AbortController();
    const idleMs = this.limits.streamIdleTimeoutMs;
    let status: number | undefined;
    let handedOver = false;
    const startedAt = performance.now();
    const tally = options.tally;
    try {
      const to = target(url);
      const headers = { 'content-type': 'application/json', accept: 'text/event-stream', ...a2aRequestHeaders(a2a) };
      const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
      if (tally) tally.sent += streamRequestBytes(to.path, new URL(url).host, headers, body);
      const res = await this.dispatcher.request({
        ...to,
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.any([limit.signal, rigClose.signal]),
        bodyTimeout: idleMs,
      });
      status = res.statusCode;
      if (tally) tally.received += responseHeadBytes(res.headers);
      const completedAt = performance.now();
      const meta: ExchangeMeta = {
        httpStatus: status,
        echoedExtensions: echoedExtensions(res.headers, a2a.generation),
        startedAt,
        completedAt,
        latencyMs: completedAt - startedAt,
      };
      if (
        !String(res.headers['content-type'] ?? '')
          .toLowerCase()
          .includes('text/event-stream')
      ) {
        limit.headersArrived(this.limits.bodyIdleTimeoutMs);
        const text = await readBounded(res.body, res.headers, this.limits.maxResponseBytes, what, (c) =>
          limit.watch(c),
        );
        if (tally) tally.received += Buffer.byteLength(text);
        return { kind: 'json', reply: { ...readRpcResponse(text, id, what, status), meta } };
      }
      handedOver = true;
      limit.headersArrived(idleMs);
      const describe = `SSE stream of ${what}`;
      const bounds = {
        maxBytes: this.limits.maxStreamBytes,
        maxEventChars: this.limits.maxEventChars,
        describe,
        tally,
      };
      const failure = (err: unknown) => toTransportError(err, this.context(describe, limit, meta.httpStatus, idleMs));
      const events = (async function* (): AsyncGenerator<SseEvent> {
        try {
          yield* readSseEvents(limit.watch(res.body as AsyncIterable<Uint8Array>), bounds);
        } catch (err) {
          // The rig's own close ends the stream quietly; every other stop is a failure to report.
          if (rigClose.signal.aborted && limit.cutBy === undefined && !limit.callerAborted) return;
          throw failure(err);
        } finally {
          limit.dispose();
          res.body.destroy();
        }
      })();
      return { kind: 'sse', meta, requestId: id, events, close: () => rigClose.abort() };
    } catch (err) {
      throw toTransportError(err, this.context(what, limit, status, idleMs));
    } finally {
      if (!handedOver) limit.dispose();
    }
  }

  /** Aborts every exchange and stream in flight and releases the connections. */
  async close(): Promise<void> {
    this.closing.abort(new Error('transport closed'));
    for (const exchange of [...this.inFlight]) exchange.abortBy('closing');
    for (const pool of this.pools.values()) pool.close(new Error('transport closed'));
    await this.streams?.destroy().catch(() => {});
  }
}
