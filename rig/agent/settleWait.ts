// A blocking send waiting for its task to settle (taskEngine.ts, settled()), or for the blocking
// bound. A class, not closures: under tsx's keepNames every named function made per call costs a
// defineProperty (commitHold.ts), and every blocking send that finds its task still running waits here.
import type { Task } from '../protocol/a2aTypes.ts';
import { isSettled } from '../protocol/a2aTypes.ts';
import type { TaskEvents } from './taskEvents.ts';

/** What the wait reads of the engine: its committed events and the task as it is now. */
export interface SettleSource {
  readonly events: TaskEvents;
  getRow(taskId: string): { task: Task };
}

export class SettleWait {
  private readonly timer: NodeJS.Timeout;
  private readonly unsubscribe: () => void;

  constructor(
    engine: SettleSource,
    taskId: string,
    boundMs: number,
    private readonly resolve: (task: Task) => void,
  ) {
    this.timer = setTimeout(() => this.done(engine.getRow(taskId).task), boundMs).unref();
    this.unsubscribe = engine.events.subscribe(taskId, (_event, task) => {
      if (isSettled(task.status.state)) this.done(task);
    });
  }

  private done(task: Task): void {
    clearTimeout(this.timer);
    this.unsubscribe();
    this.resolve(task);
  }
}
