// The outbox's WAL checkpoints, in a worker thread (walCheckpointer.ts starts it): a connection of
// its own copies the WAL into the database file and syncs both, off the agent's event loop. Plain
// JavaScript: a worker does not inherit the tsx loader the agent registered at start.
import { parentPort, workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { closeSync, fdatasyncSync, openSync } from 'node:fs';

const Database = createRequire(import.meta.url)(workerData.driver);
const db = new Database(workerData.path);
// As the agent's connection (outboxDatabase.ts): a checkpoint syncs the WAL before it copies and
// the database after; no commit of this connection ever needs a sync of its own.
db.pragma('synchronous = NORMAL');
// PASSIVE never waits for the writer, and the writer never waits for it: WAL lets both run at once.
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let stopped = false;
/** The WAL's descriptor for its early sync, opened at the first hand-over (SQLite locks no byte of it). */
let walFile;
/** The last checkpoint's result: `checkpointed` counts every frame copied since the WAL started over. */
let last = { log: 0, checkpointed: 0 };

/**
 * Syncs, off the agent's event loop, what the agent's catch-up would otherwise sync on it. SQLite syncs
 * the database file only at the end of a checkpoint that copied the whole WAL, which under steady
 * writes is the agent's catch-up: without this it wrote back every page copied since the last one.
 * These syncs add to SQLite's own, which still run where they did.
 */
function syncEarly(result) {
  const copied = result.checkpointed > 0 && (result.checkpointed !== last.checkpointed || result.log < last.log);
  last = result;
  if (!copied || workerData.dbFile === undefined) return false;
  fdatasyncSync(workerData.dbFile);
  if (result.log >= workerData.catchUpPages) {
    walFile ??= openSync(`${workerData.path}-wal`, 'r');
    fdatasyncSync(walFile);
  }
  return true;
}

/** One checkpoint; told to the agent when it copied pages or was asked for (`now`). */
function run(asked) {
  if (stopped) return;
  const [result] = checkpoint.all();
  const synced = syncEarly(result);
  if (asked || result.checkpointed > 0)
    parentPort.postMessage({ kind: 'checkpointed', asked, log: result.log, checkpointed: result.checkpointed, synced });
}

const timer = setInterval(() => run(false), workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'now') run(true);
  if (message === 'stop') {
    stopped = true;
    clearInterval(timer);
    if (walFile !== undefined) closeSync(walFile);
    db.close();
    // The agent waits for this before it closes its own connection (walCheckpointer.ts stop()).
    Atomics.store(workerData.closed, 0, 1);
    Atomics.notify(workerData.closed, 0);
    parentPort.close();
  }
});
parentPort.postMessage({ kind: 'ready' });
