// The event history: every event every connection of the rig saw, in the order the rig saw them,
// with the connection, its kind, the task, the agent's seq and eventId where the wire carries them,
// and a monotonic receive time. The replay checker and the scenario verdicts read it; nothing here
// judges. Memory is bounded, by estimated heap bytes (`jsonWeight`) as well as by count: a stream or
// replay socket whose events outweigh `maxConnectionBytes`, or the streams and sockets of a task
// past `maxTaskBytes`, fail with RetentionBoundError (the connection ends with that reason); past
// `maxRunBytes` or `maxEntries` further events are counted in `dropped`, not kept.
import type { StreamResponse } from '../protocol/a2aTypes.ts';
import { jsonWeight } from '../protocol/jsonNesting.ts';

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
  /** Estimated heap bytes of the events it delivered. */
  bytes: number;
}

export interface HistoryFilter {
  taskId?: string;
  connectionId?: string;
  kind?: ConnectionKind;
}

export type NewEntry = Omit<HistoryEntry, 'index'>;

export const DEFAULT_MAX_HISTORY_ENTRIES = 1_000_000;

export interface HistoryBounds {
  /** Events kept in all. */
  maxEntries: number;
  /** Estimated heap bytes one SSE stream or replay socket may deliver (it fails past them). */
  maxConnectionBytes: number;
  /** Estimated heap bytes the streams and sockets of one task may deliver (the one past them fails). */
  maxTaskBytes: number;
  /** Estimated heap bytes kept in all (later events are counted as dropped, not kept). */
  maxRunBytes: number;
}

const MiB = 1024 * 1024;

/**
 * Sized so that every bound together stays far below the rig's 512 MB memory ceiling: a hostile
 * agent's stream costs at most 32 MiB, its task 64, and the history of a scenario 192.
 */
export const DEFAULT_HISTORY_BOUNDS: Readonly<HistoryBounds> = Object.freeze({
  maxEntries: DEFAULT_MAX_HISTORY_ENTRIES,
  maxConnectionBytes: 32 * MiB,
  maxTaskBytes: 64 * MiB,
  maxRunBytes: 192 * MiB,
});

/** An event the history will not keep because a connection or task outweighed its bound. */
export class RetentionBoundError extends Error {
  override name = 'RetentionBoundError';
}

/** Per-entry bookkeeping beyond the event itself (the entry object, its strings). */
const ENTRY_WEIGHT = 256;

export class EventHistory {
  private readonly log: HistoryEntry[] = [];
  private readonly byConnection = new Map<string, ConnectionRecord>();
  private readonly counters = new Map<ConnectionKind, number>();
  private readonly taskBytes = new Map<string, number>();
  private keptBytes = 0;
  private droppedCount = 0;
  private unkeptCount = 0;
  private readonly bounds: HistoryBounds;

  /**
   * `keepResponses: false` is for a load's own client: its unary replies (thousands a second, each
   * checked as it arrives) are counted in `unkeptResponses`, not kept, and neither are their
   * connections; kept, they would fill the heap and make garbage collection the rig's largest cost.
   */
  constructor(
    bounds: number | Partial<HistoryBounds> = {},
    private readonly keepResponses = true,
  ) {
    this.bounds = { ...DEFAULT_HISTORY_BOUNDS, ...(typeof bounds === 'number' ? { maxEntries: bounds } : bounds) };
  }

  /** Registers a connection and returns its id (`sse-1`, `replay-3`, `response-12`...). */
  openConnection(kind: ConnectionKind, taskId?: string, details: { since?: number } = {}): string {
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    const connectionId = `${kind}-${n}`;
    if (kind === 'response' && !this.keepResponses) return connectionId;
    this.byConnection.set(connectionId, {
      connectionId,
      kind,
      taskId,
      since: details.since,
      openedAt: performance.now(),
      closedAt: undefined,
      closeReason: undefined,
      events: 0,
      bytes: 0,
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

  /**
   * Keeps an event, or counts it as dropped. Throws RetentionBoundError (keeping nothing) when an
   * SSE stream or replay socket, or the streams and sockets of its task, outweigh their bound: the
   * connection must end. Unary responses are each bounded by the transport and only dropped.
   */
  record(entry: NewEntry): HistoryEntry | undefined {
    if (entry.kind === 'response' && !this.keepResponses) {
      this.unkeptCount += 1;
      return undefined;
    }
    const record = this.byConnection.get(entry.connectionId);
    const weight = ENTRY_WEIGHT + jsonWeight(entry.event);
    if (record) {
      record.events += 1;
      record.taskId ??= entry.taskId;
      record.bytes += weight;
    }
    const { maxConnectionBytes, maxTaskBytes } = this.bounds;
    // Unary responses (each bounded by the transport) do not count toward their task: a GetTask
    // poll of a big task must not cut a later stream of it.
    const streamed = entry.kind !== 'response';
    const taskBytes = entry.taskId === undefined || !streamed ? 0 : (this.taskBytes.get(entry.taskId) ?? 0) + weight;
    if (streamed) {
      if (record && record.bytes > maxConnectionBytes) {
        throw new RetentionBoundError(
          `its events weigh more than ${maxConnectionBytes / MiB} MiB once parsed ` +
            `(the rig keeps at most ${maxConnectionBytes / MiB} MiB per connection); ` +
            `the rig cut it off after ${record.events} events`,
        );
      }
      if (taskBytes > maxTaskBytes) {
        throw new RetentionBoundError(
          `the events of task ${entry.taskId} weigh more than ${maxTaskBytes / MiB} MiB once parsed ` +
            `(the rig keeps at most ${maxTaskBytes / MiB} MiB per task); the rig cut this connection off`,
        );
      }
    }
    if (this.log.length >= this.bounds.maxEntries || this.keptBytes + weight > this.bounds.maxRunBytes) {
      this.droppedCount += 1;
      return undefined;
    }
    if (entry.taskId !== undefined && streamed) this.taskBytes.set(entry.taskId, taskBytes);
    this.keptBytes += weight;
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
      (c) =>
        (filter.taskId === undefined || c.taskId === filter.taskId) &&
        (filter.kind === undefined || c.kind === filter.kind),
    );
  }

  /** The `since` cursor of each replay connection of a task (what the replay checker needs). */
  replayCursors(taskId: string): Map<string, number> {
    return new Map(this.connections({ kind: 'replay', taskId }).map((c) => [c.connectionId, c.since ?? 0]));
  }

  get size(): number {
    return this.log.length;
  }

  /** Estimated heap bytes of the events kept. */
  get keptWeight(): number {
    return this.keptBytes;
  }

  /** Events seen after the history was full; non-zero means the history is incomplete. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Unary replies seen but not kept (a history made with `keepResponses: false`). */
  get unkeptResponses(): number {
    return this.unkeptCount;
  }

  clear(): void {
    this.log.length = 0;
    this.byConnection.clear();
    this.counters.clear();
    this.taskBytes.clear();
    this.keptBytes = 0;
    this.droppedCount = 0;
    this.unkeptCount = 0;
  }
}
