// The outbox's task-row cache (rig/agent/outbox.ts): bounded by rows and bytes, write-through (a
// row dropped from it reads back with the same seq and history counts, and its next transition
// continues gap-free), dropped whole when a transaction rolls back (the row may have been changed
// in memory by what rolled back), and the in-memory history tail answers views exactly as the
// history table does.
import { afterEach, describe, expect, it } from 'vitest';
import { Outbox, type TaskCacheLimits } from '../rig/agent/outbox.ts';
import { scriptFor } from '../rig/agent/script.ts';
import { TaskEngine } from '../rig/agent/taskEngine.ts';
import { GuardedValidator } from '../rig/protocol/guardedValidator.ts';
import type { Message } from '../rig/protocol/a2aTypes.ts';
import { tempDbPath } from './support/inProcessAgent.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function setUp(cache?: TaskCacheLimits) {
  const db = tempDbPath();
  const outbox = new Outbox(db.path, { cache });
  const engine = new TaskEngine(outbox, new GuardedValidator({ maxDepth: 32 }), new Set());
  cleanups.push(() => {
    engine.close();
    outbox.close();
    db.cleanup();
  });
  return { db, outbox, engine };
}

const message = (id: string, text = 'hi'): Message => ({ messageId: id, role: 'ROLE_USER', parts: [{ text }] });
/** The event a commit emits for a task: its status as it stands. */
const statusEvent = (task: { id: string; contextId: string; status: unknown }) =>
  ({ statusUpdate: { taskId: task.id, contextId: task.contextId, status: task.status } }) as never;

describe('task-row cache', () => {
  it('keeps at most `rows` rows, and a dropped row reads back whole and continues gap-free', async () => {
    const { outbox, engine } = setUp({ rows: 3, bytes: 1 << 30 });
    const ids: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const row = engine.createTask(
        message(`tck-complete-task-${i}`),
        scriptFor(message('tck-complete-task-1')),
        false,
      );
      ids.push(row.task.id);
      await engine.settled(row.task.id);
      expect(outbox.cachedRows).toBeLessThanOrEqual(3);
    }
    const first = outbox.getTask(ids[0])!;
    expect(first.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(first.lastSeq).toBe(outbox.eventsSince(ids[0], 0).length);
    expect(first.historyCount).toBeGreaterThan(0);
    engine.commit(first, () => {}, statusEvent);
    outbox.commitBatch();
    expect(outbox.eventsSince(ids[0], 0).map((e) => e.seq)).toEqual(
      Array.from({ length: first.lastSeq }, (_, i) => i + 1),
    );
  });

  it('keeps rows within `bytes` (the newest always stays)', async () => {
    const { outbox, engine } = setUp({ rows: 1000, bytes: 20_000 });
    for (let i = 0; i < 8; i += 1) {
      const row = engine.createTask(
        message(`m${i}`, 'x'.repeat(100)),
        scriptFor(message('tck-complete-task-1')),
        false,
      );
      // A big artifact per task: the byte bound, not the row bound, decides.
      engine.commit(
        row,
        (task) => {
          task.artifacts.push({ artifactId: `a${i}`, parts: [{ text: 'y'.repeat(9_000) }] });
          outbox.putArtifact(task.id, 0, task.artifacts[0]);
        },
        statusEvent,
      );
      expect(outbox.cachedRows).toBeLessThanOrEqual(2);
      expect(outbox.cachedRows).toBeGreaterThanOrEqual(1);
    }
    outbox.commitBatch();
  });

  it('drops rows changed by a transaction that rolled back: the next read is what is stored', () => {
    const { outbox, engine } = setUp();
    const row = engine.createTask(message('m1'), scriptFor(message('tck-complete-task-1')), false);
    const seq = row.lastSeq;
    expect(() =>
      engine.commit(
        row,
        (task) => {
          task.status = { state: 'TASK_STATE_FAILED', timestamp: new Date().toISOString() };
        },
        statusEvent,
        () => {
          throw new Error('rolled back');
        },
      ),
    ).toThrow('rolled back');
    const again = outbox.getTask(row.task.id)!;
    expect(again).not.toBe(row);
    expect(again.lastSeq).toBe(seq);
    expect(again.task.status.state).toBe('TASK_STATE_SUBMITTED');
    outbox.commitBatch();
  });

  it('answers views from the history tail exactly as from the history table', () => {
    const { db, outbox, engine } = setUp();
    const row = engine.createTask(message('m0', 'a'.repeat(10)), scriptFor(message('tck-complete-task-1')), false);
    const sizes = [5, 20_000, 30, 9_000, 40_000, 12, 7, 3_000, 100, 25_000, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    outbox.transaction(() => sizes.forEach((n, i) => outbox.appendHistory(row, message(`h${i}`, 'b'.repeat(n)))));
    outbox.updateTask(row);
    outbox.commitBatch();
    const fresh = new Outbox(db.path);
    cleanups.push(() => fresh.close());
    for (const entries of [1, 2, 5, 16, 17, 21, 100]) {
      for (const bytes of [0, 50, 1_000, 10_000, 30_000, 60_000, 256 * 1024]) {
        const fromTail = outbox.recentHistory(row.task.id, entries, bytes).map((m) => m.messageId);
        const fromTable = fresh.recentHistory(row.task.id, entries, bytes).map((m) => m.messageId);
        expect(fromTail, `${entries} entries, ${bytes} bytes`).toEqual(fromTable);
      }
    }
  });
});
