// An outbox file written before history and artifacts became rows of their own (whole tasks in
// tasks.task_json) opens with every task intact: history and artifacts are moved over once.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Outbox } from '../rig/agent/outbox.ts';
import { tempDbPath } from './support/inProcessAgent.ts';

/** The tasks table as the outbox created it before the change. */
const OLD_TASKS =
  'CREATE TABLE tasks (id TEXT PRIMARY KEY, state TEXT NOT NULL, task_json TEXT NOT NULL, ' +
  'script_json TEXT NOT NULL,\n' +
  '  step INTEGER NOT NULL, activated INTEGER NOT NULL, last_answer_json TEXT, last_seq INTEGER NOT NULL DEFAULT 0)';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('outbox migration', () => {
  it('moves the history and artifacts of whole-task rows into their own rows', () => {
    const db = tempDbPath();
    cleanups.push(db.cleanup);
    const old = new Database(db.path);
    old.exec(OLD_TASKS);
    const history = [
      { messageId: 'u1', role: 'ROLE_USER', parts: [{ text: 'hello' }] },
      { messageId: 'a1', role: 'ROLE_AGENT', parts: [{ text: 'Q?' }] },
    ];
    const task = {
      id: 't1',
      contextId: 'c1',
      status: { state: 'TASK_STATE_INPUT_REQUIRED', message: history[1] },
      history,
      artifacts: [{ artifactId: 'r1', parts: [{ text: 'x' }] }],
    };
    old
      .prepare(
        'INSERT INTO tasks (id, state, task_json, script_json, step, activated, last_seq) ' +
          `VALUES ('t1', 'TASK_STATE_INPUT_REQUIRED', ?, '{"steps":[]}', 1, 1, 3)`,
      )
      .run(JSON.stringify(task));
    old.close();

    const outbox = new Outbox(db.path);
    cleanups.unshift(() => outbox.close());
    const row = outbox.getTask('t1')!;
    expect(row.historyCount).toBe(2);
    expect(row.lastSeq).toBe(3);
    expect(row.task.artifacts).toEqual(task.artifacts);
    expect(row.task.status).toEqual(task.status);
    expect(outbox.recentHistory('t1', 10, 1_000_000)).toEqual(history);
    expect(outbox.listTasks({}, 10, 0).tasks[0].id).toBe('t1');
  });
});
