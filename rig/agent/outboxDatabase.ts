// The outbox's database as outbox.ts opens it: SQLite in WAL mode with its pragmas, the task tables
// (history and artifacts in rows of their own), older files migrated, and the per-task event log,
// in a schema of its own so the volatile-outbox fault can keep it in memory. Prompts and acceptance
// gates create their own tables (promptStore.ts, gateStore.ts).
import Database from 'better-sqlite3';
import { migrateWholeTaskRows } from './outboxMigration.ts';
import type { TaskCacheLimits } from './taskRowCache.ts';
import { FALLBACK_AUTOCHECKPOINT_PAGES, WalCheckpointer, type CheckpointOptions } from './walCheckpointer.ts';

const TASK_TABLES = `
CREATE TABLE IF NOT EXISTS tasks (
  id TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  task_json TEXT NOT NULL,
  script_json TEXT NOT NULL,
  step INTEGER NOT NULL,
  activated INTEGER NOT NULL,
  last_answer_json TEXT,
  last_seq INTEGER NOT NULL DEFAULT 0,
  history_count INTEGER NOT NULL DEFAULT 0,
  history_bytes INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS tasks_state ON tasks(state);
-- Rowid tables on purpose: in a WITHOUT ROWID table the whole row is the b-tree key, and a seek
-- reads every megabyte of a big row it compares against; here the key index stays small and a
-- row's overflow pages are read only when its JSON column is.
CREATE TABLE IF NOT EXISTS task_history (
  task_id TEXT NOT NULL,
  idx INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  message_json TEXT NOT NULL,
  PRIMARY KEY (task_id, idx)
);
CREATE TABLE IF NOT EXISTS task_artifacts (
  task_id TEXT NOT NULL,
  pos INTEGER NOT NULL,
  artifact_json TEXT NOT NULL,
  PRIMARY KEY (task_id, pos)
);
`;

// A rowid table, like the history's: an event's JSON (a prompt's whole envelope, an artifact) is
// appended at the table's end, and only the small (task_id, seq) key goes into the middle of its
// index, where an answer to an older task lands. As a WITHOUT ROWID table every such insert put the
// whole JSON into the key b-tree, splitting its pages: the event INSERT was the costliest statement
// of an answer. Files made before keep that table, which the same statements read and write.
const EVENTS_TABLE = (schema: string) => `
CREATE TABLE IF NOT EXISTS ${schema}.events (
  task_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  event_id TEXT NOT NULL,
  event_json TEXT NOT NULL,
  PRIMARY KEY (task_id, seq)
);
`;

export interface OutboxOptions {
  /** Keep the event log in memory (the volatile-outbox fault). */
  volatileEvents?: boolean;
  cache?: TaskCacheLimits;
  /** The checkpoint worker's timing (walCheckpointer.ts; tests change it). */
  checkpoint?: CheckpointOptions;
}

/** Opens (creating if need be) the outbox file at `path`, with its checkpoint worker. */
export function openOutboxDatabase(
  path: string,
  options: OutboxOptions,
): { db: Database.Database; eventsSchema: 'main' | 'volatile'; checkpointer?: WalCheckpointer } {
  const volatileEvents = options.volatileEvents === true;
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode survives a process crash (kill -9); only a power loss could drop the tail.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // Checkpoints run in a worker thread (walCheckpointer.ts), which sets this connection's own
  // threshold to 0; until it starts (and should it fail) this connection checkpoints every
  // FALLBACK_AUTOCHECKPOINT_PAGES (32 MB) instead of SQLite's 1,000: a hot page (an index's right
  // edge) is copied once where it was eight times, and the syncs are an eighth. The page cache
  // (32 MB, SQLite's is 2 MB) keeps those hot pages and the tail of each table in memory under load.
  db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  db.pragma('cache_size = -32768');
  // Each request of a batch is a savepoint, whose undo records (the statement journal) SQLite keeps
  // in memory only up to 64 KiB and then in a temporary file: a large batch wrote every page it
  // touched to that file, on the event loop. They only ever undo a savepoint of the open batch (a
  // crash loses that batch whole), so memory is safe for them.
  db.pragma('temp_store = MEMORY');
  db.exec(TASK_TABLES);
  migrateWholeTaskRows(db);
  const eventsSchema = volatileEvents ? 'volatile' : 'main';
  if (volatileEvents) db.exec(`ATTACH DATABASE ':memory:' AS volatile`);
  db.exec(EVENTS_TABLE(eventsSchema));
  const checkpointer = db.memory ? undefined : new WalCheckpointer(db, path, options.checkpoint);
  return { db, eventsSchema, checkpointer };
}

/** Closes what openOutboxDatabase opened: the worker's connection first, the agent's, then the
 * descriptor the worker synced through (closing it earlier would drop the connections' locks). */
export function closeOutboxDatabase(db: Database.Database, checkpointer: WalCheckpointer | undefined): void {
  checkpointer?.stop();
  db.close();
  checkpointer?.closeFile();
}
