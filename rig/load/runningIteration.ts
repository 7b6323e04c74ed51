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
 * The iterations started by one pump of the schedule (whatever came due since its last timer tick),
 * or within the batch's span of its opening, share one deadline and one signal: an AbortController
 * and its signal cost more than the rest of an iteration's bookkeeping. The deadline is the last
 * member's start plus the timeout, so no member's timeout is shortened; one is lengthened by at most
 * the span, a thousandth of the timeout (1 to 10 ms), so that the pumps of a few timer ticks share
 * a signal. The controller is made only when asked for.
 */
export class IterationBatch {
  private last: number;
  private readonly spanMs: number;
  private controller: AbortController | undefined;
  private abortReason: unknown;
  private aborted = false;

  constructor(
    private readonly openedAt: number,
    private readonly timeoutMs: number,
  ) {
    this.last = openedAt;
    this.spanMs = Math.min(MAX_SPAN_MS, Math.max(MIN_SPAN_MS, timeoutMs / 1000));
  }

  /** Whether an iteration may join at `clock` (the pump's clock for the whole of one pump). */
  admits(clock: number): boolean {
    return !this.aborted && clock - this.openedAt <= this.spanMs;
  }

  join(startedAt: number): void {
    if (startedAt > this.last) this.last = startedAt;
  }

  get deadline(): number {
    return this.last + this.timeoutMs;
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

/** A timer's resolution: the starts of one tick share a batch whatever the timeout. */
const MIN_SPAN_MS = 1;
const MAX_SPAN_MS = 10;

/**
 * A running iteration is its own context. Its signal is its batch's: it aborts at the batch's
 * deadline (this iteration's timeout, or a little after it), at the run's end or abort, and may abort
 * after the iteration settled (when a batch-mate times out), which no one reads.
 */
export class RunningIteration implements IterationContext {
  readonly index: number;
  readonly step: number;
  readonly intendedAt: number;
  timedOut: IterationTimeout | undefined;

  constructor(
    due: Due,
    readonly startedAt: number,
    private readonly batch: IterationBatch,
  ) {
    this.index = due.index;
    this.step = due.step;
    this.intendedAt = due.intendedAt;
    batch.join(startedAt);
  }

  /** The batch's: every member has the same, so the running iterations stay in deadline order. */
  get deadline(): number {
    return this.batch.deadline;
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
