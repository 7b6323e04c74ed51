// What the JSON-RPC transport (jsonRpcTransport.ts) is bounded by, is told per exchange, and gives
// back before any A2A interpretation: a unary reply with its meta, or an SSE stream.
import type { ByteTally } from './byteTally.ts';
import type { RpcBody } from './rpcReply.ts';
import type { SseEvent } from './sseReader.ts';

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
export const KEEP_ALIVE_MS = 4_000;

export interface ExchangeOptions {
  /** Aborts the exchange (closing the transport aborts every exchange too). */
  signal?: AbortSignal;
  /** Overrides the overall bound of this one exchange (or stream). */
  timeoutMs?: number;
  /**
   * Told the exchange's bytes as they pass (a watcher's count, e.g. the scenario's traffic record):
   * unary, exactly what was written and read on the socket; a stream (undici), its request as undici
   * writes it and its response head as parsed (see streamBytes.ts), then every body byte.
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
  /** True while the response headers have not come (a stream handed over early, pendingOpen.ts). */
  readonly headersPending?: boolean;
}

export type StreamReply = SseOpen | { kind: 'json'; reply: RpcReply };
