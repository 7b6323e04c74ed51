// One stream of a task's events (an SSE response or a gRPC server stream: EventSink): the task
// snapshot first, then every event committed after it, in seq order, with no gap and no repeat
// (events that arrive while the snapshot is taken are buffered and filtered by seq). `closeWhen`
// decides when the stream ends.
// Bounded against readers that do not read: the stream takes a slot of the engine's StreamQuota
// (refused with A2A_TOO_MANY_STREAMS beyond it), its snapshot is a bounded view of the task, and
// once more than its share of the buffer budget (StreamQuota.bufferBound) waits unread in the
// sink (EventSink.pending) the reader is cut: on SSE the connection is destroyed (the reader sees
// the stream end without a terminal event), on gRPC the call ends RESOURCE_EXHAUSTED; never
// buffered further.
import type { ServerResponse } from 'node:http';
import type { JsonObject, StreamResponse, Task, TaskState } from '../protocol/a2aTypes.ts';
import type { TaskEngine } from './taskEngine.ts';
import type { StoredEvent } from './outbox.ts';

const HEARTBEAT_MS = 15_000;

/** Where a task stream goes: the binding's framing of an open, events, keep-alives and the end. */
export interface EventSink {
  /** Starts the stream (SSE: the 200 head) before the first event. */
  open(): void;
  /** Starts it with no event to follow yet: SSE flushes the head so the client sees 200 now. */
  openEmpty(): void;
  event(event: StreamResponse, id?: string): void;
  heartbeat(): void;
  /** Bytes written that the reader has not taken yet. */
  pending(): number;
  /** Ends the stream; `cut` drops the reader without a proper end. */
  close(cut: boolean): void;
  /** Runs once the stream is gone, whichever side ended it. */
  onClose(listener: () => void): void;
}

/** The SSE framing: `frame` serializes one StreamResponse into the body of a `data:` line. */
export function sseSink(res: ServerResponse, frame: (event: StreamResponse) => JsonObject): EventSink {
  return {
    open: () =>
      res.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache',
        Connection: 'keep-alive',
      }),
    openEmpty() {
      this.open();
      res.flushHeaders();
    },
    event: (event, id) => void res.write(`${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(frame(event))}\n\n`),
    heartbeat: () => void res.write(': keep-alive\n\n'),
    pending: () => res.writableLength,
    close: (cut) => (cut ? res.destroy() : res.end()),
    onClose: (listener) => void res.on('close', listener),
  };
}

export interface TaskStreamOptions {
  engine: TaskEngine;
  taskId: string;
  sink: EventSink;
  closeWhen: (state: TaskState) => boolean;
  /** Runs after the subscription is in place and before the snapshot (e.g. accepting an answer). */
  before?: () => void;
  /** false: no snapshot first, live events only (the silent-resubscribe fault). */
  snapshot?: boolean;
}

export function openTaskStream(options: TaskStreamOptions): void {
  const { engine, sink, closeWhen } = options;
  const buffered: Array<[StoredEvent, Task]> = [];
  let live = false;
  let ended = false;
  let snapshotSeq = 0;
  let unsubscribe = () => {};
  // Starts once the head is written; end() clears whatever is there by then.
  let heartbeat: NodeJS.Timeout | undefined = undefined;
  const { taskId } = options;
  const release = engine.streams.acquire(taskId);

  const end = (cut = false) => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    unsubscribe();
    release();
    sink.close(cut);
  };
  /** Writes one chunk; cuts the reader once its unread output passes the bound. */
  const send = (write: () => void) => {
    if (ended) return;
    write();
    if (sink.pending() > engine.streams.bufferBound()) end(true);
  };
  const write = (event: StoredEvent, task: Task) => {
    if (ended || event.seq <= snapshotSeq) return;
    send(() => sink.event(event.event, `${event.taskId}:${event.seq}`));
    if (closeWhen(task.status.state)) end();
  };

  unsubscribe = engine.events.subscribe(taskId, (event, task) =>
    live ? write(event, task) : buffered.push([event, task]),
  );
  let row;
  try {
    options.before?.();
    row = engine.getRow(taskId);
  } catch (err) {
    unsubscribe();
    release();
    throw err;
  }
  sink.onClose(() => end());
  snapshotSeq = row.lastSeq;
  heartbeat = setInterval(() => send(() => sink.heartbeat()), HEARTBEAT_MS);
  if (options.snapshot !== false) {
    sink.open();
    send(() => sink.event({ task: engine.view(row) }));
  }
  // Without a snapshot nothing else would send the head: the client sees 200 now, then silence.
  else sink.openEmpty();
  if (ended) return;
  if (closeWhen(row.task.status.state)) return end();
  for (const [event, task] of buffered) write(event, task);
  live = true;
}
