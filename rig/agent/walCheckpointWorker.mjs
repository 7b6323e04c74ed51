// The outbox's WAL checkpoints, in a worker thread (walCheckpointer.ts starts it): a connection of
// its own copies the WAL into the database file and syncs both, off the agent's event loop. Plain
// JavaScript: a worker does not inherit the tsx loader the agent registered at start.
import { parentPort, workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';

const Database = createRequire(import.meta.url)(workerData.driver);
const db = new Database(workerData.path);
// As the agent's connection (outboxDatabase.ts): a checkpoint syncs the WAL before it copies and
// the database after; no commit of this connection ever needs a sync of its own.
db.pragma('synchronous = NORMAL');
// PASSIVE never waits for the writer, and the writer never waits for it: WAL lets both run at once.
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let stopped = false;

/** One checkpoint; told to the agent when it copied pages or was asked for (`now`). */
function run(asked) {
  if (stopped) return;
  const [result] = checkpoint.all();
  if (asked || result.checkpointed > 0)
    parentPort.postMessage({ kind: 'checkpointed', asked, log: result.log, checkpointed: result.checkpointed });
}

const timer = setInterval(() => run(false), workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'now') run(true);
  if (message === 'stop') {
    stopped = true;
    clearInterval(timer);
    db.close();
    // The agent waits for this before it closes its own connection (walCheckpointer.ts stop()).
    Atomics.store(workerData.closed, 0, 1);
    Atomics.notify(workerData.closed, 0);
    parentPort.close();
  }
});
parentPort.postMessage({ kind: 'ready' });
