// Moves the outbox's WAL checkpoints off the agent's event loop. SQLite checkpoints inside the
// COMMIT that takes the WAL past its threshold: that one COMMIT copies thousands of pages into the
// database file and syncs it, and every request of the batch, and every one arriving meanwhile,
// waits for it. The agent's connection therefore checkpoints never (wal_autocheckpoint = 0) while
// a worker thread with a connection of its own runs PASSIVE checkpoints on a timer
// (walCheckpointWorker.mjs); WAL lets the writer go on while pages are copied. But SQLite restarts
// the WAL from its start only when a write begins with every frame copied, and under steady writes
// frames arrive while the worker copies: the WAL would grow without end. So once it holds
// CATCH_UP_PAGES, the agent's connection runs one PASSIVE checkpoint itself between two batches:
// it copies only what arrived since the worker's (the worker copied the rest), and the next write
// starts the WAL over. That one still syncs both files on the event loop, so it comes rarely: the
// WAL may reach four times the size at which SQLite's own checkpoint used to run. What its syncs
// write is kept small: SQLite syncs the database file only when a checkpoint reaches the WAL's end,
// which under steady writes only the catch-up does, so the worker syncs that file itself after each
// copy, and the WAL before it hands over. Should the worker fail, the agent's connection
// checkpoints itself again, as before, so the WAL stays bounded.
import type Database from 'better-sqlite3';
import { closeSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { logUnexpected } from './httpGuards.ts';

/** Pages the agent's own connection lets the WAL reach before it checkpoints, when it must. */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 8000;
const CHECKPOINT_INTERVAL_MS = 250;
/** WAL frames at which the agent's connection catches up with the worker (128 MB of 4 KiB pages). */
export const CATCH_UP_PAGES = 4 * FALLBACK_AUTOCHECKPOINT_PAGES;
/** Turns a catch-up waits for an open batch to commit before it gives up until the next report. */
const CATCH_UP_TRIES = 16;
/** How long stop() waits for the worker to close its connection (a checkpoint under way first). */
const STOP_WAIT_MS = 2_000;

export interface CheckpointOptions {
  /** How often the worker checkpoints (tests lengthen it). */
  intervalMs?: number;
  /** WAL frames at which the agent's connection catches up (tests shorten it). */
  catchUpPages?: number;
}

export interface CheckpointResult {
  /** Frames in the WAL when the checkpoint ran. */
  log: number;
  /** Frames copied into the database file (all of them, when the checkpoint caught up). */
  checkpointed: number;
  /** Whether the worker synced the database file itself after copying (walCheckpointWorker.mjs). */
  synced: boolean;
}

export class WalCheckpointer {
  private readonly worker: Worker;
  /** Waiting for the answer to a checkpoint asked for (checkpointNow), oldest first. */
  private readonly asked: Array<(result: CheckpointResult) => void> = [];
  private stopped = false;
  private catchingUp = false;
  /** The database file's descriptor for the worker's early syncs; closed by closeFile(). */
  private dbFile: number | undefined;
  /** Set to 1 by the worker once its connection is closed (stop() waits for it). */
  private readonly closed = new Int32Array(new SharedArrayBuffer(4));
  private reportFailure: (err: Error) => void = () => {};
  /** Settles when the worker failed and the agent's connection checkpoints itself again. */
  readonly failure = new Promise<Error>((resolve) => (this.reportFailure = resolve));

  constructor(
    private readonly db: Database.Database,
    path: string,
    options: CheckpointOptions = {},
  ) {
    const intervalMs = options.intervalMs ?? CHECKPOINT_INTERVAL_MS;
    const catchUpPages = options.catchUpPages ?? CATCH_UP_PAGES;
    db.pragma('wal_autocheckpoint = 0');
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.dbFile = openForSync(path);
    this.worker = new Worker(new URL('./walCheckpointWorker.mjs', import.meta.url), {
      workerData: { path, driver, intervalMs, catchUpPages, dbFile: this.dbFile, closed: this.closed },
    });
    // The worker never keeps the agent (or a test) alive.
    this.worker.unref();
    this.worker.on('message', (m: { kind: string; asked?: boolean } & CheckpointResult) => {
      if (m.kind !== 'checkpointed') return;
      if (m.log >= catchUpPages) this.catchUp(0);
      if (m.asked) this.asked.shift()?.({ log: m.log, checkpointed: m.checkpointed, synced: m.synced });
    });
    this.worker.on('error', (err) => this.fallBack(err));
    this.worker.on('exit', (code) => {
      if (!this.stopped) this.fallBack(new Error(`the WAL checkpoint worker exited (${code})`));
    });
  }

  /** Whether the worker has closed its connection (after stop()). */
  get workerClosed(): boolean {
    return Atomics.load(this.closed, 0) === 1;
  }

  /** Resolves with the result of a checkpoint run now (tests; the worker runs them on its own timer). */
  checkpointNow(): Promise<CheckpointResult> {
    if (this.stopped) return Promise.reject(new Error('the WAL checkpoint worker is stopped'));
    return new Promise((resolve) => {
      this.asked.push(resolve);
      this.worker.postMessage('now');
    });
  }

  /**
   * Stops the worker and waits (synchronously, bounded) until its connection is closed, so that the
   * agent's connection closes last and nothing touches the database's files after the outbox's
   * close returns (a caller may delete them then). The agent's close checkpoints, as SQLite's last
   * connection does. `waitMs` bounds the wait: a worker stuck in a checkpoint must not hang a stop.
   */
  stop(waitMs = STOP_WAIT_MS): void {
    if (this.stopped) return;
    this.stopped = true;
    this.worker.postMessage('stop');
    Atomics.wait(this.closed, 0, 0, waitMs);
  }

  /**
   * Closes the database file's descriptor the worker synced through, after stop() and the agent's
   * own close: closing any descriptor of a file drops the process's POSIX locks on it, SQLite's
   * included. The agent runs one outbox per file; should another connection of this process to the
   * file still be open (tests that stand two outboxes for two processes), it loses its locks at
   * the kernel, which only a third process sharing the file could notice.
   */
  closeFile(): void {
    if (this.dbFile !== undefined) closeSync(this.dbFile);
    this.dbFile = undefined;
  }

  /** Copies, on the agent's connection and outside any batch, what the worker's checkpoint missed. */
  private catchUp(tries: number): void {
    if (tries === 0 && this.catchingUp) return;
    this.catchingUp = true;
    setImmediate(() => {
      if (this.stopped || !this.db.open) return void (this.catchingUp = false);
      if (this.db.inTransaction && tries < CATCH_UP_TRIES) return this.catchUp(tries + 1);
      this.catchingUp = false;
      try {
        if (!this.db.inTransaction) this.db.pragma('wal_checkpoint(PASSIVE)');
      } catch (err) {
        logUnexpected('WAL checkpoint catch-up', err);
      }
    });
  }

  private fallBack(err: Error): void {
    if (this.stopped) return;
    this.stopped = true;
    logUnexpected('WAL checkpoint worker', err);
    try {
      this.db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    } catch {
      // The database is closed already: nothing left to checkpoint.
    }
    for (const waiting of this.asked.splice(0)) waiting({ log: -1, checkpointed: -1, synced: false });
    this.reportFailure(err);
  }
}

/** A read-only descriptor of the database file (fsync needs no write access); none when it cannot be
 * opened, and the worker then fails opening the database itself. */
function openForSync(path: string): number | undefined {
  try {
    return openSync(path, 'r');
  } catch {
    return undefined;
  }
}
