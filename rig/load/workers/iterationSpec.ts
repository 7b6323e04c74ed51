// An open-model iteration that can be rebuilt in a worker thread (workerPool.ts). A closure cannot
// cross threads, so such an iteration carries a spec: a module, the name of a factory it exports and
// JSON arguments; the worker imports the module and builds the iteration (with its own client)
// from them. What the caller's thread keeps (the histograms the iteration records into, the
// observer of its client's traffic) stays here as sinks, fed from the workers' batches.
import type { ExchangeObserver } from '../../client/exchangeObserver.ts';
import type { TransportError } from '../../client/transportError.ts';
import type { LatencyHistogram } from '../../metrics/latencyHistogram.ts';
import type { Iteration } from '../openModelExecutor.ts';

export interface IterationSpec {
  /** A file: URL the worker can import. */
  module: string;
  /** The name of its IterationFactory export. */
  export: string;
  /** Structured-cloneable arguments (plain data, Buffers). */
  args: unknown;
}

/** What a worker gives a factory: histograms that forward to the caller's, an observer that forwards exchanges. */
export interface WorkerTools {
  /** How many workers share the schedule (a client's connections are split among them). */
  workers: number;
  /** The histogram the caller named `name` in the sinks (recorded here, merged into the caller's). */
  histogram(name: string): LatencyHistogram | undefined;
  /** Forwards the client's exchanges to the caller's observer (when it has one): give it to the client. */
  observer: ExchangeObserver;
  /** Told of exchanges the agent refused (401/403): give it to the worker's client as onRefused. */
  onRefused: (err: TransportError) => void;
}

export interface BuiltIteration {
  iteration: Iteration;
  /** Closes what the factory opened for this run alone, after the run. */
  close?: () => Promise<void>;
}

export type IterationFactory = (args: never, tools: WorkerTools) => BuiltIteration | Promise<BuiltIteration>;

/** The caller's side of a spec: where the workers' records go. */
export interface IterationSinks {
  histograms?: Record<string, LatencyHistogram | undefined>;
  observer?: ExchangeObserver;
  onRefused?: (err: TransportError) => void;
}

export interface WorkerIterationTag {
  spec: IterationSpec;
  sinks: IterationSinks;
}

const TAG = Symbol('a2a-rig worker iteration');

/** The same iteration, marked as rebuildable in a worker from `spec`. */
export function withWorkerSpec(iteration: Iteration, spec: IterationSpec, sinks: IterationSinks = {}): Iteration {
  return Object.assign(iteration, { [TAG]: { spec, sinks } satisfies WorkerIterationTag });
}

/** The spec an iteration was marked with; undefined for a plain closure (it runs on the caller's thread). */
export function workerSpecOf(iteration: Iteration): WorkerIterationTag | undefined {
  return (iteration as Iteration & { [TAG]?: WorkerIterationTag })[TAG];
}

/** What a job (workerMessages.ts JobMessage) is given in its worker: its share and a line to the coordinator. */
export interface JobChannel {
  /** i of N. */
  share: { index: number; count: number };
  /** How often to send what was gathered (ms): the pool's batch period. */
  flushMs: number;
  post(body: unknown): void;
  /** The coordinator's messages to this job. */
  onMessage(listener: (body: unknown) => void): void;
  /** Aborted when the coordinator stops the job (the run's abort, another thread's failure). */
  signal: AbortSignal;
  /** Give these to the job's clients: their traffic goes to the caller's sinks, batched every flushMs. */
  observer: ExchangeObserver;
  onRefused: (err: TransportError) => void;
}

/** A job's entry point: resolves with its result (structured-cloneable), after its last post. */
export type JobFunction = (args: never, channel: JobChannel) => Promise<unknown>;
