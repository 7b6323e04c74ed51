// One iteration of an open-model run (openModelExecutor.ts) while it runs: what the iteration is
// given (its place in the schedule, its times, its signal) and what the executor keeps of it (its
// deadline, whether it timed out).

import { setMaxListeners } from 'node:events';

export interface IterationContext {
  /** 0-based, in schedule order. */
  index: number;
  /** The schedule step the arrival belongs to. */
  step: number;
  /** performance.now() when the iteration was meant to start. */
  intendedAt: number;
  /** performance.now() when it did start. */
  startedAt: number;
  /**
   * Aborted at the iteration's timeout, at the end of the drain, or when the run is aborted. Shared
   * with the iterations that started at the same moment (runningIteration.ts): remove what you add.
   */
  signal: AbortSignal;
}

/** An arrival that came due: its place in the schedule and when it was meant to start (performance.now()). */
export interface Due {
  index: number;
  step: number;
  intendedAt: number;
}

export class IterationTimeout extends Error {
  override name = 'IterationTimeout';
  readonly kind = 'timeout';
}

/** How a failed iteration is counted: its error's string `kind` (`timeout` for a timeout), else its name. */
export function failureKind(err: unknown): string {
  const kind = (err as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' && kind.length > 0 ? kind : err instanceof Error ? err.name : 'error';
}

/**
 * The iterations that start within BATCH_SPAN_MS of each other share one deadline and one signal: an
 * AbortController and its signal cost more than the rest of an iteration's bookkeeping, and a load
 * starts its iterations in bursts (whatever came due since the pump's last timer tick). The deadline
 * is the batch's opening plus the span plus the timeout, so no member's timeout is shortened (it may
 * be lengthened by less than the span, within a timer's resolution). The controller is made only
 * when an iteration asks for the signal.
 */
export class IterationBatch {
  readonly deadline: number;
  private controller: AbortController | undefined;
  private abortReason: unknown;
  private aborted = false;

  constructor(
    readonly openedAt: number,
    timeoutMs: number,
  ) {
    this.deadline = openedAt + BATCH_SPAN_MS + timeoutMs;
  }

  /** Whether an iteration starting at `now` may join this batch. */
  admits(now: number): boolean {
    return !this.aborted && now - this.openedAt <= BATCH_SPAN_MS;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      // Every member of a burst may listen to it at once: that is sharing, not a listener leak.
      setMaxListeners(0, this.controller.signal);
      if (this.aborted) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.abortReason = reason;
    this.controller?.abort(reason);
  }
}

/** Within a timer tick: iterations started by one pump, or by the replies of one read, share a batch. */
export const BATCH_SPAN_MS = 1;

/**
 * A running iteration is its own context. Its signal is its batch's: it aborts at the batch's
 * deadline (this iteration's timeout, or within BATCH_SPAN_MS after it), at the run's end or abort,
 * and may abort after the iteration settled (when a batch-mate times out), which no one reads.
 */
export class RunningIteration implements IterationContext {
  readonly index: number;
  readonly step: number;
  readonly intendedAt: number;
  readonly deadline: number;
  timedOut: IterationTimeout | undefined;

  constructor(
    due: Due,
    readonly startedAt: number,
    private readonly batch: IterationBatch,
  ) {
    this.index = due.index;
    this.step = due.step;
    this.intendedAt = due.intendedAt;
    this.deadline = batch.deadline;
  }

  get signal(): AbortSignal {
    return this.batch.signal;
  }

  abort(reason: unknown): void {
    this.batch.abort(reason);
  }
}

/**
 * What an iteration may report: when the outcome it measures was observed (default: when it
 * settled), and, when that was seen by polling, how sure (ms): its latencies are recorded as polled.
 */
export interface IterationEnd {
  endedAt?: number;
  pollResolutionMs?: number;
}
