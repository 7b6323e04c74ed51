// The outbox's WAL checkpoints run in a worker thread (rig/agent/walCheckpointer.ts), not inside
// the COMMIT of the agent's event loop. Shown with file sizes: pages a COMMIT wrote stay in the
// WAL (the database file does not grow) until the worker copies them, also past the size at which
// the agent's own connection used to checkpoint; and should the worker fail, that connection
// checkpoints again, so the WAL stays bounded.
import { existsSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Outbox } from '../rig/agent/outbox.ts';
import { FALLBACK_AUTOCHECKPOINT_PAGES, WalCheckpointer } from '../rig/agent/walCheckpointer.ts';
import type { Artifact, Message } from '../rig/protocol/a2aTypes.ts';
import { tempDbPath } from './support/inProcessAgent.ts';
import { bareTaskRow } from './support/engineFixture.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

const PAGE = 4096;

/** What this process's descriptors point at (Linux: /proc/self/fd). */
function openFiles(): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      return [readlinkSync(`/proc/self/fd/${fd}`)];
    } catch {
      return []; // the descriptor readdir itself used, closed by now
    }
  });
}

function descriptorsOn(path: string): number {
  const real = realpathSync(path);
  return openFiles().filter((file) => file === real).length;
}
const HOUR_MS = 3_600_000;

/** A fresh task row in the outbox, with `messages` history messages of `bytes` each, in one batch. */
function writeTask(outbox: Outbox, id: string, messages: number, bytes: number): void {
  const row = bareTaskRow(id);
  outbox.transaction(() => {
    for (let i = 0; i < messages; i++) {
      const message: Message = { messageId: `${id}-${i}`, role: 'ROLE_USER', parts: [{ text: 'x'.repeat(bytes) }] };
      outbox.appendHistory(row, message);
    }
    outbox.insertTask(row);
  });
  outbox.commitBatch();
}

