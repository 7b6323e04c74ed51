// Watching a task until something holds of it: the one way the rig waits for a task's state. On a
// subscription when the agent gives one; with GetTask polling when it does not (it refused, as a
// plain JSON-RPC error or as the first frame of an event stream as a2a-sdk 0.3.x sends for a parked
// task; or the stream ended first), and then the result says why it polled, quoting the agent. A
// stream may carry whole Task snapshots as well as status updates (A2A allows both): each counts as
// the state it shows. An SDK may send the response headers only with the first event, and a
// subscription that has nothing to replay then sends nothing at all: the stream is handed over open
// and silent once the watch's own wait has passed (pendingOpen.ts) instead of holding the caller to
// the transport's header bound. An act (an answer, a decision) can be done once the watch is in
// place, a stream confirmed live by its first event, so what it causes is seen from when it was done.
import type { Task, TaskStatus } from '../protocol/a2aTypes.ts';
import { statusOfEvent } from '../protocol/wireInbound.ts';
import type { A2AClient } from './a2aClient.ts';
import type { ReceivedEvent } from './receivedEvents.ts';
import type { RpcErrorBody } from './rpcReply.ts';
import { describeEnd, type TaskEventStream } from './taskEventStream.ts';

/** What one sighting of the task shows: its status, and the whole task when it came with one. */
export interface Sighting {
  status: TaskStatus;
  /** A GetTask reply, or a Task snapshot in a stream; undefined for a status update. */
  task?: Task;
}

/** Something whose effect the watch is for, done once the watch is in place. */
export interface WatchAct {
  /**
   * Does it; returns the moment it was done (`performance.now()`, taken just before): sightings
   * received before it do not count, and the watch lasts `timeoutMs` from it. Undefined stops the
   * watch (the act did not take effect: nothing to wait for).
   */
  run(): Promise<number | undefined>;
  timeoutMs: number;
}

export interface WatchOptions {
  /**
   * `performance.now()` time the watch gives up at. With an act, the time by which a new
   * subscription must have shown its first event; the act is done then anyway.
   */
  deadline: number;
  signal?: AbortSignal;
  /** 'stream': subscribe, and poll only when there is no stream to watch; 'poll': GetTask only. */
  method: 'stream' | 'poll';
  /** Pause between two GetTask calls. */
  pollIntervalMs: number;
  /** Sightings received before this moment do not count (default: the watch's start). */
  since?: number;
  /** What the watch awaits, for the fallback's words: "the subscription ended before <awaited> …". */
  awaited?: string;
  act?: WatchAct;
  /** A GetTask refused with a JSON-RPC error ends the watch (`readError`) instead of being retried. */
  stopOnReadError?: boolean;
  /**
   * 'watch' (default): a subscription whose headers have not come by the deadline is handed over
   * open and silent. 'transport': its headers are awaited as long as the transport awaits any (the
   * load round trips: an agent that answers late under load resumed late, and its round trip is
   * timed as such, not counted as failed because its headers came with the late event).
   */
  headers?: 'watch' | 'transport';
}

export interface Watched {
  /** Whether `until` held for a sighting in time. */
  reached: boolean;
  /** The sighting `until` held for; else the last status seen (undefined if none was). */
  status?: TaskStatus;
  /** The task of that sighting, or the last whole task seen; undefined when it came as a status update. */
  task?: Task;
  /** When the deciding sighting arrived (the event's receipt, the GetTask reply's completion). */
  seenAt?: number;
  /** How it was seen, or how the watch was watching when it ended. */
  via: 'stream' | 'poll';
  /** Why it polled instead of watching a stream, in words that quote the agent's code. */
  fallback?: string;
  /** The subscription's refusal, when that was why. */
  refused?: RpcErrorBody & { inStream?: boolean };
  /**
   * Polled and reached only: from sending the last GetTask that did not satisfy `until` (or `since`,
   * for the first) to the reply that did; what was awaited happened somewhere in that span.
   */
  pollResolutionMs?: number;
  /** The stream's own words for why the awaited event did not come (a stream watch that ended unreached). */
  missed?: string;
  /** The stream's events up to the deciding one (all of them when none was). */
  events: readonly ReceivedEvent[];
  /** Set when the act returned undefined: the watch stopped there. */
  stopped?: true;
  /** The GetTask refusal that ended the watch (`stopOnReadError`). */
  readError?: RpcErrorBody;
}

type Fallback = Pick<Watched, 'fallback' | 'refused'>;

/** Watches `taskId` until `until` holds for what it shows, or the deadline passes, or `signal` aborts. */
export function watchTask(
  client: A2AClient,
  taskId: string,
  until: (seen: Sighting) => boolean,
  options: WatchOptions,
): Promise<Watched> {
  return new TaskWatch(client, taskId, until, options).run();
}

class TaskWatch {
  private since: number;
  private deadline: number;
  private acted = false;

  constructor(
    private readonly client: A2AClient,
    private readonly taskId: string,
    private readonly until: (seen: Sighting) => boolean,
    private readonly options: WatchOptions,
  ) {
    this.since = options.since ?? performance.now();
    this.deadline = options.deadline;
  }

