// One schedule on the worker pool (workerPool.ts), as the coordinator follows it: every worker
// ready (its iteration built), then one origin for all; the workers' batches to the caller's
// observer, histograms and traffic sinks; the run's signal to every worker; their results.
import { TransportError } from '../../client/transportError.ts';
import type { PolledSamples } from '../../metrics/latencyHistogram.ts';
import type { OpenModelOptions } from '../openModelExecutor.ts';
import type { IterationSinks, WorkerIterationTag } from './iterationSpec.ts';
import type { Batch, FromWorker, ToWorker, WireResult } from './workerMessages.ts';

/** Told as the workers' iterations start and settle (the run observer's counts). */
export interface IterationCounts {
  /** The offered arrival rate as the workers' arrivals come due; 0 when the run ends. */
  onArrivalRate?(perSecond: number): void;
  onIterationStart?(): void;
  onIterationEnd?(outcome: 'succeeded' | 'failed'): void;
}

/** A run's options; its iteration is the spec's. */
export type WorkerRunOptions = Omit<OpenModelOptions, 'iteration'>;

const local = (epochMs: number): number => epochMs - performance.timeOrigin;

/** A batch's client traffic (refusals, openings, exchanges, answers) to the caller's sinks. */
export function forwardTraffic(b: Batch, sinks: IterationSinks): void {
  for (const r of b.refused) sinks.onRefused?.(new TransportError(r.failure, r.message, r.httpStatus));
  const traffic = sinks.observer;
  if (!traffic) return;
  for (let i = 0; i < b.openings; i++) traffic.opening?.();
  for (const [method, end, latencyMs, operation, sent, received, stream] of b.exchanges)
    traffic.exchange(method, end, latencyMs, { operation, sent, received, ...(stream ? { stream } : {}) });
  for (const answer of b.answers) traffic.answer({ ...answer, startedAt: local(answer.startedAt) });
}

export class PoolRun {
  /** undefined: stopped before every worker was ready (none started; the pool ends them). */
  readonly results: Promise<WireResult[] | undefined>;
  private resolve!: (results: WireResult[] | undefined) => void;
  private reject!: (err: Error) => void;
  private readonly done: Array<WireResult | undefined>;
  private ready = 0;
  private settled = false;

  constructor(
    private readonly size: number,
    private readonly options: WorkerRunOptions,
    private readonly tag: WorkerIterationTag,
    private readonly counts: IterationCounts,
    private readonly broadcast: (message: ToWorker) => void,
  ) {
    this.done = new Array<WireResult | undefined>(size).fill(undefined);
    this.results = new Promise<WireResult[] | undefined>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    options.signal?.addEventListener('abort', this.stop, { once: true });
  }

  private readonly stop = (): void => {
    this.broadcast({ type: 'stop' });
    // A worker still loading its iteration hears nothing until it is done: do not wait for it.
    if (this.ready < this.size) this.finish(() => this.resolve(undefined));
  };

  heard(index: number, message: FromWorker): void {
    if (this.settled) return;
    if (message.type === 'batch') this.batch(message);
    else if (message.type === 'ready') this.readied();
    else if (message.type === 'failed')
      this.failed(new Error(`load worker thread ${index + 1} could not run its share: ${message.message}`));
    else if (message.type === 'done') {
      this.done[index] = message.result;
      this.polled(message.polled);
      if (this.done.every((r) => r !== undefined)) this.finish(() => this.resolve(this.done as WireResult[]));
    }
  }

  failed(err: Error): void {
    this.broadcast({ type: 'stop' });
    this.finish(() => this.reject(err));
  }

  private finish(settle: () => void): void {
    if (this.settled) return;
    this.settled = true;
    this.options.signal?.removeEventListener('abort', this.stop);
    this.counts.onArrivalRate?.(0);
    settle();
  }

  private readied(): void {
    if (++this.ready < this.size) return;
    const origin = this.options.origin ?? performance.now();
    this.broadcast({ type: 'start', originEpoch: performance.timeOrigin + origin });
    if (this.options.signal?.aborted) this.stop();
  }

  private batch(b: Batch): void {
    const { observer } = this.options;
    for (const at of b.due) observer?.due(local(at));
    // One worker's arrivals in a batch are 1/N of the schedule's over the same span.
    const span = b.due.length > 1 ? b.due[b.due.length - 1] - b.due[0] : 0;
    if (span > 0) this.counts.onArrivalRate?.(((b.due.length - 1) * 1000 * this.size) / span);
    for (const at of b.succeeded) observer?.succeeded(local(at));
    for (let i = 0; i < b.iterationStarts; i++) this.counts.onIterationStart?.();
    for (let i = 0; i < b.iterationEnds.succeeded; i++) this.counts.onIterationEnd?.('succeeded');
    for (let i = 0; i < b.iterationEnds.failed; i++) this.counts.onIterationEnd?.('failed');
    for (const [name, samples] of Object.entries(b.samples)) {
      const histogram = this.histogram(name);
      for (let i = 0; i + 1 < samples.length; i += 2) histogram?.recordMicros(samples[i], local(samples[i + 1]));
    }
    forwardTraffic(b, this.tag.sinks);
  }

  private histogram(name: string) {
    if (name === '$latency') return this.options.latency;
    if (name === '$serviceTime') return this.options.serviceTime;
    return this.tag.sinks.histograms?.[name];
  }

  private polled(polled: Record<string, PolledSamples | undefined>): void {
    for (const [name, p] of Object.entries(polled)) this.histogram(name)?.withPolled(p);
  }
}
