// The agent's task engine in-process on a temporary outbox file, with a second read-only connection
// to the same file: what survives a kill -9 is exactly what another connection can read. And a bare
// task row for tests that write the outbox directly.
import Database from 'better-sqlite3';
import { Outbox, type TaskRow } from '../../rig/agent/outbox.ts';
import { TaskEngine } from '../../rig/agent/taskEngine.ts';
import { GuardedValidator } from '../../rig/protocol/guardedValidator.ts';
import type { StreamResponse, TaskState } from '../../rig/protocol/a2aTypes.ts';
import { tempDbPath } from './inProcessAgent.ts';

/**
 * Opens the engine, its outbox and a reader on one temporary file; `cleanups` closes them, newest
 * first. `stored(id)` is what the reader sees of a task: its row's counters, its events, its history.
 */
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
  const stored = (id: string) => ({
    task: other.prepare('SELECT state, step, last_seq, history_count FROM tasks WHERE id = ?').get(id),
    events: (other.prepare('SELECT event_json FROM events WHERE task_id = ? ORDER BY seq').all(id) as EventRow[]).map(
      (r) => JSON.parse(r.event_json) as StreamResponse,
    ),
    history: other.prepare('SELECT COUNT(*) AS n FROM task_history WHERE task_id = ?').get(id),
  });
  return { outbox, engine, other, stored };
}

interface EventRow {
  event_json: string;
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