describe('WAL checkpoints off the event loop', () => {
  it("leaves a COMMIT's pages in the WAL, past the old threshold, until the worker copies them", async () => {
    const db = tempDbPath();
    // Only the checkpoints the test asks for run: no timer can copy pages between two reads.
    const outbox = new Outbox(db.path, { checkpoint: { intervalMs: HOUR_MS } });
    cleanups.push(() => {
      outbox.close();
      db.cleanup();
    });
    const before = statSync(db.path).size;
    // 1.5 × the threshold at which the agent's connection used to checkpoint inside a COMMIT.
    const bytes = Math.ceil(FALLBACK_AUTOCHECKPOINT_PAGES * 1.5) * PAGE;
    for (let t = 0; t < 6; t++) writeTask(outbox, `task-${t}`, 8, Math.ceil(bytes / 48));
    expect(statSync(`${db.path}-wal`).size).toBeGreaterThan(bytes);
    expect(statSync(db.path).size).toBe(before);

    const result = await outbox.checkpointer!.checkpointNow();
    expect(result.log).toBeGreaterThan(FALLBACK_AUTOCHECKPOINT_PAGES);
    expect(result.checkpointed).toBe(result.log);
    expect(statSync(db.path).size).toBeGreaterThan(bytes);

    // Still one outbox: a new write lands, and another connection reads every task.
    writeTask(outbox, 'after', 1, 10);
    const other = new Database(db.path, { readonly: true });
    cleanups.push(() => other.close());
    expect((other.prepare('SELECT COUNT(*) AS n FROM tasks').get() as { n: number }).n).toBe(7);
  });

  it('starts the WAL over although frames arrived while the worker copied', async () => {
    const db = tempDbPath();
    // Caught up at 8,000 frames here (the agent waits for CATCH_UP_PAGES), so the test writes less.
    const outbox = new Outbox(db.path, {
      checkpoint: { intervalMs: HOUR_MS, catchUpPages: FALLBACK_AUTOCHECKPOINT_PAGES },
    });
    const reader = new Database(db.path, { readonly: true });
    cleanups.push(() => {
      reader.close();
      outbox.close();
      db.cleanup();
    });
    writeTask(outbox, 'first', 1, 10);
    // A reader's snapshot stands for writes that land while the worker copies: PASSIVE cannot
    // copy past it, so the worker's checkpoint ends behind the WAL's end.
    reader.exec('BEGIN');
    reader.prepare('SELECT COUNT(*) FROM tasks').get();
    const bytes = Math.ceil(FALLBACK_AUTOCHECKPOINT_PAGES * 1.2) * PAGE;
    for (let t = 0; t < 4; t++) writeTask(outbox, `big-${t}`, 8, Math.ceil(bytes / 32));
    const behind = await outbox.checkpointer!.checkpointNow();
    expect(behind.checkpointed).toBeLessThan(behind.log);
    expect(behind.log).toBeGreaterThan(FALLBACK_AUTOCHECKPOINT_PAGES);
    reader.exec('COMMIT');
    // The agent's connection catches up on a later turn (queued before this one).
    await new Promise((resolve) => setImmediate(resolve));
    writeTask(outbox, 'after', 1, 10);
    const after = await outbox.checkpointer!.checkpointNow();
    // The WAL started over: it holds the last write only, not everything since the first.
    expect(after.log).toBeLessThan(100);
    expect(after.checkpointed).toBe(after.log);
  });

  it("gives checkpoints back to the agent's connection when the worker fails", async () => {
    const db = tempDbPath();
    const own = new Database(db.path);
    own.pragma('journal_mode = WAL');
    cleanups.push(() => {
      own.close();
      db.cleanup();
    });
    // A database the worker cannot open: it fails at its start.
    const checkpointer = new WalCheckpointer(own, `${db.path}.missing/outbox.db`, { intervalMs: HOUR_MS });
    expect(own.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const err = await checkpointer.failure;
    expect(err.message).toMatch(/directory does not exist|unable to open/);
    expect(own.pragma('wal_autocheckpoint', { simple: true })).toBe(FALLBACK_AUTOCHECKPOINT_PAGES);
  });

  it("closes the worker's connection before its own: nothing touches the files after close returns", async () => {
    const db = tempDbPath();
    cleanups.push(db.cleanup);
    const outbox = new Outbox(db.path, { checkpoint: { intervalMs: HOUR_MS } });
    writeTask(outbox, 'task-closed', 4, 1_000);
    // The worker has opened its connection once it answers.
    const checkpointer = outbox.checkpointer!;
    await checkpointer.checkpointNow();
    // Unbounded here: the ordering is the claim, not how soon a busy machine schedules the worker.
    checkpointer.stop(Infinity);
    expect(checkpointer.workerClosed).toBe(true);
    outbox.close();
    // With the worker's connection closed first, the agent's closes last and removes the WAL and
    // its index. Had stop() returned before the worker closed, a caller deleting the directory
    // would race that close (CI saw ENOTEMPTY from such a cleanup).
    expect(readdirSync(dirname(db.path)).sort()).toEqual(['outbox.db']);
    expect(existsSync(`${db.path}-wal`)).toBe(false);
  });

  it("syncs the database file in the worker where SQLite's checkpoint leaves it unsynced", async () => {
    const db = tempDbPath();
    const outbox = new Outbox(db.path, { checkpoint: { intervalMs: HOUR_MS } });
    const reader = new Database(db.path, { readonly: true });
    cleanups.push(() => {
      reader.close();
      outbox.close();
      db.cleanup();
    });
    writeTask(outbox, 'first', 1, 10);
    // As when a commit lands during the copy: SQLite copies up to the reader's snapshot and, the
    // WAL's end not reached, leaves the database file unsynced for the agent's catch-up to sync.
    reader.exec('BEGIN');
    reader.prepare('SELECT COUNT(*) FROM tasks').get();
    writeTask(outbox, 'second', 4, 1_000);
    const behind = await outbox.checkpointer!.checkpointNow();
    reader.exec('COMMIT');
    expect(behind.checkpointed).toBeGreaterThan(0);
    expect(behind.checkpointed).toBeLessThan(behind.log);
    expect(behind.synced).toBe(true);
    // The rest, then nothing left: nothing copied, nothing to sync.
    expect((await outbox.checkpointer!.checkpointNow()).checkpointed).toBe(behind.log);
    expect((await outbox.checkpointer!.checkpointNow()).synced).toBe(false);
  });

  it('closes the descriptor the worker synced through once the last connection is closed', () => {
    const db = tempDbPath();
    cleanups.push(db.cleanup);
    const outbox = new Outbox(db.path, { checkpoint: { intervalMs: HOUR_MS } });
    // The agent's connection and the one kept for the worker's syncs (the worker's own may be opening).
    expect(descriptorsOn(db.path)).toBeGreaterThanOrEqual(2);
    outbox.close();
    expect(descriptorsOn(db.path)).toBe(0);
  });

  it("keeps a batch's savepoint undo records in memory, not in a temporary file", () => {
    const db = tempDbPath();
    const outbox = new Outbox(db.path, { checkpoint: { intervalMs: HOUR_MS } });
    cleanups.push(() => {
      outbox.close();
      db.cleanup();
    });
    const artifact = (fill: string): Artifact => ({ artifactId: 'a', parts: [{ text: fill.repeat(300_000) }] });
    outbox.transaction(() => outbox.putArtifact('task', 0, artifact('a')));
    outbox.commitBatch();
    // Replacing the artifact frees its pages and writes the new one into them: pages that existed
    // when the savepoint began, so each gets an undo record, far past the 64 KiB SQLite keeps in
    // memory by default (it then opens an unlinked file, kept until the batch ends).
    outbox.transaction(() => outbox.putArtifact('task', 0, artifact('b')));
    expect(outbox.uncommitted).toBe(true);
    expect(openFiles().filter((file) => file.includes('etilqs_'))).toEqual([]);
    outbox.commitBatch();
  });
});
