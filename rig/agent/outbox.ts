// The durable outbox (ADR-014 style): task state, prompts and the per-task event log in SQLite
// (WAL). A state change and the event that announces it are written in one transaction, so a
// kill -9 can lose neither without the other.
// A task's history and artifacts live in rows of their own and are appended (or one artifact
// replaced), never rewritten with the task: a commit costs the same on a task of 20 MB as on a
// fresh one. `tasks.task_json` holds the rest of the task (status, ids, metadata).
//
// Group commit (groupCommit.ts): the transactions of one event-loop turn share one SQLite
// transaction; afterCommit()/whenIdle() hold what a caller learns until it is durable.
// Task rows are cached (taskRowCache.ts). Any failed transaction drops the whole cache (a row may
// have been changed in memory by what rolled back), and a commit by another connection (PRAGMA
// data_version) does too, so two processes may still share a file.
import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { GroupCommit, type AfterCommit } from './groupCommit.ts';
import { DEFAULT_TASK_CACHE, TaskRowCache, keepInTail, recentFromTail, tailBytes } from './taskRowCache.ts';
import { GateStore } from './gateStore.ts';
import { closeOutboxDatabase, openOutboxDatabase, type OutboxOptions } from './outboxDatabase.ts';
import { PromptStore } from './promptStore.ts';
import type { WalCheckpointer } from './walCheckpointer.ts';
import { coreJson, toTaskRow } from './taskRow.ts';
import type { Artifact, Message, StreamResponse, Task } from '../protocol/a2aTypes.ts';
import type { TaskRow } from './taskRow.ts';

export interface StoredEvent {
  seq: number;
  eventId: string;
  taskId: string;
  event: StreamResponse;
}
export type { AfterCommit } from './groupCommit.ts';
export type { TaskCacheLimits } from './taskRowCache.ts';
export type { TaskRow } from './taskRow.ts';

export class Outbox {
  private readonly db: Database.Database;
  private readonly stmt;
  private readonly inTransaction: (fn: () => unknown) => unknown;
  private readonly cache: TaskRowCache;
  private dataVersion = -1;
  private readonly batches: GroupCommit;
  /** Acceptance gates (gateStore.ts): same database, so they share its transactions. */
  readonly gates: GateStore;
  /** Prompts (promptStore.ts): same database, so they share its transactions. */
  readonly prompts: PromptStore;
  /** Checkpoints the WAL off the event loop (walCheckpointer.ts); none for an in-memory database. */
  readonly checkpointer: WalCheckpointer | undefined;
  /** Transactions that failed (and were rolled back) so far. */
  failedTransactions = 0;

