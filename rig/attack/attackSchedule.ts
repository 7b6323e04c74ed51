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
  const intervalMs = 1000 / schedule.ratePerSecond;
  const refusalsBefore = socketBudget.refusals;
  let started = 0;
  let settled = 0;
  let aborted = 0;
  let lateSkipped = 0;
  let failures = 0;
  let startingDone = false;
  let timer: NodeJS.Timeout | undefined;
  const t0 = origin ?? performance.now();
  // Every open exchange listens for the abort: on a signal of the runner's own (the caller's is
  // left as it is), whose listener count is the number of open exchanges, not a leak.
  const inner = new AbortController();
  setMaxListeners(0, inner.signal);

  return new Promise<AttackReport>((resolve) => {
    const report = (): AttackReport => {
      const capHits = socketBudget.refusals - refusalsBefore;
      const out = [...notes, budgetNote()];
      if (capHits > 0) out.push(`${capHits} starts found the socket cap reached and settled as connect-failed`);
      if (lateSkipped > 0)
        out.push(
          `${lateSkipped} starts were due but the clock had passed the ${schedule.durationMs} ms duration ` +
            '(the process was too busy to start them in time)',
        );
      return { started, settled, notes: out, ...(aborted > 0 ? { aborted } : {}) };
    };
    const maybeDone = () => {
      if (startingDone && settled === started) {
        schedule.signal.removeEventListener('abort', onAbort);
        resolve(report());
      }
    };
    const stopStarting = () => {
      clearTimeout(timer);
      startingDone = true;
      maybeDone();
    };
    const onAbort = () => {
      inner.abort(schedule.signal.reason);
      stopStarting();
    };
    const launch = () => {
      const index = k();
      started++;
      let exchange: Promise<ExchangeEnd>;
      try {
        exchange = startOne(index, inner.signal);
      } catch (err) {
        exchange = Promise.reject(err);
      }
      exchange.then(
        (end) => {
          settled++;
          if (end === 'aborted') aborted++;
          else schedule.onOutcome(end);
          maybeDone();
        },
        (err: unknown) => {
          // A start that throws is the rig's own bug: counted, noted once, never an unhandled rejection.
          settled++;
          aborted++;
          if (failures++ === 0) notes.push(`a start failed inside the rig: ${(err as Error)?.message ?? String(err)}`);
          maybeDone();
        },
      );
    };
    // On worker threads (schedule.share) this thread makes the starts k = i, i + N, i + 2N, ... of
    // the one schedule, so the threads together make exactly its starts, each at its own time.
    const { index: first, count: step } = schedule.share ?? { index: 0, count: 1 };
    const k = () => first + started * step;
    const tick = () => {
      if (schedule.signal.aborted) return stopStarting();
      const now = performance.now();
      while (k() < schedule.maxRequests && k() * intervalMs < schedule.durationMs && t0 + k() * intervalMs <= now) {
        if (now - t0 >= schedule.durationMs) break;
        launch();
      }
      const nextOffset = k() * intervalMs;
      if (k() >= schedule.maxRequests || nextOffset >= schedule.durationMs) return stopStarting();
      if (now - t0 >= schedule.durationMs) {
        const due = Math.min(schedule.maxRequests, Math.ceil(schedule.durationMs / intervalMs));
        lateSkipped = shareOfBound(due, { index: first, count: step }) - started;
        return stopStarting();
      }
      timer = setTimeout(tick, Math.max(0, t0 + nextOffset - performance.now()));
    };
    if (schedule.signal.aborted) return stopStarting();
    schedule.signal.addEventListener('abort', onAbort, { once: true });
    tick();
  });
}
