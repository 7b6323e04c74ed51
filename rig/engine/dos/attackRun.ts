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

export async function mixedRun(plan: MixedRunPlan, deps: MixedRunDeps): Promise<MixedRunResult> {
  const interval = 1000 / plan.legitRatePerSecond;
  const planned: number[] = [];
  const settled = new Map<number, LegitSample>();
  const started = new Set<number>();
  let origin = performance.now();
  let attackStartAt = Infinity;
  let attackStopAt = Infinity;
  // Offsets from the open model's origin; the end is known only once the attacks settle.
  const bursts = plan.attacks.length * plan.attackBursts;
  const hardEndMs = plan.beforeMs + (plan.attackCapMs + plan.controlMs) * bursts + plan.afterMs;
  function* arrivals(): Generator<Arrival> {
    for (let i = 0; ; i++) {
      const atMs = i * interval;
      const endMs = attackStopAt === Infinity ? hardEndMs : Math.min(hardEndMs, attackStopAt - origin + plan.afterMs);
      if (atMs >= endMs) return;
      planned.push(atMs);
      yield { atMs, step: 0 };
    }
  }
  const phaseOf = (intendedAt: number) => phaseAt(intendedAt, attackStartAt, attackStopAt);
  const iterations = new Map(PHASES.map((p) => [p, deps.legitIteration(p)]));
  const iteration: Iteration = async (it) => {
    started.add(it.index);
    const phase = phaseOf(it.intendedAt);
    try {
      const end = await iterations.get(phase)!(it);
      const endedAt = end?.endedAt ?? performance.now();
      if (endedAt - it.startedAt > plan.legitTimeoutMs)
        throw Object.assign(new Error(`over ${plan.legitTimeoutMs} ms`), { kind: 'timeout' });
      const latencyMs = endedAt - it.intendedAt;
      settled.set(it.index, { intendedAt: it.intendedAt, phase, outcome: 'ok', latencyMs });
      deps.roundTrip(phase, Math.round(latencyMs * 1000), endedAt);
      return { endedAt };
    } catch (err) {
      const kind = (err as { kind?: unknown }).kind;
      settled.set(it.index, {
        intendedAt: it.intendedAt,
        phase,
        outcome: 'failed',
        failure: `${typeof kind === 'string' ? kind : (err as Error).name}: ${(err as Error).message}`,
      });
      throw err;
    }
  };

  const stop = new AbortController();
  let attacksDone: Promise<AttackRecord[]> = Promise.resolve([]);
  let startTimer: NodeJS.Timeout | undefined;
  origin = performance.now();
  const attacksStarted = new Promise<void>((resolve) => {
    startTimer = setTimeout(() => {
      attackStartAt = performance.now();
      attacksDone = runBursts(plan, deps, stop.signal, attackStartAt).then(
        (records) => {
          attackStopAt = Math.max(...records.map((r) => r.stoppedAt), attackStartAt);
          return records;
        },
        (err: unknown) => {
          // The rig failed (a worker thread): the load ends after its after phase; the run rethrows below.
          attackStopAt = performance.now();
          throw err;
        },
      );
      attacksDone.catch(() => undefined);
      resolve();
    }, plan.beforeMs);
  });
  const load = await deps.runOpenModel({
    arrivals: arrivals(),
    iteration,
    maxInFlight: plan.maxInFlight,
    maxBacklog: plan.maxInFlight,
    iterationTimeoutMs: plan.legitTimeoutMs,
    drainTimeoutMs: plan.legitTimeoutMs,
    signal: deps.signal,
    origin,
  });
  // An aborted load may end before the attacks even started: start none, end the running ones.
  clearTimeout(startTimer);
  if (attackStartAt === Infinity) attackStartAt = attackStopAt = performance.now();
  else await attacksStarted;
  if (load.aborted) stop.abort(new Error('the run was aborted'));
  const records = await attacksDone;
  if (attackStopAt === Infinity) attackStopAt = performance.now();

  const samples = planned.map((atMs, index): LegitSample => {
    const intendedAt = origin + atMs;
    return (
      settled.get(index) ?? {
        intendedAt,
        phase: phaseOf(intendedAt),
        outcome: started.has(index) ? 'unfinished' : 'dropped',
      }
    );
  });
  return {
    origin,
    attackStartAt,
    attackStopAt,
    endAt: performance.now(),
    samples,
    attacks: records,
    aborted: load.aborted,
  };
}
