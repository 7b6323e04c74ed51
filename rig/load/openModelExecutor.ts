// The open model: iterations start at their intended times whatever the target does (wrk2's
// constant-throughput method, k6's constant-arrival-rate executor), and each latency is measured
// from the iteration's *intended* start. A target that stalls then shows up in the percentiles of
// every iteration the stall delayed, instead of hiding behind fewer requests sent (coordinated
// omission). autocannon's rate mode is not used for this: it sends in per-second bursts and its
// correction assumes a 1 ms interval (see docs/a2a-wire.md, "Load-testing pitfalls").
//
// Bounds: at most `maxInFlight` iterations run at once. One that comes due while all slots are busy
// waits in a backlog of at most `maxBacklog` (it then starts late, and its latency still counts from
// its intended time); when the backlog is full too it is `dropped` and never starts (k6's
// dropped_iterations; maxBacklog 0 drops at once). An iteration that starts more than `lateAfterMs`
// after its intended time is counted `late`. Each iteration has a timeout (its signal is aborted and
// it counts as failed), and after the last arrival the run waits at most `drainTimeoutMs` for the
// ones still running, then aborts them and counts them `unfinished`.
//
// Hand-written: k6 and wrk2 are not Node libraries, and autocannon has no open model (above).
import { LatencyHistogram } from '../metrics/latencyHistogram.ts';
import type { Arrival } from './arrivalSchedule.ts';

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

/** What an iteration may report: when the outcome it measures was observed (default: when it settled). */
export interface IterationEnd {
  endedAt?: number;
}

/** One unit of load. Throw (or reject) to count a failure; an error's string `kind` names it. */
export type Iteration = (it: IterationContext) => Promise<IterationEnd | void>;

export interface OpenModelOptions {
  arrivals: Iterable<Arrival>;
  iteration: Iteration;
  maxInFlight: number;
  /** Due iterations that may wait for a free slot (default 0: dropped at once). */
  maxBacklog?: number;
  /** A start later than this after the intended time counts as late (default 10 ms). */
  lateAfterMs?: number;
  iterationTimeoutMs: number;
  /** After the last arrival, how long the run waits for iterations still running. */
  drainTimeoutMs: number;
  /** Aborting stops the schedule, aborts running iterations and ends the run. */
  signal?: AbortSignal;
  /** Where to record latencies (e.g. a scenario's, which keep a timeline); new histograms by default. */
  latency?: LatencyHistogram;
  serviceTime?: LatencyHistogram;
  /** Told as the load runs (live views of offered against achieved); must return at once. */
  observer?: LoadObserver;
}

export interface LoadObserver {
  /** An arrival came due (`scheduled`: started, backlogged or dropped), at its intended performance.now() time. */
  due(intendedAt: number): void;
  /** An iteration counted as succeeded, at the time its outcome was observed. */
  succeeded(endedAt: number): void;
}

export interface OpenModelResult {
  /** Arrivals that came due (all of the schedule, unless the run was aborted). */
  scheduled: number;
  started: number;
  succeeded: number;
  /** Threw, rejected or timed out. */
  failed: number;
  /** Failures by kind (`timeout`, an error's `kind`, else its name). */
  failures: Record<string, number>;
  firstFailure: string | undefined;
  /** Came due with every slot and the backlog full (or still waiting at the end): never started. */
  dropped: number;
  /** Started more than lateAfterMs after the intended time. */
  late: number;
  /** Still running when the drain bound passed (aborted, counted in no other outcome). */
  unfinished: number;
  maxStartLagMs: number;
  /** Intended start → end, successes only: the latency to report. */
  latency: LatencyHistogram;
  /** Actual start → end, successes only: what a generator that forgets the intended time reports. */
  serviceTime: LatencyHistogram;
  /** From the first intended start to the last iteration settled (or the drain bound). */
  elapsedMs: number;
  aborted: boolean;
}

const DEFAULT_LATE_AFTER_MS = 10;

interface Due {
  index: number;
  step: number;
  intendedAt: number;
}

class IterationTimeout extends Error {
  override name = 'IterationTimeout';
  readonly kind = 'timeout';
}

/** A running iteration is its own context; its AbortController is made only if the iteration asks for the signal. */
class RunningIteration implements IterationContext {
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

function failureKind(err: unknown): string {
  const kind = (err as { kind?: unknown } | null)?.kind;
  if (typeof kind === 'string' && kind.length > 0) return kind;
  return err instanceof Error ? err.name : 'error';
}

function positive(name: string, value: number, allowZero = false): void {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) throw new RangeError(`${name} must be a finite number ${allowZero ? '≥' : '>'} 0, got ${value}`);
}

