// The open model on several worker threads: one schedule, each worker offering its share (the
// arrival-k-mod-N split) with its own event loop, client and connections, so the generator uses
// every core it is given. The coordinator stays light: it materialises the schedule once, starts
// every worker at one origin, feeds the caller's observer, histograms and traffic from the workers'
// batches, and merges their results exactly (openModelMerge.ts). Workers are made on the first run
// and kept for the next ones; close() ends them.
import { Worker } from 'node:worker_threads';
import { LatencyHistogram } from '../../metrics/latencyHistogram.ts';
import { emptyOpenModelResult, mergeOpenModelResults } from '../openModelMerge.ts';
import { DEFAULT_LATE_AFTER_MS, type OpenModelResult } from '../openModelExecutor.ts';
import { ScheduleRecorder, scheduleTruthOf } from '../../metrics/scheduleTruth.ts';
import type { WorkerIterationTag } from './iterationSpec.ts';
import { WORKER_BOOT, WORKER_MAIN } from './workerEntry.ts';
import type { FromWorker, ToWorker, WireResult, WorkerData } from './workerMessages.ts';
import { materialiseShares, shareOfBound } from './workerShares.ts';
import { PoolRun, type IterationCounts, type WorkerRunOptions } from './poolRun.ts';
import { PoolJob, type JobHandlers } from './poolJob.ts';
import type { IterationSpec } from './iterationSpec.ts';

export type { IterationCounts, WorkerRunOptions } from './poolRun.ts';

/** A worker thread failed: the rig's limit, not the agent's. */
export class LoadWorkerFailure extends Error {
  override name = 'LoadWorkerFailure';
  readonly kind = 'rig';
}

const FLUSH_MS = 50;

