// The agent's task engine in-process on a temporary outbox file, with a second read-only connection
// to the same file: what survives a kill -9 is exactly what another connection can read. And a bare
// task row for tests that write the outbox directly.
import Database from 'better-sqlite3';
import { Outbox, type TaskRow } from '../../rig/agent/outbox.ts';
import { TaskEngine } from '../../rig/agent/taskEngine.ts';
import { GuardedValidator } from '../../rig/protocol/guardedValidator.ts';
import type { TaskState } from '../../rig/protocol/a2aTypes.ts';
import { tempDbPath } from './inProcessAgent.ts';

/** Opens the engine, its outbox and a reader on one temporary file; `cleanups` closes them, newest first. */
export function engineOnTempOutbox(cleanups: Array<() => void>) {
  const db = tempDbPath();
  const outbox = new Outbox(db.path);
  const engine = new TaskEngine(outbox, new GuardedValidator({ maxDepth: 32 }), new Set());
  const other = new Database(db.path, { readonly: true });
  cleanups.push(() => {
    other.close();
    engine.close();
    outbox.close();
    db.cleanup();
  });
  return { outbox, engine, other };
}

/** A task row with no history, artifacts or script steps, in `state`. */
export function bareTaskRow(id: string, state: TaskState = 'TASK_STATE_WORKING', activated = false): TaskRow {
  return {
    task: {
      id,
      contextId: 'c',
      status: { state, timestamp: '2026-12-05T00:00:00Z' },
      history: [],
      artifacts: [],
    },
    script: { steps: [] },
    step: 0,
    activated,
    lastAnswer: undefined,
    lastSeq: 0,
    historyCount: 0,
    historyBytes: 0,
  };
}
