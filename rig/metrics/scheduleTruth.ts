// Schedule truth (issue 25): how well the open model kept its own schedule, apart from what the
// target did. Every started iteration's start lag (intended → actual start) in an HDR histogram,
// per schedule step the arrivals that came due, started, were dropped (k6's dropped_iterations) or
// started late, and the event-loop delay while the run ran. A generator that falls behind offers
// less than the schedule says; the figures say when, where and by how much, so a report can tell
// the rig's limit from the agent's.
//
// A late start has two causes, counted apart: it waited for a slot (every in-flight slot was taken,
// a bound of the rig's the target's slowness fills), or a slot was free and the generator itself
// was late (its timers, its event loop: the rig's own delay). Recorded by the executor
// (openModelExecutor.ts) at one histogram record per start; mergeScheduleTruth joins the results of
// several executors (worker threads) exactly, and a record (scheduleTruthRecord) crosses threads.
import { LatencyHistogram } from './latencyHistogram.ts';
import { loopDelaySummary, loopMonitor, worstLoopDelay, type LoopDelayMs } from './loopDelay.ts';

export interface StepTruth {
  /** The schedule step (Arrival.step). */
  step: number;
  /** Arrivals of the step that came due. */
  scheduled: number;
  started: number;
  /** Came due with every slot and the backlog full (or still waiting at the end): never started. */
  dropped: number;
  /** Started more than lateAfterMs after the intended time, whatever the cause. */
  late: number;
  /** Of `late`, those that found a slot free: the generator's own lateness, not a wait for a slot. */
  lateWithFreeSlot: number;
  /** Intended → actual start of every started iteration of the step. */
  startLag: LatencyHistogram;
}

export interface ScheduleTruth {
  /** The executor's late bound, ms: a start later than this counts as late. */
  lateAfterMs: number;
  /** The steps that had arrivals, in step order. */
  steps: StepTruth[];
  /** Every step's start lag together. */
  startLag: LatencyHistogram;
  /** The event loop's delay while the run ran (merged: the worst worker's, since a stall is per thread). */
  eventLoopDelayMs: LoopDelayMs;
}

function newStep(step: number): StepTruth {
  return { step, scheduled: 0, started: 0, dropped: 0, late: 0, lateWithFreeSlot: 0, startLag: new LatencyHistogram() };
}

/** Sums of the steps' counts. */
export function scheduleTotals(truth: ScheduleTruth): Omit<StepTruth, 'step' | 'startLag'> {
  const total = { scheduled: 0, started: 0, dropped: 0, late: 0, lateWithFreeSlot: 0 };
  for (const s of truth.steps) {
    total.scheduled += s.scheduled;
    total.started += s.started;
    total.dropped += s.dropped;
    total.late += s.late;
    total.lateWithFreeSlot += s.lateWithFreeSlot;
  }
  return total;
}

/**
 * Whether the generator fell behind in a step: it dropped starts, or more than 1 % of its starts
 * were late (start lag p99 over lateAfterMs). One late start in a hundred is not; on a load of a few starts it is.
 */
export function fellBehind(step: Pick<StepTruth, 'dropped' | 'startLag'>, lateAfterMs: number): boolean {
  return step.dropped > 0 || step.startLag.percentileMs(99) > lateAfterMs;
}

/** Several executors' truths as one: counts and histograms exact, the event-loop delay the worst. */
export function mergeScheduleTruth(list: ScheduleTruth[]): ScheduleTruth {
  if (list.length === 0) throw new RangeError('mergeScheduleTruth needs at least one schedule');
  const lateAfterMs = list[0]!.lateAfterMs;
  const other = list.find((t) => t.lateAfterMs !== lateAfterMs);
  if (other)
    throw new RangeError(
      `cannot merge schedules judged with different late bounds (${lateAfterMs} and ${other.lateAfterMs} ms)`,
    );
  const steps = new Map<number, StepTruth>();
  const startLag = new LatencyHistogram();
  for (const truth of list) {
    startLag.add(truth.startLag);
    for (const s of truth.steps) {
      const into = steps.get(s.step) ?? newStep(s.step);
      steps.set(s.step, into);
      into.scheduled += s.scheduled;
      into.started += s.started;
      into.dropped += s.dropped;
      into.late += s.late;
      into.lateWithFreeSlot += s.lateWithFreeSlot;
      into.startLag.add(s.startLag);
    }
  }
  return {
    lateAfterMs,
    steps: [...steps.values()].sort((a, b) => a.step - b.step),
    startLag,
    eventLoopDelayMs: worstLoopDelay(list.map((t) => t.eventLoopDelayMs)),
  };
}

/** A truth as plain data (histograms encoded), to post from a worker thread or write down. */
export interface ScheduleTruthRecord extends Omit<ScheduleTruth, 'steps' | 'startLag'> {
  steps: Array<Omit<StepTruth, 'startLag'> & { startLag: string }>;
}

export function scheduleTruthRecord(truth: ScheduleTruth): ScheduleTruthRecord {
  return {
    lateAfterMs: truth.lateAfterMs,
    steps: truth.steps.map((s) => ({ ...s, startLag: s.startLag.encode() })),
    eventLoopDelayMs: { ...truth.eventLoopDelayMs },
  };
}

/** A record back as a truth; the whole start lag is the steps' together, as the executor makes it. */
export function scheduleTruthOf(record: ScheduleTruthRecord): ScheduleTruth {
  const steps = record.steps.map((s) => ({ ...s, startLag: LatencyHistogram.decode(s.startLag) }));
  const startLag = new LatencyHistogram();
  for (const s of steps) startLag.add(s.startLag);
  return { lateAfterMs: record.lateAfterMs, steps, startLag, eventLoopDelayMs: { ...record.eventLoopDelayMs } };
}

/**
 * What the executor feeds as it runs. The step last used is kept at hand: arrivals come in step
 * order, so a start costs a comparison, a few increments and one histogram record.
 */
export class ScheduleRecorder {
  private readonly steps = new Map<number, StepTruth>();
  private current: StepTruth = newStep(Number.NaN);
  private readonly loop = loopMonitor();

  constructor(private readonly lateAfterMs: number) {}

  /** The event loop is watched from here to finish(). */
  begin(): void {
    this.loop.enable();
  }

  private stepOf(step: number): StepTruth {
    if (this.current.step === step) return this.current;
    let s = this.steps.get(step);
    if (!s) this.steps.set(step, (s = newStep(step)));
    return (this.current = s);
  }

  due(step: number): void {
    this.stepOf(step).scheduled++;
  }

  dropped(step: number): void {
    this.stepOf(step).dropped++;
  }

  /** `waited`: it waited in the backlog for a slot (else it started the moment it was taken). */
  started(step: number, lagMs: number, waited: boolean): void {
    const s = this.stepOf(step);
    s.started++;
    s.startLag.recordMs(lagMs);
    if (lagMs > this.lateAfterMs) {
      s.late++;
      if (!waited) s.lateWithFreeSlot++;
    }
  }

  finish(): ScheduleTruth {
    this.loop.disable();
    const steps = [...this.steps.values()].sort((a, b) => a.step - b.step);
    const startLag = new LatencyHistogram();
    for (const s of steps) startLag.add(s.startLag);
    return { lateAfterMs: this.lateAfterMs, steps, startLag, eventLoopDelayMs: loopDelaySummary(this.loop) };
  }
}
