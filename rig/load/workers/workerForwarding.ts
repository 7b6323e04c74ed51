// A load worker's records on their way to the coordinator: what came due and succeeded, iteration
// starts and ends, histogram samples and client exchanges, gathered in one batch and sent every
// flushMs (not per message: postMessage costs more than the recording).
import type { AnswerOutcome } from '../../client/answerOutcome.ts';
import type { ExchangeEnd, ExchangeObserver, ExchangeTraffic } from '../../client/exchangeObserver.ts';
import type { TransportError } from '../../client/transportError.ts';
import { LatencyHistogram } from '../../metrics/latencyHistogram.ts';
import type { LoadObserver } from '../openModelExecutor.ts';
import type { Batch } from './workerMessages.ts';

const epoch = (at: number): number => performance.timeOrigin + at;

function emptyBatch(): Batch {
  return {
    type: 'batch',
    due: [],
    succeeded: [],
    iterationStarts: 0,
    iterationEnds: { succeeded: 0, failed: 0 },
    samples: {},
    exchanges: [],
    answers: [],
    openings: 0,
    refused: [],
  };
}

/** One per thread: the clients it keeps from run to run report here, to whichever run is going. */
export class Forwarding implements LoadObserver, ExchangeObserver {
  private batch = emptyBatch();
  private empty = true;
  /** The current run's caller watches its clients' traffic. */
  watchTraffic = false;

  constructor(private readonly send: (batch: Batch) => void) {}

  due(intendedAt: number): void {
    this.batch.due.push(epoch(intendedAt));
    this.empty = false;
  }

  succeeded(endedAt: number): void {
    this.batch.succeeded.push(epoch(endedAt));
    this.empty = false;
  }

  iterationStarted(): void {
    this.batch.iterationStarts++;
    this.empty = false;
  }

  iterationEnded(outcome: 'succeeded' | 'failed'): void {
    this.batch.iterationEnds[outcome]++;
    this.empty = false;
  }

  /** A histogram whose every sample goes to the coordinator's histogram named `name`. */
  histogram(name: string): LatencyHistogram {
    return new LatencyHistogram(undefined, (us, at) => {
      (this.batch.samples[name] ??= []).push(us, epoch(at));
      this.empty = false;
    });
  }

  exchange(method: string, end: ExchangeEnd, latencyMs: number, traffic?: ExchangeTraffic): void {
    if (!this.watchTraffic) return;
    const t = traffic ?? { operation: '', sent: 0, received: 0 };
    this.batch.exchanges.push([method, end, latencyMs, t.operation, t.sent, t.received, t.stream === true]);
    this.empty = false;
  }

  answer(outcome: AnswerOutcome): void {
    if (!this.watchTraffic) return;
    this.batch.answers.push({ ...outcome, startedAt: epoch(outcome.startedAt) });
    this.empty = false;
  }

  opening(): void {
    if (!this.watchTraffic) return;
    this.batch.openings++;
    this.empty = false;
  }

  /** An exchange the agent refused (401/403), for the caller's TargetAccess.onRefused. */
  readonly refusedBy = (err: TransportError): void => {
    this.batch.refused.push({ failure: err.failure, message: err.message, httpStatus: err.httpStatus });
    this.empty = false;
  };

  /** Sends what was gathered since the last flush, if anything. */
  flush(): void {
    if (this.empty) return;
    const batch = this.batch;
    this.batch = emptyBatch();
    this.empty = true;
    this.send(batch);
  }
}
