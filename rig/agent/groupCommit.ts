// Group commit for the outbox (outbox.ts): every transaction of one event-loop turn runs inside
// one SQLite transaction (each its own SAVEPOINT, so a failing one still rolls back alone),
// committed once on the next check phase. One COMMIT writes the WAL once for every request of
// the turn, where one per transition made the commit the agent's largest cost. Whatever a caller
// learns from a write may leave the process only after that COMMIT: afterCommit() runs work
// (event publication, replies) once the open batch is durable, whenIdle() once nothing
// uncommitted is left to read.
import type Database from 'better-sqlite3';
import { logUnexpected } from './httpGuards.ts';

/** Runs once the batch it waits on is committed; `failed` when that COMMIT failed (nothing of the
 * batch is stored then). */
export type AfterCommit = (failed?: Error) => void;

export class GroupCommit {
  /** Work waiting for the open batch's COMMIT; null when no batch is open. */
  private batch: AfterCommit[] | null = null;
  private readonly stmt;

  /** `opened` runs right after BEGIN; `failed` after a COMMIT that failed (and was rolled back). */
  constructor(
    private readonly db: Database.Database,
    private readonly hooks: { opened: () => void; failed: () => void },
  ) {
    // IMMEDIATE: the batch takes the write lock when it opens. A deferred BEGIN that read first
    // would fail its first write (SQLITE_BUSY_SNAPSHOT) if another process sharing the file had
    // committed in between, and with it every transaction of the turn.
    this.stmt = {
      begin: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
    };
  }

  /** True while writes of this turn wait for their COMMIT (what is read now may not be durable). */
  get open(): boolean {
    return this.batch !== null;
  }

  /** Opens the turn's batch unless one is open; it commits on the next check phase. */
  ensureOpen(): void {
    if (this.batch !== null) return;
    this.stmt.begin.run();
    this.batch = [];
    this.hooks.opened();
    setImmediate(() => this.commit());
  }

  /** Runs `fn` after the open batch commits, in the order asked; at once when none is open. */
  afterCommit(fn: AfterCommit): void {
    if (this.batch === null) fn();
    else this.batch.push(fn);
  }

  /** Runs `fn` once no batch is open (everything it reads is committed). */
  whenIdle(fn: AfterCommit): void {
    const run: AfterCommit = (failed) => {
      if (failed) fn(failed);
      else if (this.batch !== null) this.batch.push(run);
      else fn();
    };
    this.afterCommit(run);
  }

  /** Commits the open batch, then runs what waited for it (also on close, so nothing is left). */
  commit(): void {
    const waiting = this.batch;
    if (waiting === null) return;
    let failed: Error | undefined;
    try {
      this.stmt.commit.run();
    } catch (err) {
      failed = err instanceof Error ? err : new Error(String(err));
      logUnexpected('outbox commit', failed);
      try {
        if (this.db.inTransaction) this.stmt.rollback.run();
      } catch {
        // The transaction is gone already; nothing of it is stored either way.
      }
      this.hooks.failed();
    }
    this.batch = null;
    for (const fn of waiting) {
      try {
        fn(failed);
      } catch (err) {
        logUnexpected('after outbox commit', err);
      }
    }
  }
}
