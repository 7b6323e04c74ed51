// One SSE stream of a task's events: the task snapshot first, then every event committed after it,
// in seq order, with no gap and no repeat (events that arrive while the snapshot is taken are
// buffered and filtered by seq). `closeWhen` decides when the stream ends.
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
}

export function openTaskStream(options: TaskStreamOptions): void {
  const { engine, res, frame, closeWhen } = options;
  const buffered: Array<[StoredEvent, Task]> = [];
  let live = false;
  let ended = false;
  let snapshotSeq = 0;
  let unsubscribe = () => {};
  let heartbeat: NodeJS.Timeout | undefined;

  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    unsubscribe();
    res.end();
  };
  const write = (event: StoredEvent, task: Task) => {
    if (ended || event.seq <= snapshotSeq) return;
    res.write(`id: ${event.taskId}:${event.seq}\ndata: ${JSON.stringify(frame(event.event))}\n\n`);
    if (closeWhen(task.status.state)) end();
  };

  const { taskId } = options;
  unsubscribe = engine.events.subscribe(taskId, (event, task) => (live ? write(event, task) : buffered.push([event, task])));
  let row;
  try {
    options.before?.();
    row = engine.getRow(taskId);
  } catch (err) {
    unsubscribe();
    throw err;
  }
  res.on('close', end);
  snapshotSeq = row.lastSeq;
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  res.write(`data: ${JSON.stringify(frame({ task: row.task }))}\n\n`);
  if (closeWhen(row.task.status.state)) return end();
  for (const [event, task] of buffered) write(event, task);
  live = true;
}
