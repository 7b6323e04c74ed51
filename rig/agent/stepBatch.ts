// The steps one advance() of the task engine runs (taskEngine.ts), in one transaction (savepoint)
// of the outbox: each step appends its event, the task row is written once, at the end, instead of
// once per step with a savepoint each, and the events are published only once that whole
// transaction succeeded. A step that fails rolls back every step of the call (nothing of them is
// published; a restart's recover() runs them again).
import type { StreamResponse, Task } from '../protocol/a2aTypes.ts';
import type { Outbox, StoredEvent, TaskRow } from './outbox.ts';

export class StepBatch {
  /** The events the steps appended, with the task as it was at each. */
  readonly events: Array<{ stored: StoredEvent; asOf: Task }> = [];

  /** Whether a step's write threw (caught or not, the whole batch must roll back). */
  private failed = false;

  private constructor(readonly row: TaskRow) {}

  /** Runs one step's write in the batch's transaction; a throw fails the whole batch. */
  write(fn: () => StoredEvent): StoredEvent {
    try {
      const stored = fn();
      this.events.push({ stored, asOf: { ...this.row.task } });
      return stored;
    } catch (err) {
      this.failed = true;
      throw err;
    }
  }

  /** Runs `steps` on `row` in one transaction with `open` set to the batch meanwhile; then announces
   * its events in order. `create` (a new task's own writes, taskEngine.ts) runs first in the same
   * transaction, and the row is then INSERTed at the end, as the steps leave it. */
  static run(
    outbox: Outbox,
    row: TaskRow,
    open: (batch: StepBatch | undefined) => void,
    steps: () => void,
    announce: (stored: StoredEvent, asOf: Task) => void,
    create?: () => StoredEvent,
  ): void {
    const batch = new StepBatch(row);
    const { lastSeq, step } = row;
    const failures = outbox.failedTransactions;
    outbox.transaction(() => {
      if (create) batch.events.push({ stored: create(), asOf: { ...row.task } });
      open(batch);
      try {
        steps();
      } finally {
        open(undefined);
      }
      // A step that failed and was caught left the row changed in memory only, its writes half done.
      if (batch.failed || outbox.failedTransactions !== failures)
        throw new Error(`a step of task ${row.task.id} failed`);
      if (create) outbox.insertTask(row);
      else if (row.lastSeq !== lastSeq || row.step !== step) outbox.updateTask(row);
    });
    for (const { stored, asOf } of batch.events) announce(stored, asOf);
  }
}

/** A transition's writes (the task engine's commit): `mutate` the task, `alsoWrite` the rows that
 * change with it, append its event, and (unless a StepBatch writes it later) the task row. */
export function writeTransition(
  outbox: Outbox,
  row: TaskRow,
  mutate: (task: Task) => void,
  eventOf: (task: Task) => StreamResponse,
  alsoWrite: (() => void) | undefined,
  writeRow: boolean,
): StoredEvent {
  mutate(row.task);
  alsoWrite?.();
  const event = outbox.appendEvent(row, eventOf(row.task));
  // After appendEvent: the row carries its new seq (and history counts) into the one UPDATE.
  if (writeRow) outbox.updateTask(row);
  return event;
}
