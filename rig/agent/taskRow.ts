// One task as the outbox holds it (outbox.ts) and its cache keeps it (taskRowCache.ts): the task
// without its history, the script's progress, and the history's counts and newest messages.
import type { Message, Task } from '../protocol/a2aTypes.ts';

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
}
