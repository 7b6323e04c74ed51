// What the coordinator (workerPool.ts) and a load worker thread (workerThread.ts) tell each other.
// Times cross threads as epoch milliseconds (performance.timeOrigin + performance.now()): each
// thread's performance.now() has its own origin.
import type { AnswerOutcome } from '../../client/answerOutcome.ts';
import type { ExchangeEnd } from '../../client/exchangeObserver.ts';
import type { TransportFailure } from '../../client/transportError.ts';
import type { PolledSamples } from '../../metrics/latencyHistogram.ts';
import type { OpenModelResult } from '../openModelExecutor.ts';
import type { ScheduleTruthRecord } from '../../metrics/scheduleTruth.ts';
import type { IterationSpec } from './iterationSpec.ts';

export interface WorkerData {
  /** The module the boot file imports (workerEntry.ts). */
  main: string;
  /** How often a running worker sends its batch (ms). */
  flushMs: number;
}

/** The executor's bounds, as a worker applies them to its share. */
export interface ShareBounds {
  maxInFlight: number;
  maxBacklog: number;
  lateAfterMs: number | undefined;
  iterationTimeoutMs: number;
  drainTimeoutMs: number;
}

export interface RunMessage {
  type: 'run';
  spec: IterationSpec;
  /** This worker's arrivals: intended offsets (ms) from the run's origin, and their steps. */
  atMs: Float64Array;
  steps: Uint32Array;
  /** i of N: arrival j of the share is arrival i + j·N of the schedule. */
  share: { index: number; count: number };
  /** Histograms whose samples go back one by one (the caller's keep a timeline); by sink name. */
  streamed: string[];
  /** The executor's own latency and service-time histograms, streamed too (the caller passed its own). */
  streamLatency: boolean;
  streamServiceTime: boolean;
  watchTraffic: boolean;
  bounds: ShareBounds;
}

/**
 * Work of another kind than an open-model share (an attack's share, a flood's): the worker imports
 * `module` and calls its export `export` (a JobFunction, iterationSpec.ts) with `args` and a channel.
 */
export interface JobMessage {
  type: 'job';
  spec: IterationSpec;
  share: { index: number; count: number };
  /** The caller watches the traffic of the job's clients (JobChannel.observer). */
  watchTraffic: boolean;
}

export type ToWorker =
  | RunMessage
  | JobMessage
  | { type: 'start'; originEpoch: number }
  | { type: 'stop' }
  /** A job's own message from the coordinator (what its JobChannel.onMessage hears). */
  | { type: 'job-in'; body: unknown };

/** One exchange a worker's client made: method, end, latency, operation, bytes sent/received, stream. */
export type ForwardedExchange = [string, ExchangeEnd, number, string, number, number, boolean];

export interface Batch {
  type: 'batch';
  due: number[];
  succeeded: number[];
  iterationStarts: number;
  iterationEnds: { succeeded: number; failed: number };
  /** By histogram name: value (µs), epoch ms, value, epoch ms, ... */
  samples: Record<string, number[]>;
  exchanges: ForwardedExchange[];
  answers: AnswerOutcome[];
  openings: number;
  /** Exchanges the agent answered 401/403: what the caller's onRefused is told. */
  refused: Array<{ failure: TransportFailure; message: string; httpStatus: number | undefined }>;
}

export type WireResult = Omit<OpenModelResult, 'latency' | 'serviceTime' | 'schedule'> & {
  schedule: ScheduleTruthRecord;
  latency: string;
  serviceTime: string;
  latencyPolled: PolledSamples | undefined;
  serviceTimePolled: PolledSamples | undefined;
};

export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | Batch
  | { type: 'done'; result: WireResult; polled: Record<string, PolledSamples | undefined> }
  /** A job's own message to the coordinator, and its result. */
  | { type: 'job-out'; body: unknown }
  | { type: 'job-done'; result: unknown };
