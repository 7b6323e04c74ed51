// One advance() of the task engine runs its steps in one transaction (rig/agent/stepBatch.ts): the
// task row is written once for all of them while every transition still appends its event, and a
// step that fails takes the steps before it in the same call back with it, published to no one.
// Read through a second connection, as a restarted agent would read the file.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SCRIPT } from '../rig/agent/script.ts';
import type { Message, StreamResponse } from '../rig/protocol/a2aTypes.ts';
import { engineOnTempOutbox } from './support/engineFixture.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function setUp() {
  const { outbox, engine, stored } = engineOnTempOutbox(cleanups);
  return { outbox, engine, stored };
}

const message: Message = { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };
const stateOf = (e: StreamResponse) => ('statusUpdate' in e ? e.statusUpdate.status.state : undefined);
const kind = (e: StreamResponse) => stateOf(e) ?? Object.keys(e)[0];
const flushMicrotasks = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the steps of one advance', () => {
  it('write the task row once, and every transition still has its event', async () => {
    const { outbox, engine, stored } = setUp();
    const updates: string[] = [];
    const updateTask = outbox.updateTask.bind(outbox);
    outbox.updateTask = (row) => {
      updates.push(row.task.status.state);
      updateTask(row);
    };
    const row = engine.createTask(message, DEFAULT_SCRIPT, false);
    const published: string[] = [];
    engine.events.subscribe(row.task.id, (event) => published.push(kind(event.event)));
    await flushMicrotasks();
    outbox.commitBatch();
    // SUBMITTED → WORKING → INPUT_REQUIRED in one advance: one UPDATE, with the last state.
    expect(updates).toEqual(['TASK_STATE_INPUT_REQUIRED']);
    const parked = stored(row.task.id);
    expect(parked.events.map(kind)).toEqual(['task', 'TASK_STATE_WORKING', 'TASK_STATE_INPUT_REQUIRED']);
    expect(parked.task).toMatchObject({ state: 'TASK_STATE_INPUT_REQUIRED', step: 0, last_seq: 3 });
    expect(published).toEqual(['task', 'TASK_STATE_WORKING', 'TASK_STATE_INPUT_REQUIRED']);
  });

  it('roll back together when one fails: no event of theirs is stored or published', async () => {
    const { outbox, engine, stored } = setUp();
    const row = engine.createTask(message, DEFAULT_SCRIPT, false);
    await flushMicrotasks();
    outbox.commitBatch();
    const published: string[] = [];
    engine.events.subscribe(row.task.id, (event) => published.push(kind(event.event)));
    // As an accepted answer leaves it: WORKING, at the artifact step (its own commit).
    row.step = 1;
    engine.setStatus(row, 'TASK_STATE_WORKING');
    const appendEvent = outbox.appendEvent.bind(outbox);
    outbox.appendEvent = (r, event) => {
      if (stateOf(event) === 'TASK_STATE_COMPLETED') throw new Error('disk full');
      return appendEvent(r, event);
    };
    // The artifact step commits its savepoint, then the completion fails.
    expect(() => engine.advance(row.task.id)).toThrow('disk full');
    outbox.commitBatch();
    const after = stored(row.task.id);
    expect(after.events.map(kind).slice(3)).toEqual(['TASK_STATE_WORKING']);
    expect(after.task).toMatchObject({ state: 'TASK_STATE_WORKING', step: 1, last_seq: 4 });
    expect(published).toEqual(['TASK_STATE_WORKING']);
    // The engine reads the task back as stored, and the steps run again from there.
    outbox.appendEvent = appendEvent;
    engine.advance(row.task.id);
    outbox.commitBatch();
    expect(stored(row.task.id).events.map(kind).slice(4)).toEqual(['artifactUpdate', 'TASK_STATE_COMPLETED']);
    expect(published).toEqual(['TASK_STATE_WORKING', 'artifactUpdate', 'TASK_STATE_COMPLETED']);
  });

  it('roll back together when a step catches its own failure: the row is never written half changed', async () => {
    const { outbox, engine, stored } = setUp();
    const row = engine.createTask(message, DEFAULT_SCRIPT, false);
    await flushMicrotasks();
    outbox.commitBatch();
    row.step = 1;
    engine.setStatus(row, 'TASK_STATE_WORKING');
    outbox.commitBatch();
    // A step that swallows its failed write (its own commit, or a transaction of its own) goes on.
    const emit = engine.artifacts.emit.bind(engine.artifacts);
    let ownTransaction = false;
    engine.artifacts.emit = (r, spec) => {
      try {
        if (ownTransaction)
          outbox.transaction(() => {
            throw new Error('own write failed');
          });
        else
          engine.commit(
            r,
            (task) => void (task.status = { ...task.status, state: 'TASK_STATE_FAILED' }),
            (task) => ({ statusUpdate: { taskId: task.id, contextId: task.contextId, status: task.status } }),
            () => {
              throw new Error('commit failed');
            },
          );
      } catch {
        // swallowed
      }
      return emit(r, spec);
    };
    for (const own of [false, true]) {
      ownTransaction = own;
      expect(() => engine.advance(row.task.id)).toThrow(/a step of task .* failed/);
      outbox.commitBatch();
      expect(stored(row.task.id).task).toMatchObject({ state: 'TASK_STATE_WORKING', step: 1, last_seq: 4 });
      expect(stored(row.task.id).events).toHaveLength(4);
    }
  });
});
