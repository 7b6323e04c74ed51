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
// ones still running, then aborts them and counts them `unfinished`. How well the run kept its
// schedule (start lag, drops and late starts per step, event-loop delay) is its `schedule`.
// Hand-written: k6 and wrk2 are not Node libraries, and autocannon has no open model (above).
import { LatencyHistogram } from '../metrics/latencyHistogram.ts';
import type { Arrival } from './arrivalSchedule.ts';
import { failureKind, IterationBatch, IterationTimeout, RunningIteration } from './runningIteration.ts';
import type { Due, IterationContext, IterationEnd } from './runningIteration.ts';
import { ScheduleRecorder, scheduleTotals, type ScheduleTruth } from '../metrics/scheduleTruth.ts';

export type { IterationContext, IterationEnd } from './runningIteration.ts';

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
  /**
   * The performance.now() the arrivals' offsets count from (default: when the run starts). A caller
   * whose schedule is cut by its own clock (mixedRun ends it at the attacks' stop) passes its
   * origin, so that intended times and the cut are on one clock.
   */
  origin?: number;
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
  /** Start lag, drops and late starts per step, and the event-loop delay (scheduleTruth.ts). */
  schedule: ScheduleTruth;
  /** Still running at the drain bound (aborted, counted in no other outcome). */
  unfinished: number;
  maxStartLagMs: number;
  /** The most iterations running at once (maxInFlight when the bound was reached). */
  peakInFlight: number;
  /** Intended start → end, successes only: the latency to report. */
  latency: LatencyHistogram;
  /** Actual start → end, successes only: what a generator that forgets the intended time reports. */
  serviceTime: LatencyHistogram;
  /** From the first intended start to the last iteration settled (or the drain bound). */
  elapsedMs: number;
  aborted: boolean;
}

export const DEFAULT_LATE_AFTER_MS = 10;

function positive(name: string, value: number, allowZero = false): void {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0))
    throw new RangeError(`${name} must be a finite number ${allowZero ? '≥' : '>'} 0, got ${value}`);
}

/** Validates the options, then runs the schedule (throws at once on a bad bound, before anything starts). */
export function runOpenModel(options: OpenModelOptions): Promise<OpenModelResult> {
  return new OpenModelRun(options).run();
}

/** One run of a schedule; three timers at most: the pump's, the sweep's (all deadlines) and the drain's. */
class OpenModelRun {
  private readonly result: Omit<OpenModelResult, 'schedule' | 'dropped' | 'late'>;
  private readonly truth: ScheduleRecorder;
  private readonly maxBacklog: number;
  private readonly arrivals: Iterator<Arrival>;
  private next: IteratorResult<Arrival>;
  private readonly origin: number;
  /** Due iterations waiting for a slot, from backlogHead on (compacted now and then, not shifted). */
  private readonly backlog: Due[] = [];
  private backlogHead = 0;
  /** In start order, which is deadline order: every iteration has the same timeout. */
  private readonly running = new Set<RunningIteration>();
  private scheduleDone = false;
  private finished = false;
  private pumpTimer: NodeJS.Timeout | undefined;
  private drainTimer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private resolve: ((result: OpenModelResult) => void) | undefined;
  /** The batch iterations starting now join (runningIteration.ts): one signal per burst of starts. */
  private batch: IterationBatch | undefined;

  constructor(private readonly options: OpenModelOptions) {
    positive('maxInFlight', options.maxInFlight);
    positive('maxBacklog', options.maxBacklog ?? 0, true);
    positive('iterationTimeoutMs', options.iterationTimeoutMs);
    positive('drainTimeoutMs', options.drainTimeoutMs, true);
    positive('lateAfterMs', options.lateAfterMs ?? 0, true);
    this.maxBacklog = options.maxBacklog ?? 0;
    this.truth = new ScheduleRecorder(options.lateAfterMs ?? DEFAULT_LATE_AFTER_MS);
    this.result = {
      scheduled: 0,
      started: 0,
      succeeded: 0,
      failed: 0,
      failures: {},
      firstFailure: undefined,
      unfinished: 0,
      maxStartLagMs: 0,
      peakInFlight: 0,
      latency: options.latency ?? new LatencyHistogram(),
      serviceTime: options.serviceTime ?? new LatencyHistogram(),
      elapsedMs: 0,
      aborted: false,
    };
    this.arrivals = options.arrivals[Symbol.iterator]();
    this.next = this.arrivals.next();
    this.origin = options.origin ?? performance.now();
  }

  run(): Promise<OpenModelResult> {
    return new Promise<OpenModelResult>((resolve) => {
      this.resolve = resolve;
      this.truth.begin();
      const { signal } = this.options;
      if (signal?.aborted) {
        this.result.aborted = true;
        return this.finish();
      }
      signal?.addEventListener('abort', this.onAbort, { once: true });
      this.pump();
    });
  }

