// The open-model runner every attack uses: start i is due at t0 + i/rate on an absolute schedule
// (a late timer catches up; nothing ever waits for a reply), at most maxRequests starts, none once
// durationMs has passed, and the abort ends every open request or connection at once. It refuses a
// target or source that is not loopback before anything starts.
import { setMaxListeners } from 'node:events';
import { UserError } from '../protocol/userError.ts';
import { assertLoopbackTarget, budgetNote, socketBudget } from './attackLimits.ts';
import type { ExchangeEnd } from './attackSocket.ts';
import type { AttackReport, AttackSchedule, AttackTarget } from './attackTypes.ts';
import { shareOfBound } from '../load/workers/workerShares.ts';

/** Throws one line when the schedule cannot be run as given. */
export function assertSchedule(schedule: AttackSchedule): void {
  if (!(Number.isFinite(schedule.ratePerSecond) && schedule.ratePerSecond > 0))
    throw new UserError(`attack rate must be a positive number per second, not ${schedule.ratePerSecond}`);
  if (!(Number.isInteger(schedule.maxRequests) && schedule.maxRequests >= 0))
    throw new UserError(`attack maxRequests must be a non-negative integer, not ${schedule.maxRequests}`);
  if (!(Number.isFinite(schedule.durationMs) && schedule.durationMs >= 0))
    throw new UserError(`attack durationMs must be a non-negative number, not ${schedule.durationMs}`);
}

/** One start: the i-th hostile request or connection; resolves with its outcome ('aborted' after the abort). */
export type StartOne = (index: number, signal: AbortSignal) => Promise<ExchangeEnd>;

/**
 * Runs `startOne` on the schedule and resolves once every start has settled (or at once after the
 * abort: the exchanges destroy their sockets synchronously on it). `notes` go into the report;
 * `origin` (performance.now() time, default now) is when start 0 is due.
 */
export async function runOnSchedule(
  target: AttackTarget,
  schedule: AttackSchedule,
  startOne: StartOne,
  notes: string[] = [],
  origin?: number,
): Promise<AttackReport> {
  assertLoopbackTarget(target);
  assertSchedule(schedule);
  return new Promise<AttackReport>((resolve) => new ScheduledRun(schedule, startOne, notes, origin, resolve).begin());
}

/** One run of a schedule: what it has started and settled, and its timer to the next due start. */
class ScheduledRun {
  private readonly intervalMs: number;
  private readonly refusalsBefore = socketBudget.refusals;
  private started = 0;
  private settled = 0;
  private aborted = 0;
  private lateSkipped = 0;
  private failures = 0;
  private startingDone = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly t0: number;
  // Every open exchange listens for the abort: on a signal of the runner's own (the caller's is
  // left as it is), whose listener count is the number of open exchanges, not a leak.
  private readonly inner = new AbortController();
  private readonly first: number;
  private readonly step: number;
  private readonly onAbort = () => {
    this.inner.abort(this.schedule.signal.reason);
    this.stopStarting();
  };

  constructor(
    private readonly schedule: AttackSchedule,
    private readonly startOne: StartOne,
    private readonly notes: string[],
    origin: number | undefined,
    private readonly resolve: (report: AttackReport) => void,
  ) {
    this.intervalMs = 1000 / schedule.ratePerSecond;
    this.t0 = origin ?? performance.now();
    setMaxListeners(0, this.inner.signal);
    // On worker threads (schedule.share) this thread makes the starts k = i, i + N, i + 2N, ... of
    // the one schedule, so the threads together make exactly its starts, each at its own time.
    const { index: first, count: step } = schedule.share ?? { index: 0, count: 1 };
    this.first = first;
    this.step = step;
  }

  begin(): void {
    if (this.schedule.signal.aborted) return this.stopStarting();
    this.schedule.signal.addEventListener('abort', this.onAbort, { once: true });
    this.tick();
  }

  /** The schedule's index of this thread's next start. */
  private k(): number {
    return this.first + this.started * this.step;
  }

  private tick(): void {
    const { schedule, intervalMs, t0 } = this;
    if (schedule.signal.aborted) return this.stopStarting();
    const now = performance.now();
    while (
      this.k() < schedule.maxRequests &&
      this.k() * intervalMs < schedule.durationMs &&
      t0 + this.k() * intervalMs <= now
    ) {
      if (now - t0 >= schedule.durationMs) break;
      this.launch();
    }
    const nextOffset = this.k() * intervalMs;
    if (this.k() >= schedule.maxRequests || nextOffset >= schedule.durationMs) return this.stopStarting();
    if (now - t0 >= schedule.durationMs) {
      const due = Math.min(schedule.maxRequests, Math.ceil(schedule.durationMs / intervalMs));
      this.lateSkipped = shareOfBound(due, { index: this.first, count: this.step }) - this.started;
      return this.stopStarting();
    }
    this.timer = setTimeout(() => this.tick(), Math.max(0, t0 + nextOffset - performance.now()));
  }

  private launch(): void {
    const index = this.k();
    this.started++;
    let exchange: Promise<ExchangeEnd>;
    try {
      exchange = this.startOne(index, this.inner.signal);
    } catch (err) {
      exchange = Promise.reject(err);
    }
    exchange.then(
      (end) => this.ended(end),
      (err: unknown) => this.failed(err),
    );
  }

  private ended(end: ExchangeEnd): void {
    this.settled++;
    if (end === 'aborted') this.aborted++;
    else this.schedule.onOutcome(end);
    this.maybeDone();
  }

  /** A start that throws is the rig's own bug: counted, noted once, never an unhandled rejection. */
  private failed(err: unknown): void {
    this.settled++;
    this.aborted++;
    if (this.failures++ === 0)
      this.notes.push(`a start failed inside the rig: ${(err as Error)?.message ?? String(err)}`);
    this.maybeDone();
  }

  private stopStarting(): void {
    clearTimeout(this.timer);
    this.startingDone = true;
    this.maybeDone();
  }

  private maybeDone(): void {
    if (this.startingDone && this.settled === this.started) {
      this.schedule.signal.removeEventListener('abort', this.onAbort);
      this.resolve(this.report());
    }
  }

  private report(): AttackReport {
    const capHits = socketBudget.refusals - this.refusalsBefore;
    const out = [...this.notes, budgetNote()];
    if (capHits > 0) out.push(`${capHits} starts found the socket cap reached and settled as connect-failed`);
    if (this.lateSkipped > 0)
      out.push(
        `${this.lateSkipped} starts were due but the clock had passed the ${this.schedule.durationMs} ms duration ` +
          '(the process was too busy to start them in time)',
      );
    return {
      started: this.started,
      settled: this.settled,
      notes: out,
      ...(this.aborted > 0 ? { aborted: this.aborted } : {}),
    };
  }
}
