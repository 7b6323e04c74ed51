// An outbox file written before the acceptance gates existed (no acceptance_gates table) opens:
// its tasks are intact and have no gate (a decision is a conflict), and new gated tasks work.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { agentsOnPaths, tempDbPath } from './support/inProcessAgent.ts';
import { ACCEPT, createGated, decide, fetchTask, isPending, taskIn } from './support/acceptanceClient.ts';
import { stateOf } from './support/rpcClient.ts';

const { open, cleanups } = agentsOnPaths();

describe('outbox without acceptance_gates', () => {
  it('opens, keeps its tasks ungated, and gates new tasks', async () => {
    const db = tempDbPath();
    cleanups.push(db.cleanup);
    const first = await open(db.path);
    const old = taskIn('1.0', await createGated(first.url, '1.0', {}, { acceptance: false }));
    await first.close();
    // Back to the file as the agent wrote it before issue 12.
    const raw = new Database(db.path);
    raw.exec('DROP TABLE acceptance_gates');
    raw.close();

    const agent = await open(db.path);
    expect(stateOf('1.0', await fetchTask(agent.url, '1.0', old.id))).toBe('TASK_STATE_COMPLETED');
    expect((await decide(agent.url, '1.0', old.id, ACCEPT)).body.error.code).toBe(-32042);
    const gated = taskIn('1.0', await createGated(agent.url, '1.0'));
    expect(isPending(gated)).toBe(true);
  });
});
