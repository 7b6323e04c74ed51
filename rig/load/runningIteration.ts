// One iteration of an open-model run (openModelExecutor.ts) while it runs: what the iteration is
// given (its place in the schedule, its times, its signal) and what the executor keeps of it (its
// deadline, whether it timed out).

export interface IterationContext {
  /** 0-based, in schedule order. */
  index: number;
  /** The schedule step the arrival belongs to. */
  step: number;
  /** performance.now() when the iteration was meant to start. */
  intendedAt: number;
  /** performance.now() when it did start. */
  startedAt: number;
  /** Aborted at the iteration's timeout, at the end of the drain, or when the run is aborted. */
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

/** A running iteration is its own context; its AbortController is made only if the iteration asks for the signal. */
export class RunningIteration implements IterationContext {
  readonly index: number;
  readonly step: number;
  readonly intendedAt: number;
  readonly deadline: number;
  timedOut: IterationTimeout | undefined;
  private controller: AbortController | undefined;
  private abortReason: unknown;
  private aborted = false;

  constructor(
    due: Due,
    readonly startedAt: number,
    timeoutMs: number,
  ) {
    this.index = due.index;
    this.step = due.step;
    this.intendedAt = due.intendedAt;
    this.deadline = startedAt + timeoutMs;
  }

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.aborted && !this.controller.signal.aborted) this.controller.abort(this.abortReason);
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.abortReason = reason;
    this.controller?.abort(reason);
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
