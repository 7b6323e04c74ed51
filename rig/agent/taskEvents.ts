// Live fan-out of committed task events to whoever listens (SSE streams, replay sockets, blocking
// sends). Events are published only after their transaction commits.
import type { Task } from '../protocol/a2aTypes.ts';
import { logUnexpected } from './httpGuards.ts';
import type { StoredEvent } from './outbox.ts';

export type TaskListener = (event: StoredEvent, task: Task) => void;

export class TaskEvents {
  private readonly listeners = new Map<string, Set<TaskListener>>();

  subscribe(taskId: string, listener: TaskListener): () => void {
    let set = this.listeners.get(taskId);
    if (!set) this.listeners.set(taskId, (set = new Set()));
    set.add(listener);
    return () => {
      set!.delete(listener);
      if (set!.size === 0 && this.listeners.get(taskId) === set) this.listeners.delete(taskId);
    };
  }

  publish(event: StoredEvent, task: Task): void {
    const set = this.listeners.get(event.taskId);
    if (!set) return;
    // Each listener serves one connection: a throw in one must neither skip the others nor reach
    // the engine's commit path (where it would become an uncaught exception and end the agent).
    for (const listener of [...set]) {
      try {
        listener(event, task);
      } catch (err) {
        logUnexpected(`event listener of task ${event.taskId}`, err);
      }
    }
  }
}
