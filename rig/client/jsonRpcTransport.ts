// JSON-RPC 2.0 over HTTP. Unary exchanges (calls, the agent card) go through the rig's own
// keep-alive HTTP/1.1 pool per origin (http1Connection.ts says why: a few microseconds per exchange,
// so the open model keeps its schedule); SSE streams, long-lived and few, through an undici Agent. Each
// call carries its A2A headers (`A2A-Version: 1.0` for v1.0, none for v0.3; the activation header
// `A2A-Extensions`, or v0.3's `X-A2A-Extensions`) and reads the extension echo back. Every exchange
// is bounded: connect, headers, body idle and overall time, and response bytes; SSE streams by
// their own time, silence and byte bounds. A hostile agent can make a call fail, never hang it or
// fill memory.
import { JsonRefusedError, parseAgentJson } from '../protocol/safeJson.ts';
import { activatedExtensions, EchoedExtensions, HeaderBlocks, type A2AHeaders } from './a2aHeaders.ts';
import { credentialHeaderLines, credentialTls, NO_CREDENTIALS, type Credentials } from './credentials.ts';
import { Http1Pool } from './http1Pool.ts';
import { isRpcErrorReply, readRpcResponse } from './rpcReply.ts';
import { RpcEndpoint } from './rpcEndpoint.ts';
import { SseStreams } from './sseStreams.ts';
import { isRefusedEntry, TransportError, unauthorizedError } from './transportError.ts';
import {
  DEFAULT_TRANSPORT_LIMITS,
  KEEP_ALIVE_MS,
  type ExchangeMeta,
  type ExchangeOptions,
  type RpcReply,
  type StreamReply,
  type TransportLimits,
} from './transportTypes.ts';
import { inFlightExchanges, runUnary, type UnaryBounds, type UnaryResponse } from './unaryExchange.ts';

export interface TransportOptions {
  /** Keep-alive connections per origin (default 32). */
  connections?: number;
  limits?: Partial<TransportLimits>;
  /**
   * How a URL is named in messages (default: as it is). A client that reaches its agent through a
   * proxy names the agent the user gave, and the hop: "http://127.0.0.1:8765/ via fault proxy 127.0.0.1:39019".
   */
  describeUrl?: (url: string) => string;
  /** Headers sent on every exchange (the card GET too) and the TLS trust of the connections. */
  credentials?: Credentials;
  /** Extensions activated on every call beside the call's own (`--activate`). */
  activate?: readonly string[];
  /** Appended to the error of an exchange answered 401 or 403: what the card asks for (securityHint). */
  refusalHint?: string;
  /** Told of each exchange answered 401 or 403. */
  onRefused?: (err: TransportError) => void;
}

export class JsonRpcTransport {
  readonly limits: Readonly<TransportLimits>;
  /** SSE streams, over an undici Agent made on the first one. */
  protected readonly sse: SseStreams;
  private readonly closing = new AbortController();
  protected readonly describeUrl: (url: string) => string;
  private readonly connections: number;
  private readonly pools = new Map<string, Http1Pool>();
  /** Parsed URLs by their text (a client uses a handful). */
  private readonly endpoints = new Map<string, RpcEndpoint>();
  private readonly headerBlocks = new HeaderBlocks();
  protected readonly credentials: Credentials;
  /** The credential header lines, and the same without Authorization (for a call with its own bearer token). */
  private readonly credentialLines: string;
  private readonly credentialLinesNoAuth: string;
  private readonly activate: readonly string[];
  protected readonly refused: (what: string, status: number) => TransportError;
  private readonly inFlight = inFlightExchanges();
  /** The bounds of an exchange without a timeout of its own: one object for all of them. */
  private readonly defaultBounds: UnaryBounds;
  private readonly echoes = new EchoedExtensions();
  protected nextId = 1;

  constructor(options: TransportOptions = {}) {
    this.limits = Object.freeze({ ...DEFAULT_TRANSPORT_LIMITS, ...options.limits });
    this.describeUrl = options.describeUrl ?? ((url) => url);
    this.connections = options.connections ?? 32;
    this.credentials = options.credentials ?? NO_CREDENTIALS;
    this.credentialLines = credentialHeaderLines(this.credentials);
    this.credentialLinesNoAuth = credentialHeaderLines(this.credentials, true);
    this.activate = options.activate ?? [];
    this.refused = (what, status) => {
      const err = unauthorizedError(what, status, options.refusalHint);
      options.onRefused?.(err);
      return err;
    };
    this.defaultBounds = this.boundsWithin(this.limits.requestTimeoutMs);
    this.sse = new SseStreams(this.limits, this.connections, this.closing.signal, {
      credentials: this.credentials,
      refused: this.refused,
    });
  }

