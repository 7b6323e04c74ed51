// A stream handed over before its response headers came. Some SDKs flush an SSE response's headers
// only with its first event, so a subscription with nothing to replay sends nothing at all, not
// even a status line: waiting for the headers would outlast every scenario's own wait. Past the
// caller's header wait the stream is handed over as it is — open, showing nothing — and its events
// (or the refusal it turns into, or its failure) follow when the agent sends them.
import type { RpcErrorBody } from './rpcReply.ts';
import type { SseEvent } from './sseReader.ts';
import { TransportError } from './transportError.ts';
import type { ExchangeMeta, SseOpen, StreamReply } from './transportTypes.ts';

/** The refusal a stream handed over early turned into (a plain JSON-RPC error once the headers came). */
export class LateRefusal extends Error {
  override name = 'LateRefusal';
  constructor(readonly error: RpcErrorBody) {
    super(`JSON-RPC error ${error.code}: ${error.message}`);
  }
}

/**
 * `opening` as an SseOpen now: its meta is filled in, and its events start, once the headers come;
 * until then `meta.httpStatus` is 0 and its latency is the wait so far (what an exchange observer
 * records for it). Closing it before then aborts the request through `cancel`.
 */
export function pendingOpen(
  opening: Promise<StreamReply>,
  what: string,
  startedAt: number,
  cancel: () => void,
): SseOpen {
  const now = performance.now();
  const meta: ExchangeMeta = {
    httpStatus: 0,
    echoedExtensions: [],
    startedAt,
    completedAt: now,
    latencyMs: now - startedAt,
  };
  let open: SseOpen | undefined;
  let pending = true;
  let closed = false;
  async function* events(): AsyncGenerator<SseEvent> {
    const reply = await opening;
    pending = false;
    Object.assign(meta, reply.kind === 'sse' ? reply.meta : reply.reply.meta);
    if (reply.kind === 'json') {
      if (!reply.reply.ok) throw new LateRefusal(reply.reply.error);
      throw new TransportError('protocol', `${what} answered a stream request with a plain JSON-RPC result`);
    }
    open = reply;
    if (closed) return reply.close();
    yield* reply.events;
  }
  return {
    kind: 'sse',
    meta,
    // Frames are checked against the id the transport gave the request; unknown until the headers.
    get requestId() {
      return open?.requestId ?? -1;
    },
    events: events(),
    close() {
      closed = true;
      if (open) open.close();
      else cancel();
    },
    get headersPending() {
      return pending;
    },
  };
}

/** The reply, if its headers come within `waitMs`; undefined past it (the request goes on). */
export async function withinHeaderWait(
  opening: Promise<StreamReply>,
  waitMs: number,
): Promise<StreamReply | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), waitMs);
  });
  try {
    return await Promise.race([opening, waited]);
  } finally {
    clearTimeout(timer);
  }
}
