// The outbox's task-row cache (write-through, LRU, bounded by count and bytes): this process
// writes every change through the same TaskRow object, so a row read again costs no SELECT and no
// JSON.parse, and seq and history counts live in the row and are written with it (outbox.ts).
// Also the history tail a cached row keeps for its views.
import type { Message } from '../protocol/a2aTypes.ts';
import type { TaskRow } from './taskRow.ts';

/** Bounds of the cache (Outbox option `cache`; the agent passes limits.taskCacheRows and
 * taskCacheBytes, agentLimits.ts). */
export interface TaskCacheLimits {
  /** Rows kept at most. */
  rows: number;
  /** Approximate bytes (stored JSON of task, script, artifacts and history tail) kept at most. */
  bytes: number;
}

export const DEFAULT_TASK_CACHE: TaskCacheLimits = Object.freeze({ rows: 16_384, bytes: 32 * 1024 * 1024 });

/** History a cached row keeps in memory for its views: at most this many newest messages and bytes.
 * A view asking for more than the tail holds reads the history table as before. */
const HISTORY_TAIL_ENTRIES = 16;
const HISTORY_TAIL_BYTES = 32 * 1024;

interface Cached {
  row: TaskRow;
  bytes: number;
}

export class TaskRowCache {
  private readonly rows = new Map<string, Cached>();
  private bytes = 0;

  /** `onClear` runs whenever the cache is dropped (what else is kept beside the rows goes too). */
  constructor(
    private readonly limits: TaskCacheLimits,
    private readonly onClear: () => void = () => {},
  ) {}

  get size(): number {
    return this.rows.size;
  }

  /** The cached row, now the most recently used. */
  get(id: string): TaskRow | undefined {
    const cached = this.rows.get(id);
    if (!cached) return undefined;
    // Most recently used last: eviction takes from the front.
    this.rows.delete(id);
    this.rows.set(id, cached);
    return cached.row;
  }

  /** The cached row, without counting as a use. */
  peek(id: string): TaskRow | undefined {
    return this.rows.get(id)?.row;
  }

  remember(row: TaskRow, bytes: number): void {
    const old = this.rows.get(row.task.id);
    if (old) this.bytes -= old.bytes;
    this.rows.delete(row.task.id);
    this.rows.set(row.task.id, { row, bytes });
    this.bytes += bytes;
    this.evict();
  }

  /** Counts `delta` more bytes for the row, if it is the one cached. */
  grow(row: TaskRow, delta: number): void {
    const cached = this.rows.get(row.task.id);
    if (!cached || cached.row !== row) return;
    cached.bytes += delta;
    this.bytes += delta;
    this.evict();
  }

  clear(): void {
    this.rows.clear();
    this.bytes = 0;
    this.onClear();
  }

  /** Drops least recently used rows past either bound; the newest row always stays (the caller
   * holds it), and a dropped one is read back whole when next asked for. */
  private evict(): void {
    const { rows, bytes } = this.limits;
    while (this.rows.size > 1 && (this.rows.size > rows || this.bytes > bytes)) {
      const [id, oldest] = this.rows.entries().next().value as [string, Cached];
      this.rows.delete(id);
      this.bytes -= oldest.bytes;
    }
  }
}

/** The bytes of the row's history tail. A row is cached when it is stored (insertTask), and a task
 * whose first steps ran in the transaction that creates it appended its messages before that. */
export function tailBytes(row: TaskRow): number {
  let bytes = 0;
  for (const t of row.tail ?? []) bytes += t.bytes;
  return bytes;
}

/** Adds a message just appended to the row's history to its tail; returns the bytes the tail grew by. */
export function keepInTail(row: TaskRow, message: Message, bytes: number): number {
  const tail = row.tail!;
  let held = 0;
  for (const t of tail) held += t.bytes;
  const before = held;
  tail.push({ message, bytes });
  held += bytes;
  let drop = 0;
  while (tail.length - drop > HISTORY_TAIL_ENTRIES || (held > HISTORY_TAIL_BYTES && tail.length - drop > 0)) {
    held -= tail[drop].bytes;
    drop += 1;
  }
  if (drop > 0) tail.splice(0, drop);
  return held - before;
}

/** Outbox.recentHistory from the row's tail, or undefined when the answer may need older messages. */
export function recentFromTail(row: TaskRow, maxEntries: number, maxBytes: number): Message[] | undefined {
  const tail = row.tail;
  if (!tail) return undefined;
  let bytes = 0;
  let from = tail.length;
  while (from > 0 && tail.length - from < maxEntries) {
    if (bytes + tail[from - 1].bytes > maxBytes) break;
    bytes += tail[from - 1].bytes;
    from -= 1;
  }
  // Ran out of tail while the stored history goes further back: only the table can answer.
  if (from === 0 && tail.length < row.historyCount && tail.length < maxEntries) return undefined;
  return tail.slice(from).map((t) => t.message);
}
