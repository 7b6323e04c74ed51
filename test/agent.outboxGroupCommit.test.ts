// Group commit (rig/agent/outbox.ts): the transitions of one event-loop turn share one SQLite
// transaction, so nothing a caller learns from them may leave the process before its COMMIT. Shown
// deterministically with a second connection to the same file (what survives a kill -9 is exactly
// what another connection can read): a held reply, a published event and a replay catch-up each
// happen only once that connection sees the write.
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { holdUntilCommitted } from '../rig/agent/commitHold.ts';
import { scriptFor } from '../rig/agent/script.ts';
import type { Message } from '../rig/protocol/a2aTypes.ts';
import { engineOnTempOutbox } from './support/engineFixture.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function setUp() {
  const { outbox, engine, other } = engineOnTempOutbox(cleanups);
  const storedTasks = (id: string) =>
    (other.prepare('SELECT COUNT(*) AS n FROM tasks WHERE id = ?').get(id) as { n: number }).n;
  const storedEvents = (id: string) =>
    (other.prepare('SELECT COUNT(*) AS n FROM events WHERE task_id = ?').get(id) as { n: number }).n;
  return { outbox, engine, storedTasks, storedEvents };
}

/** Records what reaches the socket: the bytes of end(), and whether they were written. */
class RecordingResponse extends EventEmitter {
  ended: string | undefined;
  destroyed = false;
  write(_text?: string) {
    return true;
  }
  end(text?: string) {
    this.ended = text ?? '';
    return this;
  }
  destroy() {
    this.destroyed = true;
  }
}

const message = (id: string): Message => ({ messageId: id, role: 'ROLE_USER', parts: [{ text: 'hi' }] });

describe('group commit', () => {
  it('holds a reply written while the batch is open until another connection can read the task', () => {
    const { outbox, engine, storedTasks } = setUp();
    const row = engine.createTask(message('tck-complete-task-1'), scriptFor(message('tck-complete-task-1')), false);
    const res = new RecordingResponse();
    holdUntilCommitted(res as unknown as ServerResponse, outbox);
    res.end(`{"id":"${row.task.id}"}`);
    expect(storedTasks(row.task.id)).toBe(0);
    expect(res.ended).toBeUndefined();
    outbox.commitBatch();
    expect(storedTasks(row.task.id)).toBe(1);
    expect(res.ended).toBe(`{"id":"${row.task.id}"}`);
  });

  it('writes at once when nothing is uncommitted, and keeps the order of held writes', () => {
    const { outbox, engine } = setUp();
    const res = new RecordingResponse();
    const writes: string[] = [];
    res.write = ((text: string) => void writes.push(text)) as never;
    holdUntilCommitted(res as unknown as ServerResponse, outbox);
    res.write('a');
    expect(writes).toEqual(['a']);
    engine.createTask(message('tck-complete-task-1'), scriptFor(message('tck-complete-task-1')), false);
    res.write('b');
    outbox.afterCommit(() => res.write('c'));
    expect(writes).toEqual(['a']);
    outbox.commitBatch();
    expect(writes).toEqual(['a', 'b', 'c']);
  });

  it('publishes an event only once it is committed, and never one that rolled back', async () => {
    const { outbox, engine, storedEvents } = setUp();
    const seen: Array<{ seq: number; stored: number; uncommitted: boolean }> = [];
    const row = engine.createTask(message('tck-complete-task-1'), scriptFor(message('tck-complete-task-1')), false);
    engine.events.subscribe(row.task.id, (event) =>
      seen.push({ seq: event.seq, stored: storedEvents(row.task.id), uncommitted: outbox.uncommitted }),
    );
    expect(seen).toEqual([]);
    await engine.settled(row.task.id);
    // Every event was visible to the other connection when it was published.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const s of seen) expect(s.stored).toBeGreaterThanOrEqual(s.seq);
    const before = seen.length;
    expect(() =>
      engine.commit(
        engine.getRow(row.task.id),
        () => {},
        (task) => ({ statusUpdate: { taskId: task.id, contextId: task.contextId, status: task.status } }),
        () => {
          throw new Error('rolled back');
        },
      ),
    ).toThrow('rolled back');
    outbox.commitBatch();
    expect(seen.length).toBe(before);
    expect(storedEvents(row.task.id)).toBe(seen[seen.length - 1].seq);
  });

  it('runs whenIdle work (a replay catch-up) only once no batch is open', () => {
    const { outbox, engine, storedTasks } = setUp();
    const row = engine.createTask(message('tck-complete-task-1'), scriptFor(message('tck-complete-task-1')), false);
    const ran: number[] = [];
    let second = '';
    // A write from work that runs after the same commit opens a new batch: whenIdle waits for it too.
    outbox.afterCommit(
      () =>
        (second = engine.createTask(message('tck-complete-task-1'), scriptFor(message('tck-complete-task-1')), false)
          .task.id),
    );
    outbox.whenIdle(() => ran.push(storedTasks(row.task.id) + storedTasks(second)));
    outbox.commitBatch();
    expect(ran).toEqual([]);
    expect(outbox.uncommitted).toBe(true);
    outbox.commitBatch();
    expect(ran).toEqual([2]);
  });
});
