// One SSE stream of task events (a send stream or a subscription), read in the background from the
// moment it opens so the history is complete whether or not anyone iterates. Each `data:` frame must
// be a JSON-RPC response to the stream's request carrying a StreamResponse of either generation; a
// JSON-RPC error frame, a malformed frame or a transport bound ends the stream with that reason.
import { TERMINAL_STATES, type TaskState } from '../protocol/a2aTypes.ts';
import { UnsafeJsonError } from '../protocol/safeJson.ts';
import { statusOfEvent, streamEventFromWire, taskIdOfEvent } from '../protocol/wireInbound.ts';
import { RetentionBoundError, type EventHistory } from './eventHistory.ts';
import type { ExchangeMeta, SseOpen } from './transportTypes.ts';
import { EventBuffer, type EventIntake, type ReceivedEvent } from './receivedEvents.ts';
import { LateRefusal } from './pendingOpen.ts';
import { readRpcResponse, type RpcErrorBody } from './rpcReply.ts';
import { TransportError } from './transportError.ts';

export type StreamEnd =
  /** The agent closed the stream (as it should after a terminal or interrupted state). */
  | { reason: 'ended' }
  /** The rig closed it (close()). */
  | { reason: 'closed' }
  /** The agent sent a JSON-RPC error frame. */
  | { reason: 'rpc-error'; error: RpcErrorBody }
  /** A bound was hit, the connection broke, or a frame was not the protocol. */
  | { reason: 'failed'; error: TransportError };

/** A stream's end in words, with the JSON-RPC code when the agent ended it with an error frame. */
export function describeEnd(end: StreamEnd): string {
  if (end.reason === 'failed') return end.error.message;
  if (end.reason === 'rpc-error') return `JSON-RPC error ${end.error.code}: ${end.error.message}`;
  return end.reason;
}

function asTransportError(err: unknown, describe: string): TransportError {
  if (err instanceof TransportError) return err;
  if (err instanceof RetentionBoundError) return new TransportError('too-large', `${describe}: ${err.message}`);
  return new TransportError(err instanceof UnsafeJsonError ? 'protocol' : 'socket', (err as Error).message);
}

/** The reference agent's SSE ids are `<taskId>:<seq>`; other agents' ids are kept as they are. */
function seqFromSseId(id: string | undefined, taskId: string | undefined): number | undefined {
  if (id === undefined || taskId === undefined || !id.startsWith(`${taskId}:`)) return undefined;
  const tail = id.slice(taskId.length + 1);
  return /^\d{1,15}$/.test(tail) ? Number(tail) : undefined;
}

export class TaskEventStream implements AsyncIterable<ReceivedEvent> {
  readonly connectionId: string;
  /** HTTP status, extension echo and time to headers of the streaming response. */
  readonly meta: ExchangeMeta;
  private readonly buffer: EventBuffer<StreamEnd>;
  private closedByRig = false;

  constructor(
    private readonly open: SseOpen,
    intake: EventIntake,
    private readonly history: EventHistory,
    describe: string,
    taskId?: string,
  ) {
    this.meta = open.meta;
    this.connectionId = history.openConnection('sse', taskId);
    this.buffer = new EventBuffer<StreamEnd>(`${describe} [${this.connectionId}]`);
    void this.pump(intake, describe);
  }

