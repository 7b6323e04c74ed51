// A mixed run (issue 14): legitimate HITL round trips at a fixed rate, open model, through three
// phases — before (the baseline), during (one or more attacks run beside it, straight to the agent
// from their own loopback source), after (recovery) — so what an attack costs the humans is
// measured, not only how the agent refuses the attack.
//
// One open-model run carries the legitimate traffic through all three phases (no gap, no drain between
// them); each arrival belongs to the phase its *intended* start falls in. The during phase starts when
// the first attack starts (`beforeMs` in) and ends when the last has settled. A family's attacks run
// one after another, each alone, and each as `attackBursts` bursts with a control window of
// legitimate traffic alone (`controlMs`) before each burst and after the last: C A C A C A C B C B…
// (issue 23). A neighbour that slows the shared machine for a while then slows a burst and the
// controls beside it alike, and the tax (dosVerdicts.ts judgeTax) compares each burst with its own
// controls. The first control is the before phase's tail and the last the after phase's head, so
// only the controls between bursts add time. A burst's starts end after attackMs / attackBursts
// (the whole attackMs for `wholeBursts`), at the attack's own rate and bound — a third of the
// requests at the same intensity, not a third of the intensity, so a flood still goes past a rate
// limit within one burst; its held requests/connections end by their own
// bounds (slowloris waits for the agent's cut) or at `attackCapMs` from the burst's start, when the
// rig aborts it. The after phase then lasts `afterMs` from the last burst's end. Every arrival ends
// as ok (with its latency from the intended start), failed, unfinished (still running at the end)
// or dropped (never started: no slot) — the verdicts (dosVerdicts.ts) read these samples.
import type { Arrival } from '../../load/arrivalSchedule.ts';
import type { Iteration } from '../../load/openModelExecutor.ts';
import { runBursts } from './attackBursts.ts';

export { PHASES } from './attackRunTypes.ts';
export type {
  AttackRecord,
  BurstRecord,
  LegitSample,
  MixedRunDeps,
  MixedRunPlan,
  MixedRunResult,
  Phase,
  PlannedAttack,
  SampleOutcome,
  Span,
} from './attackRunTypes.ts';
import {
  PHASES,
  type AttackRecord,
  type LegitSample,
  type MixedRunDeps,
  type MixedRunPlan,
  type MixedRunResult,
  type Phase,
} from './attackRunTypes.ts';

/** Which phase an intended start falls in; the during phase is [start, stop). */
export function phaseAt(t: number, attackStartAt: number, attackStopAt: number): Phase {
  if (t < attackStartAt) return 'before';
  return t < attackStopAt ? 'during' : 'after';
}

/** The open model's origin, and when the attacks started and stopped (Infinity until then). */
interface RunClock {
  origin: number;
  attackStartAt: number;
  attackStopAt: number;
}

/** The legitimate arrivals: their offsets as planned, which started, and how the started ones ended. */
interface LegitLedger {
  planned: number[];
  started: Set<number>;
  settled: Map<number, LegitSample>;
}

/** One arrival per interval, as offsets from the origin, until the after phase ends (known once the attacks settle). */
function* legitArrivals(plan: MixedRunPlan, clock: RunClock, planned: number[]): Generator<Arrival> {
  const interval = 1000 / plan.legitRatePerSecond;
  const bursts = plan.attacks.length * plan.attackBursts;
  const hardEndMs = plan.beforeMs + (plan.attackCapMs + plan.controlMs) * bursts + plan.afterMs;
  for (let i = 0; ; i++) {
    const atMs = i * interval;
    const endMs =
      clock.attackStopAt === Infinity
        ? hardEndMs
        : Math.min(hardEndMs, clock.attackStopAt - clock.origin + plan.afterMs);
    if (atMs >= endMs) return;
    planned.push(atMs);
    yield { atMs, step: 0 };
  }
}

/**
 * One legitimate round trip, run as its phase's iteration: ok with its latency from the intended
 * start (and recorded), or failed with its error's kind and message (and rethrown).
 */
