// A blocking send's new task (createTask with `runNow`, rig/agent/taskEngine.ts): its creation and
// its first steps are one transaction, the task row is stored once (INSERT, no UPDATE) as the steps
// leave it, and what is stored and published is what the deferred path stores and publishes. When
// that transaction fails the task is created alone, as before. settled() answers only once what
// settled the task is committed. Read through a second connection, as a restarted agent would.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentOperations } from '../rig/agent/agentOperations.ts';
import { scriptFor } from '../rig/agent/script.ts';
import type { Message, StreamResponse } from '../rig/protocol/a2aTypes.ts';
import { engineOnTempOutbox } from './support/engineFixture.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function setUp() {
  const { outbox, engine, stored } = engineOnTempOutbox(cleanups);
  const writes: string[] = [];
  for (const name of ['insertTask', 'updateTask', 'transaction'] as const) {
    const original = outbox[name].bind(outbox) as (...args: unknown[]) => unknown;
    vi.spyOn(outbox, name).mockImplementation(((...args: unknown[]) => {
      writes.push(name);
      return original(...args);
    }) as never);
  }
  return { outbox, engine, stored, writes };
}

const message: Message = { messageId: 'tck-complete-task-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };
const script = scriptFor(message);
const stateOf = (e: StreamResponse) => ('statusUpdate' in e ? e.statusUpdate.status.state : undefined);
const kind = (e: StreamResponse) => stateOf(e) ?? Object.keys(e)[0];

describe("a blocking send's new task", () => {
  it('is created with its first steps in one transaction, its row stored once, as they leave it', () => {
    const { outbox, engine, stored, writes } = setUp();
    const published: string[] = [];
    const row = engine.createTask(message, script, false, undefined, true);
    engine.events.subscribe(row.task.id, (event) => published.push(kind(event.event)));
    expect(writes).toEqual(['transaction', 'insertTask']);
    expect(row.task.status.state).toBe('TASK_STATE_COMPLETED');
    outbox.commitBatch();
    const after = stored(row.task.id);
    expect(after.task).toEqual({ state: 'TASK_STATE_COMPLETED', step: 1, last_seq: 3, history_count: 2 });
    expect(after.history).toEqual({ n: 2 });
    expect(after.events.map(kind)).toEqual(['task', 'TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
    // The snapshot event still shows the task as it was created.
    const snapshot = after.events[0] as { task: { status: { state: string }; history: Message[] } };
    expect(snapshot.task.status.state).toBe('TASK_STATE_SUBMITTED');
    expect(snapshot.task.history.map((m) => m.messageId)).toEqual(['tck-complete-task-1']);
    expect(published).toEqual(['task', 'TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
  });

  it('stores and publishes what the deferred path does', async () => {
    const { outbox, engine, stored } = setUp();
    const now = engine.createTask(message, script, false, undefined, true);
    const later = engine.createTask(message, script, false);
    await Promise.resolve();
    outbox.commitBatch();
    const [a, b] = [stored(now.task.id), stored(later.task.id)];
    expect(a.task).toEqual(b.task);
    expect(a.history).toEqual(b.history);
    const shape = (events: StreamResponse[]) =>
      JSON.parse(JSON.stringify(events).replace(/"[0-9a-f]{8}-[0-9a-f-]{27}"|"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '"x"'));
    expect(shape(a.events)).toEqual(shape(b.events));
    expect(shape([{ task: engine.view(now) }])).toEqual(shape([{ task: engine.view(later) }]));
  });

  it('is created alone when that transaction fails, and its steps run after, as without runNow', async () => {
    const { outbox, engine, stored } = setUp();
    const appendEvent = outbox.appendEvent.bind(outbox);
    let failures = 1;
    outbox.appendEvent = (r, event) => {
      if (stateOf(event) === 'TASK_STATE_COMPLETED' && failures-- > 0) throw new Error('disk full');
      return appendEvent(r, event);
    };
    const log = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const published: string[] = [];
    const row = engine.createTask(message, script, false, undefined, true);
    engine.events.subscribe(row.task.id, (event) => published.push(kind(event.event)));
    expect(row.task.status.state).toBe('TASK_STATE_SUBMITTED');
    expect(String(log.mock.calls[0]?.[0])).toMatch(/first steps of task .*disk full/);
    await Promise.resolve();
    outbox.commitBatch();
    const after = stored(row.task.id);
    expect(after.task).toEqual({ state: 'TASK_STATE_COMPLETED', step: 1, last_seq: 3, history_count: 2 });
    expect(after.events.map(kind)).toEqual(['task', 'TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
    expect(published).toEqual(['task', 'TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
  });

  it('is settled only once its writes are committed, and not when their COMMIT fails', async () => {
    const { outbox, engine } = setUp();
    const row = engine.createTask(message, script, false, undefined, true);
    let settled = false;
    const waiting = engine.settled(row.task.id).then(() => (settled = true));
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(settled).toBe(false);
    outbox.commitBatch();
    await waiting;
    expect(settled).toBe(true);
    const failing = engine.createTask(message, script, false, undefined, true);
    vi.spyOn(outbox, 'afterCommit').mockImplementation((fn) => fn(new Error('COMMIT failed')));
    await expect(engine.settled(failing.task.id)).rejects.toThrow('COMMIT failed');
  });

  it('is answered from the row it was created as, read once (by settled), not read back again', async () => {
    const { engine, outbox } = setUp();
    const reads = vi.spyOn(outbox, 'getTask');
    const ops = new AgentOperations(engine);
    const ctx = { generation: '1.0' as const, hitl: false, acceptance: false };
    const result = (await ops.send({ message }, ctx)) as { task: { status: { state: string }; history: Message[] } };
    expect(result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(result.task.history.map((m) => m.role)).toEqual(['ROLE_USER', 'ROLE_AGENT']);
    expect(reads).toHaveBeenCalledTimes(1);
    // A send that does not wait reads its task back, as before.
    const pending = (await ops.send({ message, configuration: { returnImmediately: true } }, ctx)) as {
      task: { status: { state: string } };
    };
    expect(pending.task.status.state).toBe('TASK_STATE_SUBMITTED');
    // Its reply's read, then its steps' own (a microtask after createTask).
    expect(reads).toHaveBeenCalledTimes(3);
  });
});
