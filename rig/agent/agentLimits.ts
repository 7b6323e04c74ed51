// The reference agent's resource bounds against amplification (issue 9 items 11 and 12): what one
// task may accumulate, what one view of a task carries, how many event streams may be open and
// how much one stream may buffer for a reader that does not read. Each is a plain number so a
// test (or an embedder) can lower it through startAgent's `limits`.

export interface AgentLimits {
  /** Messages one task's history may hold; a user message beyond it is refused (-32602). */
  maxHistoryEntries: number;
  /** Serialized bytes of one task's history; a user message beyond it is refused (-32602). */
  maxHistoryBytes: number;
  /** Serialized bytes of one task's artifacts; an artifact step beyond it fails the task. */
  maxArtifactBytes: number;
  /** History messages a task view (GetTask, SendMessage result, stream snapshot) carries at most. */
  viewHistoryEntries: number;
  /** Serialized history bytes a task view carries at most: the newest messages that fit. */
  viewHistoryBytes: number;
  /** ListTasks: default and largest pageSize. */
  listDefaultPageSize: number;
  listMaxPageSize: number;
  /** ListTasks: serialized bytes of the tasks one page carries; the page ends early beyond it. */
  listMaxBytes: number;
  /** Open event streams (SSE streams and replay sockets) on one task, and in total. */
  maxStreamsPerTask: number;
  maxStreamsTotal: number;
  /** Bytes queued for one stream reader (res.writableLength / ws.bufferedAmount) before it is cut. */
  maxStreamBufferBytes: number;
  /** Bytes queued for all stream readers together: with n streams open each may queue at most
   * min(maxStreamBufferBytes, this / n), so the sum stays under this plus one event per stream. */
  maxStreamBufferTotalBytes: number;
  /** Task rows the outbox keeps in memory (least recently used dropped first; outbox.ts), and the
   * approximate bytes of their stored JSON and history tails. Speed only: a dropped row is read back.
   * A row's heap is a small multiple of these bytes (docs/benchmarks.md, "Figures behind bounds in
   * the code"), so the byte bound is what caps memory for big tasks. */
  taskCacheRows: number;
  taskCacheBytes: number;
}

export const DEFAULT_AGENT_LIMITS: AgentLimits = Object.freeze({
  maxHistoryEntries: 10_000,
  maxHistoryBytes: 16 * 1024 * 1024,
  maxArtifactBytes: 1024 * 1024,
  viewHistoryEntries: 100,
  viewHistoryBytes: 256 * 1024,
  listDefaultPageSize: 50,
  listMaxPageSize: 100,
  listMaxBytes: 1024 * 1024,
  maxStreamsPerTask: 32,
  maxStreamsTotal: 1024,
  maxStreamBufferBytes: 2 * 1024 * 1024,
  maxStreamBufferTotalBytes: 128 * 1024 * 1024,
  taskCacheRows: 16_384,
  taskCacheBytes: 32 * 1024 * 1024,
});

/** The stream bounds the `unbounded-streams` fault lifts (whatever `limits` a caller passed). */
export function withoutStreamBounds(limits: AgentLimits): AgentLimits {
  return {
    ...limits,
    maxStreamsPerTask: Infinity,
    maxStreamsTotal: Infinity,
    maxStreamBufferBytes: Infinity,
    maxStreamBufferTotalBytes: Infinity,
  };
}