function legitIteration(
  plan: MixedRunPlan,
  deps: MixedRunDeps,
  phaseOf: (intendedAt: number) => Phase,
  ledger: LegitLedger,
): Iteration {
  const iterations = new Map(PHASES.map((p) => [p, deps.legitIteration(p)]));
  return async (it) => {
    ledger.started.add(it.index);
    const phase = phaseOf(it.intendedAt);
    try {
      const end = await iterations.get(phase)!(it);
      const endedAt = end?.endedAt ?? performance.now();
      if (endedAt - it.startedAt > plan.legitTimeoutMs)
        throw Object.assign(new Error(`over ${plan.legitTimeoutMs} ms`), { kind: 'timeout' });
      const latencyMs = endedAt - it.intendedAt;
      ledger.settled.set(it.index, { intendedAt: it.intendedAt, phase, outcome: 'ok', latencyMs });
      deps.roundTrip(phase, Math.round(latencyMs * 1000), endedAt);
      return { endedAt };
    } catch (err) {
      const kind = (err as { kind?: unknown }).kind;
      ledger.settled.set(it.index, {
        intendedAt: it.intendedAt,
        phase,
        outcome: 'failed',
        failure: `${typeof kind === 'string' ? kind : (err as Error).name}: ${(err as Error).message}`,
      });
      throw err;
    }
  };
}

/** The attacks' bursts, started `beforeMs` after construction; they mark the during phase on the clock. */
class ScheduledAttacks {
  private readonly stop = new AbortController();
  private readonly started: Promise<void>;
  private timer: NodeJS.Timeout | undefined;
  private done: Promise<AttackRecord[]> = Promise.resolve([]);

  constructor(
    plan: MixedRunPlan,
    deps: MixedRunDeps,
    private readonly clock: RunClock,
  ) {
    this.started = new Promise<void>((resolve) => {
      this.timer = setTimeout(() => {
        clock.attackStartAt = performance.now();
        this.done = runBursts(plan, deps, this.stop.signal, clock.attackStartAt).then(
          (records) => {
            clock.attackStopAt = Math.max(...records.map((r) => r.stoppedAt), clock.attackStartAt);
            return records;
          },
          (err: unknown) => {
            // The rig failed (a worker thread): the load ends after its after phase; settle() rethrows.
            clock.attackStopAt = performance.now();
            throw err;
          },
        );
        this.done.catch(() => undefined);
        resolve();
      }, plan.beforeMs);
    });
  }

  /** Once the load ended: their records (a failure of the rig rethrown), the clock's stop set. */
  async settle(loadAborted: boolean): Promise<AttackRecord[]> {
    const clock = this.clock;
    // An aborted load may end before the attacks even started: start none, end the running ones.
    clearTimeout(this.timer);
    if (clock.attackStartAt === Infinity) clock.attackStartAt = clock.attackStopAt = performance.now();
    else await this.started;
    if (loadAborted) this.stop.abort(new Error('the run was aborted'));
    const records = await this.done;
    if (clock.attackStopAt === Infinity) clock.attackStopAt = performance.now();
    return records;
  }
}

/** Every planned arrival: as it settled, else unfinished (started) or dropped (never started). */
function legitSamples(ledger: LegitLedger, origin: number, phaseOf: (intendedAt: number) => Phase): LegitSample[] {
  return ledger.planned.map((atMs, index): LegitSample => {
    const intendedAt = origin + atMs;
    return (
      ledger.settled.get(index) ?? {
        intendedAt,
        phase: phaseOf(intendedAt),
        outcome: ledger.started.has(index) ? 'unfinished' : 'dropped',
      }
    );
  });
}

export async function mixedRun(plan: MixedRunPlan, deps: MixedRunDeps): Promise<MixedRunResult> {
  const ledger: LegitLedger = { planned: [], started: new Set(), settled: new Map() };
  // The origin is set just before the attacks' timer starts: the open model's arrivals count from it.
  const clock: RunClock = { origin: NaN, attackStartAt: Infinity, attackStopAt: Infinity };
  const phaseOf = (intendedAt: number) => phaseAt(intendedAt, clock.attackStartAt, clock.attackStopAt);
  const iteration = legitIteration(plan, deps, phaseOf, ledger);
  clock.origin = performance.now();
  const attacks = new ScheduledAttacks(plan, deps, clock);
  const load = await deps.runOpenModel({
    arrivals: legitArrivals(plan, clock, ledger.planned),
    iteration,
    maxInFlight: plan.maxInFlight,
    maxBacklog: plan.maxInFlight,
    iterationTimeoutMs: plan.legitTimeoutMs,
    drainTimeoutMs: plan.legitTimeoutMs,
    signal: deps.signal,
    origin: clock.origin,
  });
  const records = await attacks.settle(load.aborted);
  const samples = legitSamples(ledger, clock.origin, phaseOf);
  return {
    origin: clock.origin,
    attackStartAt: clock.attackStartAt,
    attackStopAt: clock.attackStopAt,
    endAt: performance.now(),
    samples,
    attacks: records,
    aborted: load.aborted,
  };
}