  /** Unary connections open now, over every origin (tests watch the pool let go of closed ones). */
  get openConnections(): number {
    let n = 0;
    for (const pool of this.pools.values()) n += pool.size;
    return n;
  }

  private endpoint(url: string): RpcEndpoint {
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
        ...(tls ? { tlsOptions: credentialTls(this.credentials) } : {}),
        connections: this.connections,
        connectTimeoutMs: this.limits.connectTimeoutMs,
        maxHeaderBytes: this.limits.maxHeaderBytes,
        keepAliveMs: KEEP_ALIVE_MS,
      });
      if (this.closing.signal.aborted) pool.close(new Error('transport closed'));
      this.pools.set(u.origin, pool);
    }
    e = new RpcEndpoint(pool, `${u.pathname}${u.search}`, u.host, this.describeUrl(url));
    if (this.endpoints.size >= 256) this.endpoints.clear();
    this.endpoints.set(url, e);
    return e;
  }

  /** The call's A2A headers with the user's `--activate` extensions added (once each). */
  protected activated(a2a: A2AHeaders): A2AHeaders {
    if (this.activate.length === 0) return a2a;
    return { ...a2a, extensions: activatedExtensions(a2a.extensions, this.activate) };
  }

  /** The credential lines of a call: a call with its own bearer token sends that Authorization, not the user's. */
  private credentialsFor(a2a: A2AHeaders): string {
    return a2a.bearerToken === undefined ? this.credentialLines : this.credentialLinesNoAuth;
  }

  private unaryBounds(options: ExchangeOptions): UnaryBounds {
    return options.timeoutMs === undefined ? this.defaultBounds : this.boundsWithin(options.timeoutMs);
  }

  private boundsWithin(overallMs: number): UnaryBounds {
    const l = this.limits;
    return {
      overallMs,
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
    const { status, text } = await runUnary(
      e.pool,
      e.request('GET', this.credentialLines, undefined, 0),
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
    const what = this.endpoint(url).what(method);
    const params = paramsJson === undefined ? '' : `,"params":${paramsJson}`;
    const body = `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)}${params}}`;
    const { res, meta } = await this.exchange(url, 'POST', body, a2a, what, options);
    if (isRefusedEntry(res.status) && !isRpcErrorReply(res.text, id)) throw this.refused(what, res.status);
    const reply = readRpcResponse(res.text, id, what, res.status) as RpcReply;
    reply.meta = meta;
    return reply;
  }

  /**
   * One unary HTTP exchange carrying the A2A headers, under the unary bounds: the JSON-RPC call, and
   * the HTTP+JSON binding's calls (restTransport.ts). `body`, when given, is JSON.
   */
  protected async exchange(
    url: string,
    verb: 'GET' | 'POST',
    body: string | undefined,
    a2a: A2AHeaders,
    what: string,
    options: ExchangeOptions,
  ): Promise<{ res: UnaryResponse; meta: ExchangeMeta }> {
    if (this.closing.signal.aborted) throw new TransportError('aborted', `${what} was aborted by the rig`);
    const e = this.endpoint(url);
    const bodyBytes = body === undefined ? 0 : Buffer.byteLength(body);
    const lines = `${this.headerBlocks.of(this.activated(a2a))}${this.credentialsFor(a2a)}`;
    const request = e.request(verb, lines, body, bodyBytes);
    // The head is ASCII (path, host and header values are checked or URL-encoded): one byte a character.
    if (options.tally) options.tally.sent += request.length - (body?.length ?? 0) + bodyBytes;
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
      echoedExtensions: this.echoes.of(res.headers, a2a.generation),
      startedAt,
      completedAt,
      latencyMs: completedAt - startedAt,
    };
    return { res, meta };
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
    return this.sse.open(url, what, id, method, params, this.activated(a2a), options);
  }

  /** Aborts every exchange and stream in flight and releases the connections. */
  async close(): Promise<void> {
    this.closing.abort(new Error('transport closed'));
    for (const exchange of this.inFlight.toArray()) exchange.abortBy();
    for (const pool of this.pools.values()) pool.close(new Error('transport closed'));
    await this.sse.destroy();
  }
}
