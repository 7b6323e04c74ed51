// A job on the worker pool (workerPool.ts runJob): work of another kind than an open-model share
// (an attack's share, a flood's), run by every worker at once. The coordinator hears each worker's
// own messages as they come (and its clients' traffic, batched as an open-model run's), can answer
// one worker, stops them all with the caller's signal, and gets every worker's result, in order.
import type { IterationSinks } from './iterationSpec.ts';
import { forwardTraffic } from './poolRun.ts';
import type { FromWorker, ToWorker } from './workerMessages.ts';

export interface JobHandlers {
  /** A worker's own message (what its JobChannel.post sent). */
  heard(index: number, body: unknown): void;
  /** Where the traffic of the workers' clients goes (given the JobChannel's observer and onRefused). */
  sinks?: IterationSinks;
}

export class PoolJob {
  readonly results: Promise<unknown[]>;
  private resolve!: (results: unknown[]) => void;
  private reject!: (err: Error) => void;
  private readonly done: unknown[];
  private doneCount = 0;
  private settled = false;

  constructor(
    private readonly size: number,
    private readonly handlers: JobHandlers,
    private readonly broadcast: (message: ToWorker) => void,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.done = new Array<unknown>(size);
    this.results = new Promise<unknown[]>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Each worker's job ends promptly on its signal and still sends its result.
    signal?.addEventListener('abort', this.stop, { once: true });
  }

  /** Every worker's job stops (sent after the jobs themselves, or a worker would not hear it). */
  readonly stop = (): void => this.broadcast({ type: 'stop' });

  heard(index: number, message: FromWorker): void {
    if (this.settled) return;
    if (message.type === 'job-out') this.handlers.heard(index, message.body);
    else if (message.type === 'batch') forwardTraffic(message, this.handlers.sinks ?? {});
    else if (message.type === 'failed')
      this.failed(new Error(`load worker thread ${index + 1} could not run its share: ${message.message}`));
    else if (message.type === 'job-done') {
      this.done[index] = message.result;
      if (++this.doneCount === this.size) this.finish(() => this.resolve(this.done));
    }
  }

  failed(err: Error): void {
    this.stop();
    this.finish(() => this.reject(err));
  }

  private finish(settle: () => void): void {
    if (this.settled) return;
    this.settled = true;
    this.signal?.removeEventListener('abort', this.stop);
    settle();
  }
}
