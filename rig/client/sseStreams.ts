// The SSE side of the JSON-RPC transport (jsonRpcTransport.ts): a call answered by a stream, over
// an undici Agent (streams are long-lived and few), or on refusal by a plain JSON-RPC reply. Each
// stream is bounded overall, by silence and by bytes; its events generator throws TransportError
// when a bound is hit, and ends quietly when the rig closes it.
import { Agent, type Dispatcher } from 'undici';
import type { ByteTally } from './byteTally.ts';
import type { A2AHeaders } from './a2aHeaders.ts';
import { a2aRequestHeaders, echoedExtensions } from './a2aHeaders.ts';
import { ExchangeBounds } from './exchangeBounds.ts';
import { isRpcErrorReply, readBounded, readRpcResponse, type RpcBody } from './rpcReply.ts';
import { readSseEvents, type SseEvent } from './sseReader.ts';
import { responseHeadBytes, streamRequestBytes } from './streamBytes.ts';
import { isRefusedEntry, toTransportError, type TransportError } from './transportError.ts';
import { credentialHeaders, credentialTls, type Credentials } from './credentials.ts';
import {
  KEEP_ALIVE_MS,
  type ExchangeMeta,
  type ExchangeOptions,
  type StreamReply,
  type TransportLimits,
} from './transportTypes.ts';

/** The request of a stream that is not the JSON-RPC call (the HTTP+JSON binding: restTransport.ts). */
type AltRequest = { verb: 'GET' | 'POST'; body?: string; readReply: (text: string, status: number) => RpcBody };

function isEventStream(res: Dispatcher.ResponseData): boolean {
  return String(res.headers['content-type'] ?? '')
    .toLowerCase()
    .includes('text/event-stream');
}

function target(url: string): { origin: string; path: string } {
  const u = new URL(url);
  return { origin: u.origin, path: `${u.pathname}${u.search}` };
}

export class SseStreams {
  private agent: Agent | undefined;

  constructor(
    private readonly limits: Readonly<TransportLimits>,
    private readonly connections: number,
    /** Aborted when the transport closes: every stream ends. */
    private readonly closing: AbortSignal,
    /** The user's headers and TLS trust, and what to say on a 401/403 (jsonRpcTransport.ts). */
    private readonly access: { credentials: Credentials; refused: (what: string, status: number) => TransportError },
  ) {}

  /** The undici Agent for SSE streams, made on the first stream. */
  private get dispatcher(): Agent {
    return (this.agent ??= new Agent({
      connections: this.connections,
      pipelining: 1,
      keepAliveTimeout: KEEP_ALIVE_MS,
      connect: { timeout: this.limits.connectTimeoutMs, ...credentialTls(this.access.credentials) },
      headersTimeout: this.limits.headersTimeoutMs,
      bodyTimeout: this.limits.bodyIdleTimeoutMs,
    }));
  }

  private bounds(overallMs: number, options: ExchangeOptions): ExchangeBounds {
    const bounds = new ExchangeBounds(overallMs, options.signal, this.closing);
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

  /** Opens the stream of call `id` (`what` names it in errors); see JsonRpcTransport.stream. */
  async open(
    url: string,
    what: string,
    id: number,
    method: string,
    params: unknown,
    a2a: A2AHeaders,
    options: ExchangeOptions,
    /** The request when it is not the JSON-RPC call (the HTTP+JSON binding: restTransport.ts). */
    request?: AltRequest,
  ): Promise<StreamReply> {
    const limit = this.bounds(options.timeoutMs ?? this.limits.streamTimeoutMs, options);
    const rigClose = new AbortController();
    const idleMs = this.limits.streamIdleTimeoutMs;
    let status: number | undefined;
    let handedOver = false;
    const startedAt = performance.now();
    const tally = options.tally;
    try {
      const body = request ? request.body : JSON.stringify({ jsonrpc: '2.0', id, method, params });
      const res = await this.dispatcher.request({
        ...this.streamRequest(url, request?.verb ?? 'POST', body, a2a, tally),
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
      if (!isEventStream(res)) return await this.jsonReply(res, limit, what, id, meta, tally, request);
      handedOver = true;
      limit.headersArrived(idleMs);
      return this.sseReply(res, limit, rigClose, what, id, meta, tally);
    } catch (err) {
      throw toTransportError(err, this.context(what, limit, status, idleMs));
    } finally {
      if (!handedOver) limit.dispose();
    }
  }

  /** The request's target, verb, headers and body; its bytes go to the tally. */
  private streamRequest(
    url: string,
    verb: 'GET' | 'POST',
    body: string | undefined,
    a2a: A2AHeaders,
    tally: ByteTally | undefined,
  ) {
    const to = target(url);
    const headers: Record<string, string> = {
      accept: 'text/event-stream',
      ...credentialHeaders(this.access.credentials, a2a.bearerToken !== undefined),
      ...a2aRequestHeaders(a2a),
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (tally) tally.sent += streamRequestBytes(verb, to.path, new URL(url).host, headers, body ?? '');
    return { ...to, method: verb, headers, body };
  }

  /** A call answered without a stream: a JSON reply (or a refusal at the door), read whole and bounded. */
  private async jsonReply(
    res: Dispatcher.ResponseData,
    limit: ExchangeBounds,
    what: string,
    id: number,
    meta: ExchangeMeta,
    tally: ByteTally | undefined,
    request: AltRequest | undefined,
  ): Promise<StreamReply> {
    const status = res.statusCode;
    limit.headersArrived(this.limits.bodyIdleTimeoutMs);
    const text = await readBounded(res.body, res.headers, this.limits.maxResponseBytes, what, (c) => limit.watch(c));
    if (tally) tally.received += Buffer.byteLength(text);
    if (request) return { kind: 'json', reply: { ...request.readReply(text, status), meta } };
    if (isRefusedEntry(status) && !isRpcErrorReply(text, id)) throw this.access.refused(what, status);
    return { kind: 'json', reply: { ...readRpcResponse(text, id, what, status), meta } };
  }

  /** The stream handed to the caller: its events, bounded by bytes and event size, until closed. */
  private sseReply(
    res: Dispatcher.ResponseData,
    limit: ExchangeBounds,
    rigClose: AbortController,
    what: string,
    id: number,
    meta: ExchangeMeta,
    tally: ByteTally | undefined,
  ): StreamReply {
    const idleMs = this.limits.streamIdleTimeoutMs;
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
  }

  async destroy(): Promise<void> {
    await this.agent?.destroy().catch(() => {});
  }
}
