// The event history: every event every connection of the rig saw, in the order the rig saw them,
// with the connection, its kind, the task, the agent's seq and eventId where the wire carries them,
// and a monotonic receive time. The replay checker and the scenario verdicts read it; nothing here
// judges. Memory is bounded: past `maxEntries` further events are counted, not kept.
import type { StreamResponse } from '../protocol/a2aTypes.ts';

/** Where an event came from: an SSE stream, the WebSocket replay plane, or a unary response. */
export type ConnectionKind = 'sse' | 'replay' | 'response';

export interface HistoryEntry {
  /** Position in the whole history (0-based), i.e. the global receive order. */
  readonly index: number;
  readonly connectionId: string;
  readonly kind: ConnectionKind;
  readonly taskId: string | undefined;
  /** The agent's per-task sequence number, when the wire carries one (replay frames; SSE ids `<task>:<seq>`). */
  readonly seq: number | undefined;
  /** The agent's event id (replay frames) or the SSE `id:` field. */
  readonly eventId: string | undefined;
  /** `performance.now()` when the event was parsed, in milliseconds. */
  readonly receivedAt: number;
  /** The event in canonical (v1.0) shape. */
  readonly event: StreamResponse;
}

export interface ConnectionRecord {
  readonly connectionId: string;
  readonly kind: ConnectionKind;
  /** The task the connection is about: given at open time, or learned from its first event. */
  taskId: string | undefined;
  /** Replay connections: the `since` cursor they asked for (events after it are expected, in order). */
  readonly since: number | undefined;
  readonly openedAt: number;
  closedAt: number | undefined;
  /** Why it ended: 'ended by agent', 'closed by rig', an error message, a WebSocket close code... */
  closeReason: string | undefined;
  events: number;
}

export interface HistoryFilter {
  taskId?: string;
  connectionId?: string;
  kind?: ConnectionKind;
}

export type NewEntry = Omit<HistoryEntry, 'index'>;

export const DEFAULT_MAX_HISTORY_ENTRIES = 1_000_000;

export class EventHistory {
  private readonly log: HistoryEntry[] = [];
  private readonly byConnection = new Map<string, ConnectionRecord>();
  private readonly counters = new Map<ConnectionKind, number>();
  private droppedCount = 0;

  constructor(private readonly maxEntries = DEFAULT_MAX_HISTORY_ENTRIES) {}

  /** Registers a connection and returns its id (`sse-1`, `replay-3`, `response-12`...). */
  openConnection(kind: ConnectionKind, taskId?: string, details: { since?: number } = {}): string {
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    const connectionId = `${kind}-${n}`;
    this.byConnection.set(connectionId, {
      connectionId,
      kind,
      taskId,
      since: details.since,
      openedAt: performance.now(),
      closedAt: undefined,
      closeReason: undefined,
      events: 0,
    });
    return connectionId;
  }

  /** Marks a connection closed; the first reason given wins. */
  closeConnection(connectionId: string, reason: string): void {
    const record = this.byConnection.get(connectionId);
    if (!record || record.closedAt !== undefined) return;
    record.closedAt = performance.now();
    record.closeReason = reason;
  }

  record(entry: NewEntry): HistoryEntry | undefined {
    const record = this.byConnection.get(entry.connectionId);
    if (record) {
      record.events += 1;
      record.taskId ??= entry.taskId;
    }
    if (this.log.length >= this.maxEntries) {
      this.droppedCount += 1;
      return undefined;
    }
    const stored: HistoryEntry = Object.freeze({ ...entry, index: this.log.length });
    this.log.push(stored);
    return stored;
  }

  /** Entries in receive order, optionally filtered. */
  entries(filter: HistoryFilter = {}): HistoryEntry[] {
    return this.log.filter(
      (e) =>
        (filter.taskId === undefined || e.taskId === filter.taskId) &&
        (filter.connectionId === undefined || e.connectionId === filter.connectionId) &&
        (filter.kind === undefined || e.kind === filter.kind),
    );
  }

  connection(connectionId: string): Readonly<ConnectionRecord> | undefined {
    return this.byConnection.get(connectionId);
  }

  /** Connections in the order they were opened, optionally filtered. */
  connections(filter: Omit<HistoryFilter, 'connectionId'> = {}): Readonly<ConnectionRecord>[] {
    return [...this.byConnection.values()].filter(
      (c) => (filter.taskId === undefined || c.taskId === filter.taskId) && (filter.kind === undefined || c.kind === filter.kind),
    );
  }

  /** The `since` cursor of each replay connection of a task (what the replay checker needs). */
  replayCursors(taskId: string): Map<string, number> {
    return new Map(this.connections({ kind: 'replay', taskId }).map((c) => [c.connectionId, c.since ?? 0]));
  }

  get size(): number {
    return this.log.length;
  }

  /** Events seen after the history was full; non-zero means the history is incomplete. */
  get dropped(): number {
    return this.droppedCount;
  }

  clear(): void {
    this.log.length = 0;
    this.byConnection.clear();
    this.counters.clear();
    this.droppedCount = 0;
  }
}
