// The client's streaming calls (a2aClient.ts hands them on): SendStreamingMessage / message/stream and
// SubscribeToTask / tasks/resubscribe. Each stream is observed like any exchange (it ends for the
// observer when its headers arrive), read into the client's history, and closed with the client.
import type { CallOptions, StreamOutcome } from './callOutcome.ts';
import { operationName, type CallOperation, type ClientExchanges } from './clientExchanges.ts';
import type { OutgoingMessage } from './outgoingMessage.ts';
import { TaskEventStream } from './taskEventStream.ts';
import { pendingOpen, withinHeaderWait } from './pendingOpen.ts';
import { TransportError } from './transportError.ts';
import type { SseOpen, StreamReply } from './transportTypes.ts';

/**
 * How long a new stream is watched for a refusal framed as its first event before it is handed
 * over. a2a-sdk 0.3.x answers tasks/resubscribe on a parked task with HTTP 200, text/event-stream
 * and a JSON-RPC error (-32001) as the only frame, right behind the headers. A stream whose first
 * frame is an event is handed over as soon as that frame arrives, so the peek costs nothing then;
 * an error frame arriving later still ends the stream with its code (`StreamEnd` 'rpc-error').
 */
export const STREAM_REFUSAL_PEEK_MS = 1_000;

export class StreamCalls {
  constructor(private readonly exchanges: ClientExchanges) {}

  /** SendStreamingMessage / message/stream: the events until the task settles (the agent closes). */
  sendStream(message: OutgoingMessage, options: CallOptions = {}): Promise<StreamOutcome> {
    return this.call('stream', this.exchanges.sendParams(message, {}), options, message.taskId);
  }

  /** SubscribeToTask / tasks/resubscribe: a snapshot, then live events until the task is terminal. */
  subscribe(taskId: string, options: CallOptions = {}): Promise<StreamOutcome> {
    return this.call('subscribe', { id: taskId }, options, taskId);
  }

  private call(op: CallOperation, params: unknown, options: CallOptions, taskId?: string): Promise<StreamOutcome> {
    const method = this.exchanges.method(op);
    return this.exchanges.observed(
      method,
      operationName(op),
      options,
      (o) => this.open(method, params, o, taskId),
      (o) => ({ end: o.ok ? 'ok' : 'rpc_error', latencyMs: o.meta.latencyMs, stream: o.ok }),
    );
  }

  /**
   * Opens a stream; a refusal, framed as plain JSON or as the stream's first frame, comes back as
   * `{ok:false}`. With `headerWaitMs`, a stream whose headers have not come by then is handed over
   * open and silent (pendingOpen.ts); a refusal it turns into later ends it with that error.
   */
  private async open(method: string, params: unknown, options: CallOptions, taskId?: string): Promise<StreamOutcome> {
    const exchanges = this.exchanges;
    const describe = `${method} stream from ${exchanges.endpoint}`;
    const startedAt = performance.now();
    const call = (o: CallOptions) =>
      exchanges.transport.stream(exchanges.agent.rpcUrl, method, params, exchanges.a2a(o), o);
    if (options.headerWaitMs === undefined) return this.handOver(await call(options), describe, options, taskId);
    // Closing a stream handed over before its headers aborts the request still waiting for them.
    const cancel = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, cancel.signal]) : cancel.signal;
    const opening = call({ ...options, signal });
    const reply = await withinHeaderWait(opening, options.headerWaitMs);
    if (reply === undefined) {
      const open = pendingOpen(opening, describe, startedAt, () => cancel.abort());
      return { ok: true, stream: this.read(open, describe, taskId), meta: open.meta };
    }
    return this.handOver(reply, describe, options, taskId);
  }

  /** A stream whose headers came, or the refusal it was. */
  private async handOver(
    reply: StreamReply,
    describe: string,
    options: CallOptions,
    taskId: string | undefined,
  ): Promise<StreamOutcome> {
    if (reply.kind === 'json') {
      if (!reply.reply.ok) return { ok: false, error: reply.reply.error, meta: reply.reply.meta };
      throw new TransportError(
        'protocol',
        `${describe} answered a stream request with a plain JSON-RPC result`,
        reply.reply.meta.httpStatus,
      );
    }
    const stream = this.read(reply, describe, taskId);
    await stream.firstFrame(options.refusalPeekMs ?? STREAM_REFUSAL_PEEK_MS);
    const end = stream.end;
    if (end?.reason === 'rpc-error' && stream.events.length === 0)
      return { ok: false, error: end.error, inStream: true, meta: reply.meta };
    return { ok: true, stream, meta: reply.meta };
  }

  /** The stream read into the client's history, closed with the client. */
  private read(open: SseOpen, describe: string, taskId: string | undefined): TaskEventStream {
    const stream = new TaskEventStream(open, this.exchanges.intake, this.exchanges.history, describe, taskId);
    this.exchanges.track(stream, stream.ended);
    return stream;
  }
}