export class LoadWorkerPool {
  private workers: Worker[] = [];
  private current: PoolRun | PoolJob | undefined;
  private broken: LoadWorkerFailure | undefined;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1 || size > 64)
      throw new RangeError(`a load worker pool has 1..64 workers, got ${size}`);
  }

  /** Runs `options` with the iteration rebuilt from `tag` in every worker. */
  async run(
    options: WorkerRunOptions,
    tag: WorkerIterationTag,
    counts: IterationCounts = {},
  ): Promise<OpenModelResult> {
    this.assertIdle();
    if (!(options.maxInFlight >= this.size))
      throw new RangeError(`maxInFlight (${options.maxInFlight}) must be at least the workers (${this.size})`);
    sendable(tag);
    const shares = materialiseShares(options.arrivals, this.size);
    this.spawn();
    const run = new PoolRun(this.size, options, tag, counts, (m) => this.broadcast(m));
    this.current = run;
    try {
      for (const [index, worker] of this.workers.entries()) {
        worker.ref();
        worker.postMessage({
          type: 'run',
          spec: tag.spec,
          ...shares[index],
          share: { index, count: this.size },
          streamed: Object.keys(tag.sinks.histograms ?? {}).filter((n) => tag.sinks.histograms?.[n]),
          streamLatency: options.latency !== undefined,
          streamServiceTime: options.serviceTime !== undefined,
          watchTraffic: tag.sinks.observer !== undefined,
          bounds: {
            maxInFlight: shareOfBound(options.maxInFlight, { index, count: this.size }),
            maxBacklog: shareOfBound(options.maxBacklog ?? 0, { index, count: this.size }),
            lateAfterMs: options.lateAfterMs,
            iterationTimeoutMs: options.iterationTimeoutMs,
            drainTimeoutMs: options.drainTimeoutMs,
          },
        } satisfies ToWorker);
      }
      const results = await run.results;
      if (results) return finalResult(results, options);
      await this.close();
      return stoppedBeforeStart(options);
    } finally {
      this.current = undefined;
      for (const worker of this.workers) worker.unref();
    }
  }

  /** Whether a run or job is going (another one would be refused). */
  get busy(): boolean {
    return this.current !== undefined;
  }

  /**
   * Runs the job `spec` (a JobFunction export) on every worker, worker i given share i of N; `send`
   * answers one worker. Resolves with every worker's result; `signal` stops them all (each still
   * sends its result); a crashed worker rejects with a LoadWorkerFailure.
   */
  async runJob(
    spec: IterationSpec,
    handlers: (send: (index: number, body: unknown) => void) => JobHandlers,
    signal?: AbortSignal,
  ): Promise<unknown[]> {
    this.assertIdle();
    sendable({ spec, sinks: {} });
    this.spawn();
    const send = (index: number, body: unknown) => this.workers[index]?.postMessage({ type: 'job-in', body });
    const heard = handlers(send);
    const job = new PoolJob(this.size, heard, (m) => this.broadcast(m), signal);
    this.current = job;
    try {
      for (const [index, worker] of this.workers.entries()) {
        worker.ref();
        const watchTraffic = heard.sinks?.observer !== undefined;
        worker.postMessage({ type: 'job', spec, share: { index, count: this.size }, watchTraffic } satisfies ToWorker);
      }
      if (signal?.aborted) job.stop();
      return await job.results;
    } catch (err) {
      // A worker may still be at the failed job: ended, so that none of its messages reaches the next one.
      await this.close();
      throw err;
    } finally {
      this.current = undefined;
      for (const worker of this.workers) worker.unref();
    }
  }

  private assertIdle(): void {
    if (this.broken) throw this.broken;
    if (this.current) throw new Error('a load worker pool runs one schedule at a time');
  }

  /** Ends every worker (their sockets with them). */
  async close(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private broadcast(message: ToWorker): void {
    for (const worker of this.workers) worker.postMessage(message);
  }

  private spawn(): void {
    if (this.workers.length > 0) return;
    for (let index = 0; index < this.size; index++) {
      const worker = new Worker(WORKER_BOOT, {
        workerData: { main: WORKER_MAIN, flushMs: FLUSH_MS } satisfies WorkerData,
      });
      worker.on('message', (m: FromWorker) => this.current?.heard(index, m));
      worker.on('error', (err) => this.fail(index, err.stack ?? err.message));
      worker.on('exit', (code) => this.fail(index, `it exited (code ${code})`));
      this.workers.push(worker);
    }
  }

  private fail(index: number, why: string): void {
    if (this.workers.length === 0) return; // closed: exits are expected
    this.broken ??= new LoadWorkerFailure(`load worker thread ${index + 1} of ${this.size} failed: ${why}`);
    this.current?.failed(this.broken);
    void this.close();
  }
}

/** Refuses, before any worker is sent anything, a spec that cannot cross to a thread (a function in its args). */
function sendable(tag: WorkerIterationTag): void {
  try {
    structuredClone(tag.spec);
  } catch (err) {
    throw new TypeError(`the iteration's spec cannot be sent to a worker thread: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

/** A run stopped before any worker started: nothing came due. */
function stoppedBeforeStart(options: WorkerRunOptions): OpenModelResult {
  const schedule = new ScheduleRecorder(options.lateAfterMs ?? DEFAULT_LATE_AFTER_MS).finish();
  return { ...emptyOpenModelResult(schedule, options.latency, options.serviceTime), aborted: true };
}

function decoded(encoded: string, polled: WireResult['latencyPolled']): LatencyHistogram {
  return LatencyHistogram.decode(encoded).withPolled(polled);
}

/** The workers' results as one; the caller's own latency histograms (fed sample by sample) stand for the sums. */
function finalResult(results: WireResult[], options: WorkerRunOptions): OpenModelResult {
  const merged = mergeOpenModelResults(
    results.map((r) => ({
      ...r,
      schedule: scheduleTruthOf(r.schedule),
      latency: decoded(r.latency, r.latencyPolled),
      serviceTime: decoded(r.serviceTime, r.serviceTimePolled),
    })),
  );
  if (options.latency) {
    for (const r of results) options.latency.withPolled(r.latencyPolled);
    merged.latency = options.latency;
  }
  if (options.serviceTime) {
    for (const r of results) options.serviceTime.withPolled(r.serviceTimePolled);
    merged.serviceTime = options.serviceTime;
  }
  return merged;
}