  constructor(path: string, options: OutboxOptions = {}) {
    this.cache = new TaskRowCache(options.cache ?? DEFAULT_TASK_CACHE, () => this.prompts.forgetCached());
    const { db, eventsSchema, checkpointer } = openOutboxDatabase(path, options);
    this.db = db;
    this.checkpointer = checkpointer;
    this.gates = new GateStore(db);
    this.prompts = new PromptStore(db);
    this.inTransaction = db.transaction((fn: () => unknown) => fn());
    this.batches = new GroupCommit(db, { opened: () => this.forgetOthersWrites(), failed: () => this.cache.clear() });
    this.stmt = {
      insertTask: db.prepare(
        `INSERT INTO tasks (id, state, task_json, script_json, step, activated, ` +
          `last_seq, history_count, history_bytes) ` +
          `VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      updateTask: db.prepare(
        `UPDATE tasks SET state = ?, task_json = ?, step = ?, activated = ?, last_answer_json = ?, last_seq = ?, ` +
          `history_count = ?, history_bytes = ? WHERE id = ?`,
      ),
      appendHistory: db.prepare(`INSERT INTO task_history (task_id, idx, bytes, message_json) VALUES (?, ?, ?, ?)`),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
      // Sizes first, without touching message_json: SQLite reads a big row's overflow pages only
      // for the columns asked, so choosing what fits costs nothing per skipped megabyte.
      historySizes: db.prepare(`SELECT idx, bytes FROM task_history WHERE task_id = ? ORDER BY idx DESC LIMIT ?`),
      historyFrom: db.prepare(`SELECT message_json FROM task_history WHERE task_id = ? AND idx >= ? ORDER BY idx`),
      putArtifact: db.prepare(`INSERT OR REPLACE INTO task_artifacts (task_id, pos, artifact_json) VALUES (?, ?, ?)`),
      artifactsOf: db.prepare(`SELECT artifact_json FROM task_artifacts WHERE task_id = ? ORDER BY pos`),
      getTask: db.prepare(`SELECT * FROM tasks WHERE id = ?`),
      tasksInStates: db.prepare(`SELECT * FROM tasks WHERE state IN (SELECT value FROM json_each(?))`),
      listTasks: db.prepare(
        `SELECT id, task_json, COUNT(*) OVER () AS total FROM tasks
         WHERE (@state IS NULL OR state = @state) ` +
          `AND (@contextId IS NULL OR json_extract(task_json, '$.contextId') = @contextId)
         ORDER BY rowid DESC LIMIT @limit OFFSET @offset`,
      ),
      insertEvent: db.prepare(
        `INSERT INTO ${eventsSchema}.events (task_id, seq, event_id, event_json) VALUES (?, ?, ?, ?)`,
      ),
      eventsSince: db.prepare(
        `SELECT seq, event_id, event_json FROM ${eventsSchema}.events WHERE task_id = ? AND seq > ? ORDER BY seq`,
      ),
      countByState: db.prepare(`SELECT state, COUNT(*) AS n FROM tasks GROUP BY state`),
    };
  }

  /** Runs `fn` in one transaction (a savepoint of the turn's batch); everything it writes commits
   * together or not at all. Its writes are durable only once afterCommit's callbacks run. */
  transaction<T>(fn: () => T): T {
    this.batches.ensureOpen();
    try {
      return this.inTransaction(fn) as T;
    } catch (err) {
      this.failedTransactions += 1;
      this.cache.clear();
      throw err;
    }
  }

  /** True while writes of this turn wait for their COMMIT (what is read now may not be durable). */
  get uncommitted(): boolean {
    return this.batches.open;
  }

  /** Runs `fn` after the open batch commits, in the order asked; at once when none is open. */
  afterCommit(fn: AfterCommit): void {
    this.batches.afterCommit(fn);
  }

  /** Runs `fn` once no batch is open (everything it reads is committed). */
  whenIdle(fn: AfterCommit): void {
    this.batches.whenIdle(fn);
  }

  /** Commits the open batch now (it would on the next check phase) and runs what waited for it. */
  commitBatch(): void {
    this.batches.commit();
  }

  /** Stores a new task with its seq and history counts as they are in `row` (so call it after the
   * task's first appendHistory/appendEvent, in their transaction); the row is cached from now on. */
  insertTask(row: TaskRow): void {
    const core = coreJson(row.task);
    const script = JSON.stringify(row.script);
    this.stmt.insertTask.run(
      row.task.id,
      row.task.status.state,
      core,
      script,
      row.step,
      row.activated ? 1 : 0,
      row.lastSeq,
      row.historyCount,
      row.historyBytes,
    );
    this.cache.remember(row, core.length + script.length + 2 + tailBytes(row));
  }

  /** Appends one message to the stored history (call inside the commit's transaction, before the
   * updateTask that stores the row's new history counts). */
  appendHistory(row: TaskRow, message: Message): void {
    const text = JSON.stringify(message);
    const bytes = Buffer.byteLength(text);
    this.stmt.appendHistory.run(row.task.id, row.historyCount, bytes, text);
    // A fresh row (no history yet) starts its tail; a row read back has none (older messages unknown).
    if (row.historyCount === 0) row.tail = [];
    row.historyCount += 1;
    row.historyBytes += bytes;
    if (row.tail) this.cache.grow(row, keepInTail(row, message, bytes));
  }

  /** The newest history messages, oldest first: at most `maxEntries`, whose bytes fit `maxBytes`. */
  recentHistory(taskId: string, maxEntries: number, maxBytes: number): Message[] {
    if (maxEntries <= 0) return [];
    const cached = this.cache.peek(taskId);
    const fromTail = cached && recentFromTail(cached, maxEntries, maxBytes);
    if (fromTail) return fromTail;
    let bytes = 0;
    let from = -1;
    for (const r of this.stmt.historySizes.all(taskId, maxEntries) as Array<{ idx: number; bytes: number }>) {
      if (bytes + r.bytes > maxBytes) break;
      bytes += r.bytes;
      from = r.idx;
    }
    if (from < 0) return [];
    return (this.stmt.historyFrom.all(taskId, from) as Array<{ message_json: string }>).map(
      (r) => JSON.parse(r.message_json) as Message,
    );
  }

  /** Stores the artifact at position `pos` of the task (call inside the commit's transaction). */
  putArtifact(taskId: string, pos: number, artifact: Artifact): void {
    const text = JSON.stringify(artifact);
    this.stmt.putArtifact.run(taskId, pos, text);
    const cached = this.cache.peek(taskId);
    if (cached) this.cache.grow(cached, text.length);
  }

  artifactsOf(taskId: string): Artifact[] {
    return (this.stmt.artifactsOf.all(taskId) as Array<{ artifact_json: string }>).map(
      (r) => JSON.parse(r.artifact_json) as Artifact,
    );
  }

  /** Writes the whole row (state, task, step, answer, seq, history counts). */
  updateTask(row: TaskRow): void {
    const answer = row.lastAnswer === undefined ? null : JSON.stringify(row.lastAnswer);
    this.stmt.updateTask.run(
      row.task.status.state,
      coreJson(row.task),
      row.step,
      row.activated ? 1 : 0,
      answer,
      row.lastSeq,
      row.historyCount,
      row.historyBytes,
      row.task.id,
    );
  }

  /** The task's row: the cached object when there is one (the same object every caller changes and
   * writes through), else read and cached. */
  getTask(id: string): TaskRow | undefined {
    // Inside a batch the write lock is ours (BEGIN IMMEDIATE): nobody else commits; checked at BEGIN.
    if (!this.batches.open) this.forgetOthersWrites();
    const cached = this.cache.get(id);
    if (cached) return cached;
    const r = this.stmt.getTask.get(id) as Record<string, unknown> | undefined;
    return r ? this.load(r) : undefined;
  }

  tasksInStates(states: string[]): TaskRow[] {
    this.forgetOthersWrites();
    return (this.stmt.tasksInStates.all(JSON.stringify(states)) as Record<string, unknown>[]).map(
      (r) => this.cache.peek(r.id as string) ?? this.load(r),
    );
  }

  /** Rows cached now (for tests of the bound). */
  get cachedRows(): number {
    return this.cache.size;
  }

  private load(r: Record<string, unknown>): TaskRow {
    const artifacts = this.stmt.artifactsOf.all(r.id as string) as Array<{ artifact_json: string }>;
    const row = toTaskRow(
      r,
      artifacts.map((a) => JSON.parse(a.artifact_json) as Artifact),
    );
    let bytes = (r.task_json as string).length + (r.script_json as string).length;
    for (const a of artifacts) bytes += a.artifact_json.length;
    this.cache.remember(row, bytes);
    return row;
  }

  /** Another connection committed (two agents on one file): our rows may be stale. */
  private forgetOthersWrites(): void {
    const version = this.stmt.dataVersion.get() as number;
    if (version !== this.dataVersion) {
      if (this.dataVersion !== -1) this.cache.clear();
      this.dataVersion = version;
    }
  }

  /** Newest first, filtered; `total` counts every match, not just the page. Tasks come without
   * history and artifacts (historyOf / artifactsOf add them). */
  listTasks(
    filter: { state?: string; contextId?: string },
    limit: number,
    offset: number,
  ): { tasks: Task[]; total: number } {
    const rows = this.stmt.listTasks.all({
      state: filter.state ?? null,
      contextId: filter.contextId ?? null,
      limit,
      offset,
    }) as Array<{ task_json: string; total: number }>;
    return {
      tasks: rows.map((r) => ({ ...JSON.parse(r.task_json), history: [], artifacts: [] })),
      total: rows[0]?.total ?? 0,
    };
  }

  /** Appends the next event of a task (seq gap-free from 1); call inside a transaction, before the
   * insertTask/updateTask that stores the row's new lastSeq. */
  appendEvent(row: TaskRow, event: StreamResponse): StoredEvent {
    const seq = row.lastSeq + 1;
    const eventId = randomUUID();
    const taskId = row.task.id;
    this.stmt.insertEvent.run(taskId, seq, eventId, JSON.stringify(event));
    row.lastSeq = seq;
    return { seq, eventId, taskId, event };
  }

  /** Like eventsSince, one row at a time, so a reader cut early never loads the rest. Use no other
   * statement of this outbox while iterating. */
  *iterateEventsSince(taskId: string, since: number): Generator<StoredEvent> {
    for (const r of this.stmt.eventsSince.iterate(taskId, since) as IterableIterator<{
      seq: number;
      event_id: string;
      event_json: string;
    }>) {
      yield { seq: r.seq, eventId: r.event_id, taskId, event: JSON.parse(r.event_json) };
    }
  }

  eventsSince(taskId: string, since: number): StoredEvent[] {
    return [...this.iterateEventsSince(taskId, since)];
  }

  /** Tasks per state (for /metrics; read at scrape time, never on the request path). */
  tasksByState(): Record<string, number> {
    return Object.fromEntries(
      (this.stmt.countByState.all() as Array<{ state: string; n: number }>).map((r) => [r.state, r.n]),
    );
  }

  pendingAcceptances(): number {
    return this.gates.pendingCount();
  }

  openPrompts(): number {
    return this.prompts.openCount();
  }

  close(): void {
    this.commitBatch();
    closeOutboxDatabase(this.db, this.checkpointer);
  }
}
