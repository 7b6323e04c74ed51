// Events as the rig receives them, on any connection: stamped with the monotonic clock, recorded in
// the event history, their prompt envelope (if any) checked by the S-2 guard, and buffered for
// whoever waits on the connection. Every wait is bounded by the caller's timeout.
import type { StreamResponse } from '../protocol/a2aTypes.ts';
import { taskIdOfEvent } from '../protocol/wireInbound.ts';
import type { EnvelopeGuard, PromptCheck } from './envelopeGuard.ts';
import type { ConnectionKind, EventHistory } from './eventHistory.ts';

export interface ReceivedEvent {
  connectionId: string;
  kind: ConnectionKind;
  taskId: string | undefined;
  seq: number | undefined;
  eventId: string | undefined;
  /** `performance.now()` when the event was parsed, in milliseconds. */
  receivedAt: number;
  /** The event in canonical (v1.0) shape. */
  event: StreamResponse;
  /** The S-2 check of the hitl-prompt/v1 envelope the event's status carries; undefined if none. */
  prompt: PromptCheck | undefined;
}

export class EventIntake {
  constructor(
    readonly history: EventHistory,
    readonly guard: EnvelopeGuard,
  ) {}

  take(
    connectionId: string,
    kind: ConnectionKind,
    event: StreamResponse,
    ids: { seq?: number; eventId?: string } = {},
  ): ReceivedEvent {
    const receivedAt = performance.now();
    const taskId = taskIdOfEvent(event);
    this.history.record({ connectionId, kind, taskId, seq: ids.seq, eventId: ids.eventId, receivedAt, event });
    return {
      connectionId,
      kind,
      taskId,
      seq: ids.seq,
      eventId: ids.eventId,
      receivedAt,
      event,
      prompt: this.guard.fromEvent(event),
    };
  }
}

export class WaitTimeoutError extends Error {
  override name = 'WaitTimeoutError';
}

interface Waiter {
  predicate: (event: ReceivedEvent) => boolean;
  resolve: (event: ReceivedEvent) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/** The events of one connection so far, its end once it ends, and bounded waits on both. */
export class EventBuffer<End> {
  readonly events: ReceivedEvent[] = [];
  readonly ended: Promise<End>;
  private endValue: End | undefined;
  private endWhy = '';
  private resolveEnd!: (end: End) => void;
  private readonly waiters = new Set<Waiter>();
  private readonly wakeups = new Set<() => void>();

  constructor(private readonly describe: string) {
    this.ended = new Promise((resolve) => (this.resolveEnd = resolve));
  }

  get end(): End | undefined {
    return this.endValue;
  }

  push(event: ReceivedEvent): void {
    this.events.push(event);
    for (const waiter of this.waiters) {
      if (!waiter.predicate(event)) continue;
      this.settle(waiter);
      waiter.resolve(event);
    }
    this.wake();
  }

  finish(end: End, why: string): void {
    if (this.endValue !== undefined) return;
    this.endValue = end;
    this.endWhy = why;
    for (const waiter of this.waiters) {
      this.settle(waiter);
      waiter.reject(new Error(`${this.describe} ended (${why}) before the awaited event arrived`));
    }
    this.resolveEnd(end);
    this.wake();
  }

  private settle(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    this.waiters.delete(waiter);
  }

  private wake(): void {
    for (const wakeup of [...this.wakeups]) wakeup();
    this.wakeups.clear();
  }

  /**
   * The first event, already received or still to come, that satisfies `predicate`. Rejects with
   * WaitTimeoutError after `timeoutMs`, or with an Error if the connection ends first.
   */
  waitFor(predicate: (event: ReceivedEvent) => boolean, timeoutMs: number): Promise<ReceivedEvent> {
    const seen = this.events.find(predicate);
    if (seen) return Promise.resolve(seen);
    if (this.endValue !== undefined)
      return Promise.reject(new Error(`${this.describe} has ended (${this.endWhy}); the awaited event never arrived`));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(
            new WaitTimeoutError(
              `${this.describe}: no awaited event within ${timeoutMs} ms (${this.events.length} received)`,
            ),
          );
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Every event from the first, then each new one, until the connection ends. */
  async *iterate(): AsyncGenerator<ReceivedEvent> {
    let next = 0;
    for (;;) {
      while (next < this.events.length) yield this.events[next++];
      if (this.endValue !== undefined) return;
      await new Promise<void>((resolve) => this.wakeups.add(resolve));
    }
  }
}