  private async pump(intake: EventIntake, describe: string): Promise<void> {
    let end: StreamEnd = { reason: 'ended' };
    try {
      for await (const sse of this.open.events) {
        const frame = readRpcResponse(
          sse.data,
          this.open.requestId,
          `${describe}: frame ${this.buffer.events.length + 1}`,
          this.meta.httpStatus,
          "the agent's event",
        );
        if (!frame.ok) {
          end = { reason: 'rpc-error', error: frame.error };
          break;
        }
        let event;
        try {
          event = streamEventFromWire(frame.result, 'result');
        } catch (err) {
          throw new TransportError(
            'protocol',
            `${describe}: frame ${this.buffer.events.length + 1} is not an A2A stream event: ${(err as Error).message}`,
          );
        }
        this.buffer.push(
          intake.take(this.connectionId, 'sse', event, {
            eventId: sse.id,
            seq: seqFromSseId(sse.id, taskIdOfEvent(event)),
          }),
        );
      }
      if (this.closedByRig) end = { reason: 'closed' };
    } catch (err) {
      // A stream handed over before its headers may turn into a plain JSON-RPC refusal (pendingOpen.ts).
      if (this.closedByRig) end = { reason: 'closed' };
      else if (err instanceof LateRefusal) end = { reason: 'rpc-error', error: err.error };
      else end = { reason: 'failed', error: asTransportError(err, describe) };
    } finally {
      this.open.close();
    }
    this.history.closeConnection(
      this.connectionId,
      end.reason === 'failed'
        ? end.error.message
        : end.reason === 'rpc-error'
          ? `rpc error ${end.error.code}`
          : end.reason,
    );
    this.buffer.finish(end, describeEnd(end));
  }

  /**
   * Resolves once the first frame has been read (an event, or the end of the stream, e.g. a
   * JSON-RPC error frame) or after `peekMs`, whichever comes first; never rejects. An agent that
   * refuses inside the stream (HTTP 200, text/event-stream, an error as the first frame) sends that
   * frame right behind the headers, so a short peek tells a refusal from an open stream.
   */
  async firstFrame(peekMs: number): Promise<void> {
    if (this.buffer.events.length > 0 || this.buffer.end !== undefined) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.buffer.waitFor(() => true, peekMs).catch(() => {}),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, peekMs + 1))),
    ]);
    clearTimeout(timer);
  }

  /** True while the agent has sent not even the response headers (a stream handed over early). */
  get headersPending(): boolean {
    return this.open.headersPending === true;
  }

  /** Events received so far, in order. */
  get events(): readonly ReceivedEvent[] {
    return this.buffer.events;
  }

  /** Resolves (never rejects) when the stream has ended, with why. */
  get ended(): Promise<StreamEnd> {
    return this.buffer.ended;
  }

  /** The end, once the stream has ended. */
  get end(): StreamEnd | undefined {
    return this.buffer.end;
  }

  /** The first event (received or to come) that satisfies `predicate`; bounded by `timeoutMs`. */
  waitFor(predicate: (event: ReceivedEvent) => boolean, timeoutMs: number): Promise<ReceivedEvent> {
    return this.buffer.waitFor(predicate, timeoutMs);
  }

  /** The first event announcing `state` (a snapshot or status update). */
  waitForState(state: TaskState, timeoutMs: number): Promise<ReceivedEvent> {
    return this.waitFor((e) => statusOfEvent(e.event)?.state === state, timeoutMs);
  }

  /** Reads to the end (bounded by the stream's own bounds) and returns every event and the end. */
  async collect(): Promise<{ events: readonly ReceivedEvent[]; end: StreamEnd }> {
    const end = await this.buffer.ended;
    return { events: this.buffer.events, end };
  }

  /** The last state the stream announced, if any. */
  get lastState(): TaskState | undefined {
    for (let i = this.buffer.events.length - 1; i >= 0; i--) {
      const state = statusOfEvent(this.buffer.events[i].event)?.state;
      if (state) return state;
    }
    return undefined;
  }

  /** True once the stream announced a terminal state. */
  get sawTerminal(): boolean {
    const state = this.lastState;
    return state !== undefined && TERMINAL_STATES.has(state);
  }

  /** Closes the stream from the rig's side (a client disconnect); resolves once it has ended. */
  close(): Promise<StreamEnd> {
    if (this.buffer.end === undefined) {
      this.closedByRig = true;
      this.open.close();
    }
    return this.buffer.ended;
  }

  [Symbol.asyncIterator](): AsyncIterator<ReceivedEvent> {
    return this.buffer.iterate();
  }
}
