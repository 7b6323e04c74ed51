// Optional per-client-IP rate limiting (off by default; `--rate-limit`): a token bucket per remote
// IP, checked before a request's body is read, answering 429 with Retry-After and an error body in
// the binding's own shape. What is not limited, and why:
// - the agent card and GET /metrics: constant-size, cheap answers; a health probe or a scraper must
//   see the agent while it is under attack, which is exactly when an attacker's address would have
//   used up its tokens (both share the connection bounds like any request);
// - nothing else: every JSON-RPC and HTTP+JSON request and every replay-plane upgrade (/events: a
//   replay reads the task's stored log, real work) takes a token.
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { A2AError } from '../protocol/errorCodes.ts';
import { clientKey } from './connectionLimits.ts';
import { restV03ErrorBody } from './restV03Binding.ts';

/** JSON-RPC error code of a rate-limited request (implementation-defined server error range;
 * -32029 is the agent's "too many streams"). */
export const RATE_LIMITED_CODE = -32030;

/**
 * Buckets kept at most. An attacker cycling source addresses makes one bucket per address; past
 * this bound the least recently used bucket is dropped (~150 bytes each: ~2.5 MB at most). A
 * dropped bucket that was not yet full again hands its address a fresh burst: the price of the
 * bound, paid only by an attacker with more than this many addresses in play at once.
 */
export const MAX_RATE_BUCKETS = 16_384;

export interface RateLimitOptions {
  /** Sustained requests per second per client IP (> 0). */
  requestsPerSecond: number;
  /** Requests a client may make at once after being idle (default: the rate rounded up, ≥ 1). */
  burst?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly rate: number;
  readonly burst: number;

  constructor(
    options: RateLimitOptions,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.rate = options.requestsPerSecond;
    this.burst = options.burst ?? Math.max(1, Math.ceil(options.requestsPerSecond));
  }

  /** Buckets held now (tests read the bound). */
  get size(): number {
    return this.buckets.size;
  }

  /** Takes a token for `remoteAddress`: undefined when granted, else whole seconds (≥ 1) to wait. */
  take(remoteAddress: string | undefined): number | undefined {
    const key = clientKey(remoteAddress);
    const now = this.now();
    const held = this.buckets.get(key);
    let tokens = this.burst;
    if (held !== undefined) {
      tokens = Math.min(this.burst, held.tokens + ((now - held.at) / 1000) * this.rate);
      this.buckets.delete(key); // re-inserted below: the map's order is least recently used first
    }
    this.dropIdle(now);
    if (this.buckets.size >= MAX_RATE_BUCKETS) this.buckets.delete(this.buckets.keys().next().value!);
    if (tokens >= 1) {
      this.buckets.set(key, { tokens: tokens - 1, at: now });
      return undefined;
    }
    this.buckets.set(key, { tokens, at: now });
    return Math.max(1, Math.ceil((1 - tokens) / this.rate));
  }

  /** Drops up to two least recently used buckets that have refilled: a full bucket is the same as
   * none, so the map shrinks back as clients go quiet (amortized O(1) per request). */
  private dropIdle(now: number): void {
    for (let i = 0; i < 2; i++) {
      const first = this.buckets.entries().next().value;
      if (first === undefined) return;
      const [key, bucket] = first;
      if (bucket.tokens + ((now - bucket.at) / 1000) * this.rate < this.burst) return;
      this.buckets.delete(key);
    }
  }
}

export type Binding = 'json-rpc' | 'rest' | 'rest-v0.3';

function message(retryAfter: number): string {
  return `too many requests from this address; retry after ${retryAfter} s`;
}

/** The 429 in the binding's error shape. The body is not read: a request that declares a large or
 * chunked one gets Connection: close (node would otherwise read it through to reuse the socket). */
export function rateLimited(
  res: ServerResponse,
  binding: Binding,
  retryAfter: number,
  bodyDeclared: { length: number; chunked: boolean },
): void {
  const error = new A2AError(RATE_LIMITED_CODE, message(retryAfter), { retryAfterSeconds: retryAfter });
  const body =
    binding === 'json-rpc'
      ? { jsonrpc: '2.0', id: null, error: error.toJson() }
      : binding === 'rest-v0.3'
        ? restV03ErrorBody(error)
        : { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: error.message, details: [] } };
  const text = JSON.stringify(body);
  if (bodyDeclared.chunked || bodyDeclared.length > 65_536) res.setHeader('Connection', 'close');
  res.writeHead(429, {
    'Retry-After': String(retryAfter),
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** The 429 on a replay-plane upgrade socket (no binding there: a plain JSON body), then closed. */
export function rateLimitedUpgrade(socket: Duplex, retryAfter: number): void {
  const text = JSON.stringify({ error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: message(retryAfter) } });
  try {
    if (!socket.writable) return void socket.destroy();
    socket.end(
      `HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nRetry-After: ${retryAfter}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  } catch {
    socket.destroy();
  }
}
