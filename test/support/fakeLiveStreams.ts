// Live subscriptions for the fake SDK agent (fakeSdkAgent.ts), in the stream shapes A2A allows and
// SDKs really send: the task's state as status updates or as whole Task snapshots; the current task
// first (the open prompt replayed) or only what happens next; and the response head flushed at once
// or only with the first event, as an SDK that writes nothing before its first event does — such a
// subscription to a parked task that replays nothing sends not even a status line until the resume.
import type { ServerResponse } from 'node:http';

export interface LiveShape {
  /** Each transition as a whole Task snapshot instead of a status update (a correct shape). */
  snapshots: boolean;
  /** The current task first, as a snapshot (so the open prompt is replayed). */
  replay: boolean;
  /** The response head goes out with the first event, not at once. */
  headersWithFirstEvent: boolean;
}

export interface LiveTask {
  id: string;
  contextId: string;
  /** The task as the agent's GetTask renders it (v1.0), for snapshots. */
  json(): Record<string, unknown>;
}

interface Subscriber {
  res: ServerResponse;
  id: unknown;
}

const TERMINAL = new Set(['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED']);

export class LiveStreams {
  private readonly byTask = new Map<string, Set<Subscriber>>();

  constructor(private readonly shape: LiveShape) {}

  /** Serves SubscribeToTask on `task` (v1.0 JSON-RPC framing). */
  open(res: ServerResponse, id: unknown, task: LiveTask): void {
    const subscriber = { res, id };
    const set = this.byTask.get(task.id) ?? new Set<Subscriber>();
    this.byTask.set(task.id, set.add(subscriber));
    res.on('close', () => set.delete(subscriber));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (this.shape.replay) this.write(subscriber, { task: task.json() });
    // Node sends the head with the first body write; without one, only a flush sends it now.
    else if (!this.shape.headersWithFirstEvent) res.flushHeaders();
  }

  /**
   * Tells every subscriber of `task` that it moved to `state`; a snapshot `repeat` more times (a
   * re-sent view that is no new transition). Ends the streams at a terminal state.
   */
  publish(task: LiveTask, state: string, repeat = 0): void {
    const event = this.shape.snapshots
      ? { task: { ...task.json(), status: { state } } }
      : { statusUpdate: { taskId: task.id, contextId: task.contextId, status: { state } } };
    for (const subscriber of this.byTask.get(task.id) ?? []) {
      for (let i = 0; i <= (this.shape.snapshots ? repeat : 0); i++) this.write(subscriber, event);
      if (TERMINAL.has(state)) subscriber.res.end();
    }
  }

  private write(subscriber: Subscriber, result: unknown): void {
    subscriber.res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: subscriber.id, result })}\n\n`);
  }
}