  // Timer callbacks and the abort listener are bound once, here, not per use.
  private readonly finish = (): void => {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.pumpTimer);
    clearTimeout(this.drainTimer);
    clearTimeout(this.sweepTimer);
    this.options.signal?.removeEventListener('abort', this.onAbort);
    const r = this.result;
    r.unfinished = this.running.size;
    for (let i = this.backlogHead; i < this.backlog.length; i++) this.truth.dropped(this.backlog[i]!.step);
    const ended = new Error('the open-model run ended');
    for (const it of this.running) it.abort(ended);
    r.elapsedMs = performance.now() - this.origin;
    const schedule = this.truth.finish();
    const { dropped, late } = scheduleTotals(schedule);
    this.resolve!({ ...r, dropped, late, schedule });
  };

  private readonly onAbort = (): void => {
    this.result.aborted = true;
    for (const it of this.running) it.abort(this.options.signal?.reason);
    if (!this.scheduleDone) this.endSchedule();
  };

  /**
   * Starts everything due, then sleeps until the next arrival. Node's timers have 1 ms resolution
   * and the event loop may be busy: whatever came due meanwhile starts in this batch.
   */
  private readonly pump = (): void => {
    this.pumpTimer = undefined;
    if (this.finished || this.scheduleDone) return;
    const now = performance.now();
    const r = this.result;
    while (!this.next.done && this.origin + this.next.value.atMs <= now) {
      const due = { index: r.scheduled++, step: this.next.value.step, intendedAt: this.origin + this.next.value.atMs };
      this.options.observer?.due(due.intendedAt);
      this.truth.due(due.step);
      if (this.running.size < this.options.maxInFlight && this.backlogHead === this.backlog.length)
        this.start(due, false, now);
      else if (this.backlog.length - this.backlogHead < this.maxBacklog) this.backlog.push(due);
      else this.truth.dropped(due.step);
      this.next = this.arrivals.next();
    }
    if (this.next.done) return this.endSchedule();
    this.pumpTimer = setTimeout(this.pump, Math.max(0, this.origin + this.next.value.atMs - performance.now()));
  };

  /**
   * One timer for every iteration's timeout: iterations start in order and share one timeout, so
   * the oldest running one always has the nearest deadline (a timer per iteration costs more than
   * the rest of the executor at tens of thousands of starts a second).
   */
  private readonly sweep = (): void => {
    this.sweepTimer = undefined;
    if (this.finished) return;
    const now = performance.now();
    for (const it of this.running) {
      if (it.deadline > now) break;
      if (it.timedOut) continue;
      it.timedOut = new IterationTimeout(`no outcome within ${this.options.iterationTimeoutMs} ms`);
      it.abort(it.timedOut);
    }
    this.armSweep();
  };

  private armSweep(): void {
    if (this.sweepTimer || this.finished) return;
    for (const it of this.running) {
      if (it.timedOut) continue;
      this.sweepTimer = setTimeout(this.sweep, Math.max(0, it.deadline - performance.now()));
      return;
    }
  }

  private endSchedule(): void {
    this.scheduleDone = true;
    clearTimeout(this.pumpTimer);
    this.drainTimer = setTimeout(this.finish, this.options.drainTimeoutMs);
    this.maybeFinish();
  }

  private maybeFinish(): void {
    if (this.scheduleDone && this.running.size === 0 && this.backlogHead === this.backlog.length) this.finish();
  }

  /** `waited`: it comes from the backlog (it waited for a slot); `batchClock`: the pump's, for all it starts. */
  private start(due: Due, waited: boolean, batchClock = performance.now()): void {
    if (!this.batch?.admits(batchClock)) this.batch = new IterationBatch(batchClock, this.options.iterationTimeoutMs);
    const it = new RunningIteration(due, performance.now(), this.batch);
    const r = this.result;
    const lag = it.startedAt - due.intendedAt;
    this.truth.started(due.step, lag, waited);
    if (lag > r.maxStartLagMs) r.maxStartLagMs = lag;
    r.started++;
    this.running.add(it);
    if (this.running.size > r.peakInFlight) r.peakInFlight = this.running.size;
    this.armSweep();
    let pending: Promise<IterationEnd | void>;
    try {
      pending = Promise.resolve(this.options.iteration(it));
    } catch (err) {
      pending = Promise.reject(err);
    }
    pending.then(
      (end) => this.resolved(it, end),
      (err: unknown) => this.rejected(it, err),
    );
  }

  private resolved(it: RunningIteration, end: IterationEnd | void): void {
    if (!this.finished) {
      if (it.timedOut) this.fail(it.timedOut);
      else {
        const endedAt = end?.endedAt ?? performance.now();
        this.result.succeeded++;
        this.options.observer?.succeeded(endedAt);
        this.result.latency.recordMs(endedAt - it.intendedAt, endedAt, end?.pollResolutionMs);
        this.result.serviceTime.recordMs(endedAt - it.startedAt, endedAt, end?.pollResolutionMs);
      }
    }
    this.settled(it);
  }

  private rejected(it: RunningIteration, err: unknown): void {
    if (!this.finished) this.fail(it.timedOut ?? err);
    this.settled(it);
  }

  private fail(err: unknown): void {
    const r = this.result;
    r.failed++;
    const kind = failureKind(err);
    r.failures[kind] = (r.failures[kind] ?? 0) + 1;
    r.firstFailure ??= `${kind}: ${err instanceof Error ? err.message : String(err)}`;
  }

  /** Every iteration's end: its slot goes to the oldest waiting one, if any. */
  private settled(it: RunningIteration): void {
    this.running.delete(it);
    if (this.finished) return;
    if (this.backlogHead < this.backlog.length && this.running.size < this.options.maxInFlight) {
      const waiting = this.backlog[this.backlogHead++];
      if (this.backlogHead > 1024 && this.backlogHead * 2 > this.backlog.length) {
        // Compact now and then, so a long backlog costs O(1) per start.
        this.backlog.splice(0, this.backlogHead);
        this.backlogHead = 0;
      }
      this.start(waiting, true);
    }
    this.maybeFinish();
  }
}