  async run(): Promise<Watched> {
    if (this.options.method === 'poll') return this.poll({});
    const { signal } = this.options;
    const headerWaitMs =
      this.options.headers === 'transport' ? {} : { headerWaitMs: Math.max(1, this.deadline - performance.now()) };
    const sub = await this.client.subscribe(this.taskId, { signal, ...headerWaitMs });
    if (!sub.ok) {
      const where = sub.inStream ? ' (as the first frame of an event stream)' : '';
      return this.poll({
        fallback: `subscription refused: ${sub.error.code} ${sub.error.message}${where}`,
        refused: { ...sub.error, ...(sub.inStream ? { inStream: true } : {}) },
      });
    }
    const watched = await this.onStream(sub.stream);
    return 'via' in watched ? watched : this.poll(watched);
  }

  /** Does the act, once; false when it says there is nothing to wait for. */
  private async act(): Promise<boolean> {
    const act = this.options.act;
    if (act === undefined || this.acted) return true;
    this.acted = true;
    const from = await act.run();
    if (from === undefined) return false;
    this.since = from;
    this.deadline = from + act.timeoutMs;
    return true;
  }

  /** The stream's verdict, or why the task must be polled instead. */
  private async onStream(stream: TaskEventStream): Promise<Watched | Fallback> {
    const { signal } = this.options;
    const stop = () => void stream.close();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      if (this.options.act) {
        if (!(await this.live(stream)))
          return { fallback: `the subscription ended before its first event (${describeEnd(stream.end!)})` };
        if (!(await this.act())) return { ...unreached(stream), stopped: true };
      }
      try {
        const seen = await stream.waitFor(
          (e) => e.receivedAt >= this.since && this.holds(e),
          Math.max(1, this.deadline - performance.now()),
        );
        return seenOnStream(stream, seen);
      } catch (err) {
        const end = stream.end;
        // Still open at the bound (or closed by the rig): the stream shows the task did not get there.
        if (end === undefined || end.reason === 'closed' || signal?.aborted)
          return { ...unreached(stream), missed: (err as Error).message };
        const awaited = this.options.awaited ?? 'the awaited state';
        return { fallback: `the subscription ended before ${awaited} (${describeEnd(end)})` };
      }
    } finally {
      signal?.removeEventListener('abort', stop);
      await stream.close();
    }
  }

  /**
   * Waits for the first event: a live stream's snapshot comes right behind its headers. None yet: an
   * open stream may still carry what is awaited (agents that send no snapshot); an ended one cannot.
   */
  private async live(stream: TaskEventStream): Promise<boolean> {
    try {
      await stream.waitFor(() => true, Math.max(1, this.deadline - performance.now()));
      return true;
    } catch {
      return stream.end === undefined;
    }
  }

  private holds(e: ReceivedEvent): boolean {
    const status = statusOfEvent(e.event);
    return status !== undefined && this.until({ status, ...('task' in e.event ? { task: e.event.task } : {}) });
  }

  /** GetTask until `until` holds, the deadline passes or the signal aborts; at least once. */
  private async poll(fallback: Fallback): Promise<Watched> {
    if (!(await this.act())) return { reached: false, via: 'poll', events: [], stopped: true, ...fallback };
    const { signal } = this.options;
    let last: Task | undefined;
    // What was awaited happened after the last GetTask that did not show it was sent.
    let notYetAt = this.since;
    for (;;) {
      const sentAt = performance.now();
      const got = await this.client.getTask(this.taskId, { signal });
      if (got.ok) {
        last = got.value;
        if (this.until({ status: last.status, task: last })) {
          const seenAt = got.meta.completedAt;
          const seen = { status: last.status, task: last, seenAt, pollResolutionMs: seenAt - notYetAt };
          return { reached: true, via: 'poll', ...seen, events: [], ...fallback };
        }
        notYetAt = sentAt;
      } else if (this.options.stopOnReadError) {
        return { reached: false, via: 'poll', ...lastSeen(last), events: [], readError: got.error, ...fallback };
      }
      if (performance.now() >= this.deadline || signal?.aborted) break;
      await pause(this.options.pollIntervalMs, signal);
    }
    return { reached: false, via: 'poll', ...lastSeen(last), events: [], ...fallback };
  }
}

function lastSeen(task: Task | undefined): Pick<Watched, 'status' | 'task'> {
  return task ? { status: task.status, task } : {};
}

function seenOnStream(stream: TaskEventStream, seen: ReceivedEvent): Watched {
  const events = stream.events.slice(0, stream.events.indexOf(seen) + 1);
  const task = 'task' in seen.event ? seen.event.task : undefined;
  return { reached: true, via: 'stream', status: statusOfEvent(seen.event), task, seenAt: seen.receivedAt, events };
}

/** A stream watch that ended without the awaited sighting: the last status and snapshot it showed. */
function unreached(stream: TaskEventStream): Watched {
  let status: TaskStatus | undefined;
  let task: Task | undefined;
  for (const { event } of stream.events) {
    status = statusOfEvent(event) ?? status;
    if ('task' in event) task = event.task;
  }
  return { reached: false, via: 'stream', status, task, events: stream.events.slice() };
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
