// One task as the outbox holds it (outbox.ts) and its cache keeps it (taskRowCache.ts): the task
// without its history, the script's progress, and the history's counts and newest messages; and
// how a row of the tasks table (task_json holds the task without history and artifacts) reads back.
import { randomUUID } from 'node:crypto';
import type { Artifact, Message, Task } from '../protocol/a2aTypes.ts';
import { timeOrderedId } from './timeOrderedId.ts';
import { isoNow } from './isoNow.ts';

export interface TaskRow {
  task: Task;
  script: unknown;
  step: number;
  activated: boolean;
  lastAnswer: unknown;
  lastSeq: number;
  /** Messages and serialized bytes in the stored history (task.history itself is not loaded, and
   * is empty in a row read back). */
  historyCount: number;
  historyBytes: number;
  /** The newest history messages with their sizes, oldest first (taskRowCache.ts), kept for rows
   * this process created; absent on a row read back (views then read the table). */
  tail?: Array<{ message: Message; bytes: number }>;
  /** True on a row this process created without an acceptance gate: a gate is only ever stored in
   * the transaction that creates its task, so such a task never has one and finishing it needs no
   * lookup. Absent on a row read back (the gate table is asked then). */
  gateless?: boolean;
}

/** The task without history and artifacts, as stored in tasks.task_json. */
export function coreJson(task: Task): string {
  const { history: _h, artifacts: _a, ...core } = task;
  return JSON.stringify(core);
}

/** A row of the tasks table as a TaskRow, with its artifacts (read from their own rows). */
export function toTaskRow(r: Record<string, unknown>, artifacts: Artifact[]): TaskRow {
  return {
    task: { ...(JSON.parse(r.task_json as string) as Task), history: [], artifacts },
    script: JSON.parse(r.script_json as string),
    step: r.step as number,
    activated: r.activated === 1,
    lastAnswer: r.last_answer_json == null ? undefined : JSON.parse(r.last_answer_json as string),
    lastSeq: r.last_seq as number,
    historyCount: r.history_count as number,
    historyBytes: r.history_bytes as number,
  };
}

/** A new task's row, SUBMITTED, its first message in `task.history` until it is stored. */
export function newTaskRow(message: Message, script: unknown, activated: boolean, gateless: boolean): TaskRow {
  const id = timeOrderedId();
  const contextId = message.contextId ?? randomUUID();
  // Copied, then given its ids: a spread that adds keys to a copy took V8's slow path (microseconds).
  const first: Message = Object.assign({}, message);
  first.taskId = id;
  first.contextId = contextId;
  const task: Task = {
    id,
    contextId,
    status: { state: 'TASK_STATE_SUBMITTED', timestamp: isoNow() },
    artifacts: [],
    history: [first],
  };
  return {
    task,
    script,
    step: 0,
    activated,
    lastAnswer: undefined,
    lastSeq: 0,
    historyCount: 0,
    historyBytes: 0,
    gateless,
  };
}
