// One SSE stream of a task's events: the task snapshot first, then every event committed after it,
// in seq order, with no gap and no repeat (events that arrive while the snapshot is taken are
// buffered and filtered by seq). `closeWhen` decides when the stream ends.
// Bounded against readers that do not read: the stream takes a slot of the engine's StreamQuota
// (refused with A2A_TOO_MANY_STREAMS beyond it), its snapshot is a bounded view of the task, and
// once more than its share of the buffer budget (StreamQuota.bufferBound) waits in the response's
// buffer the reader is cut: the
// connection is destroyed (the reader sees the stream end without a terminal event), never
// buffered further.
import type { ServerResponse } from 'node:http';
import type { JsonObject, StreamResponse, Task, TaskState } from '../protocol/a2aTypes.ts';
import type { TaskEngine } from './taskEngine.ts';
import type { StoredEvent } from './outbox.ts';

const HEARTBEAT_MS = 15_000;

export interface TaskStreamOptions {
  engine: TaskEngine;
  taskId: string;
  res: ServerResponse;
  /** Serializes one StreamResponse into the body of an SSE `data:` line. */
  frame: (event: StreamResponse) => JsonObject;
  closeWhen: (state: TaskState) => boolean;
  /** Runs after the subscription is in place and before the snapshot (e.g. accepting an answer). */
  before?: () => void;
  /** false: no snapshot first, live events only (the silent-resubscribe fault). */
  snapshot?: boolean;
}

export function openTaskStream(options: TaskStreamOptions): void {
  const { engine, res, frame, closeWhen } = options;
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
    if (cut) res.destroy();
    else res.end();
  };
  /** Writes one chunk; cuts the reader once its unread output passes the bound. */
  const send = (text: string) => {
    if (ended) return;
    res.write(text);
    if (res.writableLength > engine.streams.bufferBound()) end(true);
  };
  const write = (event: StoredEvent, task: Task) => {
    if (ended || event.seq <= snapshotSeq) return;
    send(`id: ${event.taskId}:${event.seq}\ndata: ${JSON.stringify(frame(event.event))}\n\n`);
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
  res.on('close', () => end());
  snapshotSeq = row.lastSeq;
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  heartbeat = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS);
  if (options.snapshot !== false) send(`data: ${JSON.stringify(frame({ task: engine.view(row) }))}\n\n`);
  // Without a snapshot nothing else would send the head: the client sees 200 now, then silence.
  else res.flushHeaders();
  if (ended) return;
  if (closeWhen(row.task.status.state)) return end();
  for (const [event, task] of buffered) write(event, task);
  live = true;
}