export function runOpenModel(options: OpenModelOptions): Promise<OpenModelResult> {
  positive('maxInFlight', options.maxInFlight);
  positive('maxBacklog', options.maxBacklog ?? 0, true);
  positive('iterationTimeoutMs', options.iterationTimeoutMs);
  positive('drainTimeoutMs', options.drainTimeoutMs, true);
  const maxBacklog = options.maxBacklog ?? 0;
  const lateAfterMs = options.lateAfterMs ?? DEFAULT_LATE_AFTER_MS;
  const r: OpenModelResult = {
    scheduled: 0,
    started: 0,
    succeeded: 0,
    failed: 0,
    failures: {},
    firstFailure: undefined,
    dropped: 0,
    late: 0,
    unfinished: 0,
    maxStartLagMs: 0,
    latency: options.latency ?? new LatencyHistogram(),
    serviceTime: options.serviceTime ?? new LatencyHistogram(),
    elapsedMs: 0,
    aborted: false,
  };
  const arrivals = options.arrivals[Symbol.iterator]();
  let next = arrivals.next();
  const origin = performance.now();
  const backlog: Due[] = [];
  let backlogHead = 0;
  const running = new Set<RunningIteration>();
  let scheduleDone = false;
  let finished = false;
  let pumpTimer: NodeJS.Timeout | undefined;
  let drainTimer: NodeJS.Timeout | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;

  return new Promise<OpenModelResult>((resolve) => {
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(pumpTimer);
      clearTimeout(drainTimer);
      clearTimeout(sweepTimer);
      options.signal?.removeEventListener('abort', onAbort);
      r.unfinished = running.size;
      r.dropped += backlog.length - backlogHead;
      for (const it of running) it.abort(new Error('the open-model run ended'));
      r.elapsedMs = performance.now() - origin;
      resolve(r);
    };

    const maybeFinish = () => {
      if (scheduleDone && running.size === 0 && backlogHead === backlog.length) finish();
    };

    const fail = (err: unknown) => {
      r.failed++;
      const kind = failureKind(err);
      r.failures[kind] = (r.failures[kind] ?? 0) + 1;
      r.firstFailure ??= `${kind}: ${err instanceof Error ? err.message : String(err)}`;
    };

    // One timer for every iteration's timeout: iterations start in order and share one timeout,
    // so the oldest running one always has the nearest deadline (a timer per iteration costs more
    // than the rest of the executor at tens of thousands of starts a second).
    const sweep = () => {
      sweepTimer = undefined;
      if (finished) return;
      const now = performance.now();
      for (const it of running) {
        if (it.deadline > now) break;
        if (it.timedOut) continue;
        it.timedOut = new IterationTimeout(`no outcome within ${options.iterationTimeoutMs} ms`);
        it.abort(it.timedOut);
      }
      armSweep();
    };
    const armSweep = () => {
      if (sweepTimer || finished) return;
      for (const it of running) {
        if (it.timedOut) continue;
        sweepTimer = setTimeout(sweep, Math.max(0, it.deadline - performance.now()));
        return;
      }
    };

    // One function for every iteration's end, not a closure per start (at tens of thousands of
    // starts a second the allocations show, and tsx names every named closure it creates).
    const settled = (it: RunningIteration) => {
      running.delete(it);
      if (finished) return;
      if (backlogHead < backlog.length && running.size < options.maxInFlight) {
        const waiting = backlog[backlogHead++];
        if (backlogHead > 1024 && backlogHead * 2 > backlog.length) {
          // Compact now and then, so a long backlog costs O(1) per start.
          backlog.splice(0, backlogHead);
          backlogHead = 0;
        }
        start(waiting);
      }
      maybeFinish();
    };

    const start = (due: Due) => {
      const it = new RunningIteration(due, performance.now(), options.iterationTimeoutMs);
      const lag = it.startedAt - due.intendedAt;
      if (lag > lateAfterMs) r.late++;
      if (lag > r.maxStartLagMs) r.maxStartLagMs = lag;
      r.started++;
      running.add(it);
      armSweep();
      let pending: Promise<IterationEnd | void>;
      try {
        pending = Promise.resolve(options.iteration(it));
      } catch (err) {
        pending = Promise.reject(err);
      }
      pending.then(
        (end) => {
          if (!finished) {
            if (it.timedOut) fail(it.timedOut);
            else {
              const endedAt = end?.endedAt ?? performance.now();
              r.succeeded++;
              options.observer?.succeeded(endedAt);
              r.latency.recordMs(endedAt - it.intendedAt, endedAt);
              r.serviceTime.recordMs(endedAt - it.startedAt, endedAt);
            }
          }
          settled(it);
        },
        (err: unknown) => {
          if (!finished) fail(it.timedOut ?? err);
          settled(it);
        },
      );
    };

    const endSchedule = () => {
      scheduleDone = true;
      clearTimeout(pumpTimer);
      drainTimer = setTimeout(finish, options.drainTimeoutMs);
      maybeFinish();
    };

    // Starts everything due, then sleeps until the next arrival. Node's timers have 1 ms
    // resolution and the event loop may be busy: whatever came due meanwhile starts in this batch.
    const pump = () => {
      pumpTimer = undefined;
      if (finished || scheduleDone) return;
      const now = performance.now();
      while (!next.done && origin + next.value.atMs <= now) {
        const due = { index: r.scheduled++, step: next.value.step, intendedAt: origin + next.value.atMs };
        options.observer?.due(due.intendedAt);
        if (running.size < options.maxInFlight && backlogHead === backlog.length) start(due);
        else if (backlog.length - backlogHead < maxBacklog) backlog.push(due);
        else r.dropped++;
        next = arrivals.next();
      }
      if (next.done) return endSchedule();
      pumpTimer = setTimeout(pump, Math.max(0, origin + next.value.atMs - performance.now()));
    };

    const onAbort = () => {
      r.aborted = true;
      for (const it of running) it.abort(options.signal?.reason);
      if (!scheduleDone) endSchedule();
    };
    if (options.signal?.aborted) {
      r.aborted = true;
      return finish();
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    pump();
  });
}
