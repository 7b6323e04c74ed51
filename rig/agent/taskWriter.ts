// What every step driver (prompt steps, artifact steps, the acceptance gate) writes through: the
// task engine's one commit path, a task mutation and its stream event in one transaction of the
// outbox. taskEngine.ts implements it; each driver's own interface adds what else it needs.
import type { StreamResponse, Task, TaskState } from '../protocol/a2aTypes.ts';
import type { Outbox, StoredEvent, TaskRow } from './outbox.ts';

export interface TaskWriter {
  readonly outbox: Outbox;
  commit(
    row: TaskRow,
    mutate: (task: Task) => void,
    eventOf: (task: Task) => StreamResponse,
    alsoWrite?: () => void,
  ): StoredEvent;
  setStatus(
    row: TaskRow,
    state: TaskState,
    text?: string,
    metadata?: Record<string, unknown>,
    alsoWrite?: () => void,
  ): StoredEvent;
}
