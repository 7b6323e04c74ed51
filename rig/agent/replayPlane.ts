// The replay plane (the spec's outbox, ADR-014 style): a WebSocket at
// /events?task=<taskId>&since=<seq>[&version=1.0] that sends every stored event of the task with
// seq > since, in order, then live ones, each as {seq, eventId, taskId, event}. The subscription is
// taken before the stored events are read (both synchronous), so nothing falls between them.
// Bounded like the SSE streams: a socket takes a StreamQuota slot (closed with 1013 beyond it), and
// a reader whose unread output (ws.bufferedAmount) passes StreamQuota.bufferBound() is terminated.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { TERMINAL_STATES, type Generation, type Task } from '../protocol/a2aTypes.ts';
import { streamEventOnWire } from '../protocol/wireGenerations.ts';
import type { FaultSet } from './faults.ts';
import { logUnexpected } from './httpGuards.ts';
import type { StoredEvent } from './outbox.ts';
import type { TaskEngine } from './taskEngine.ts';

export const CLOSE_TASK_NOT_FOUND = 4404;
export const CLOSE_BAD_REQUEST = 4400;
export const CLOSE_TASK_ENDED = 1000;
/** Too many open streams (per task or in total): try again later. */
export const CLOSE_TRY_AGAIN_LATER = 1013;

/** Applies the replay faults to the stored (replayed) part only; live events stay correct. */
function replayedWithFaults(events: StoredEvent[], faults: FaultSet): StoredEvent[] {
  if (faults.has('drop-replay') && events.length >= 2) return [events[0], ...events.slice(2)];
  if (faults.has('reorder-replay') && events.length >= 2) return [events[1], events[0], ...events.slice(2)];
  return events;
}

export class ReplayPlane {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });

  constructor(
    private readonly engine: TaskEngine,
    private readonly echoHeaders: (req: IncomingMessage) => string[],
  ) {
    this.wss.on('headers', (headers, req) => headers.push(...this.echoHeaders(req)));
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL, generation: Generation): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      // Before anything can close the socket early: a malformed frame from the client is an
      // 'error' on the WebSocket, and one without a listener would end the process.
      ws.on('error', () => ws.terminate());
      // The catch-up reads stored events: it runs once nothing uncommitted is left to read
      // (outbox.ts, group commit), so a replay never sends an event a crash could still take back.
      this.engine.outbox.whenIdle((failed) => {
        if (ws.readyState !== ws.OPEN) return;
        if (failed) return ws.close(1011, 'internal error');
        try {
          this.serve(ws, url, generation);
        } catch (err) {
          // After the 101 an HTTP refusal is no longer possible: the socket closes with 1011.
          logUnexpected('replay plane', err);
          ws.close(1011, 'internal error');
        }
      });
    });
  }

  private serve(ws: WebSocket, url: URL, generation: Generation): void {
    const taskId = url.searchParams.get('task');
    const sinceRaw = url.searchParams.get('since') ?? '0';
    if (!taskId) return ws.close(CLOSE_BAD_REQUEST, 'query parameter "task" is required');
    if (!/^\d{1,15}$/.test(sinceRaw))
      return ws.close(CLOSE_BAD_REQUEST, '"since" must be a non-negative integer below 10^15');
    const row = this.engine.outbox.getTask(taskId);
    if (!row) return ws.close(CLOSE_TASK_NOT_FOUND, `task ${taskId} not found`);
    let release: () => void;
    try {
      release = this.engine.streams.acquire(taskId);
    } catch (err) {
      return ws.close(CLOSE_TRY_AGAIN_LATER, (err as Error).message.slice(0, 120));
    }
    let lastSent = Number(sinceRaw);
    let cut = false;
    const send = (event: StoredEvent) => {
      if (cut) return;
      ws.send(
        JSON.stringify({
          seq: event.seq,
          eventId: event.eventId,
          taskId,
          event: streamEventOnWire(event.event, generation),
        }),
      );
      lastSent = Math.max(lastSent, event.seq);
      if (ws.bufferedAmount > this.engine.streams.bufferBound()) {
        cut = true;
        ws.terminate();
      }
    };
    const endIfTerminal = (task: Task) => {
      if (!cut && TERMINAL_STATES.has(task.status.state)) ws.close(CLOSE_TASK_ENDED, 'task reached a terminal state');
    };
    const unsubscribe = this.engine.events.subscribe(taskId, (event, task) => {
      if (event.seq <= lastSent || ws.readyState !== ws.OPEN) return;
      send(event);
      endIfTerminal(task);
    });
    const done = () => {
      unsubscribe();
      release();
    };
    ws.on('close', done);
    ws.on('error', done);
    const faulty = this.engine.faults.has('drop-replay') || this.engine.faults.has('reorder-replay');
    const stored = faulty
      ? replayedWithFaults(this.engine.outbox.eventsSince(taskId, lastSent), this.engine.faults)
      : this.engine.outbox.iterateEventsSince(taskId, lastSent);
    for (const event of stored) {
      send(event);
      if (cut) break;
    }
    endIfTerminal(this.engine.getRow(taskId).task);
  }

  close(): void {
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
  }
}
