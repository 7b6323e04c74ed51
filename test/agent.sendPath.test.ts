// What a plain SendMessage costs the reference agent, in SQLite statements: finishing a task this
// process created without an acceptance gate asks the gate table nothing (a gate is only stored
// with its task), while a row read back, whose gate is unknown, still asks and still finds it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Outbox } from '../rig/agent/outbox.ts';
import { scriptFor } from '../rig/agent/script.ts';
import { TaskEngine } from '../rig/agent/taskEngine.ts';
import { GuardedValidator } from '../rig/protocol/guardedValidator.ts';
import type { Message } from '../rig/protocol/a2aTypes.ts';
import type { GateCriteria } from '../rig/agent/acceptanceCriteria.ts';
import { tempDbPath } from './support/inProcessAgent.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function open(path: string) {
  const outbox = new Outbox(path);
  const engine = new TaskEngine(outbox, new GuardedValidator({ maxDepth: 32 }), new Set());
  cleanups.push(() => {
    engine.close();
    outbox.close();
  });
  return { outbox, engine };
}

const criteria: GateCriteria = {
  requiredArtifacts: [],
  evaluator: 'client',
  acceptanceTimeoutSeconds: 60,
  maxRejections: 1,
};
const message = (id: string): Message => ({ messageId: id, role: 'ROLE_USER', parts: [{ text: 'hi' }] });
const script = scriptFor(message('tck-complete-task-1'));
/** Lets the task's first steps (queued as a microtask by createTask) run, then commits them. */
const settle = async (outbox: Outbox) => {
  await Promise.resolve();
  outbox.commitBatch();
};

describe('plain SendMessage path', () => {
  it('completes a task created without a gate without reading the gate table', async () => {
    const db = tempDbPath();
    cleanups.push(db.cleanup);
    const { outbox, engine } = open(db.path);
    const gateReads = vi.spyOn(outbox.gates, 'get');
    const row = engine.createTask(message('tck-complete-task-1'), script, false);
    await settle(outbox);
    expect(engine.getRow(row.task.id).task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(gateReads).not.toHaveBeenCalled();
  });

  it('still reads the gate of a row read back (its gate is unknown to this process)', async () => {
    const db = tempDbPath();
    cleanups.push(db.cleanup);
    const first = open(db.path);
    // A task stored with a gate row, then left mid-script as a crash would leave it.
    const row = first.engine.createTask(message('tck-complete-task-1'), script, false, (taskId) =>
      first.outbox.gates.insert(taskId, criteria, 'anonymous', []),
    );
    first.engine.close();
    first.outbox.commitBatch();
    const second = open(db.path);
    const gateReads = vi.spyOn(second.outbox.gates, 'get');
    second.engine.advance(row.task.id);
    await settle(second.outbox);
    expect(gateReads).toHaveBeenCalledWith(row.task.id);
    // The gate was found: the task waits for an acceptance decision instead of completing.
    expect(second.engine.getRow(row.task.id).task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });
});
