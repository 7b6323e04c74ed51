// A mixed run (issue 14): legitimate HITL round trips at a fixed rate, open model, through three
// phases — before (the baseline), during (one or more attacks run beside it, straight to the agent
// from their own loopback source), after (recovery) — so what an attack costs the humans is
// measured, not only how the agent refuses the attack.
//
// One open-model run carries the legitimate traffic through all three phases (no gap, no drain between
// them); each arrival belongs to the phase its *intended* start falls in. The during phase starts when
// the first attack starts (`beforeMs` in) and ends when the last has settled. A family's attacks run
// one after another, each alone in its own window, so the legitimate traffic of a window shows what
// that attack costs (the tax per attack) rather than what several cost together: an attack's starts
// end after `attackMs`, its held requests/connections end by its own bounds (slowloris waits for the
// agent's cut) or at `attackCapMs` from its start, when the rig aborts it, and the next attack starts
// then. The after phase then lasts `afterMs`. Every arrival ends as ok (with its latency from the
// intended start), failed, unfinished (still running at the end) or dropped (never started: no slot) —
// the verdicts (dosVerdicts.ts) read these samples.
import type { Attack, AttackOutcome, AttackReport, AttackTarget } from '../attack/attackTypes.ts';
import type { Arrival } from '../load/arrivalSchedule.ts';
import type { Iteration, OpenModelOptions, OpenModelResult } from '../load/openModelExecutor.ts';

export const PHASES = ['before', 'during', 'after'] as const;
export type Phase = (typeof PHASES)[number];

export interface PlannedAttack {
  name: string;
  /** Any attack: its params type is its own, so here it takes them as the plain record `params` is. */
  attack: Attack<object>;
  params: object;
  ratePerSecond: number;
  maxRequests: number;
}

export interface MixedRunPlan {
  attacks: PlannedAttack[];
  target: AttackTarget;
  /** Legitimate round trips started per second, in every phase. */
  legitRatePerSecond: number;
  beforeMs: number;
  /** The attacks' starts end after this. */
  attackMs: number;
  /** Hard bound on each attack's window: the attack is aborted then (its held connections closed). */
  attackCapMs: number;
  afterMs: number;
  legitTimeoutMs: number;
  maxInFlight: number;
}

export type SampleOutcome = 'ok' | 'failed' | 'unfinished' | 'dropped';

export interface LegitSample {
  /** performance.now() of the intended start. */
  intendedAt: number;
  phase: Phase;
  outcome: SampleOutcome;
  /** Intended start → end, for ok ones. */
  latencyMs?: number;
  /** For failed ones: the error's kind and message. */
  failure?: string;
}

export interface AttackRecord {
  name: string;
  outcomes: AttackOutcome[];
  report?: AttackReport;
  /** run() threw (a misuse: bad params, a non-loopback target). */
  error?: string;
  startedAt: number;
  stoppedAt: number;
  /** The rig aborted it at attackCapMs. */
  capped: boolean;
}

export interface MixedRunResult {
  /** performance.now() of the first intended start. */
  origin: number;
  /**
   * When the first attack started: the during phase's start. Each attack's own window is its record's
   * startedAt..stoppedAt.
   */
  attackStartAt: number;
  /** When the last attack settled: the during phase's end. */
  attackStopAt: number;
  endAt: number;
  samples: LegitSample[];
  attacks: AttackRecord[];
  aborted: boolean;
}

export interface MixedRunDeps {
  runOpenModel(options: OpenModelOptions): Promise<OpenModelResult>;
  /** The legitimate round trip of a phase (its resume latency recorded per phase). */
  legitIteration(phase: Phase): Iteration;
  /** A legitimate round trip succeeded: intended start → end, in µs, ended at `at`. */
  roundTrip(phase: Phase, us: number, at: number): void;
  /** attack-start / attack-stop, for the run's fault events. */
  event(action: 'attack-start' | 'attack-stop', attack: string, detail: string, at: number): void;
  signal: AbortSignal;
}

/** Which phase an intended start falls in; the during phase is [start, stop). */
export function phaseAt(t: number, attackStartAt: number, attackStopAt: number): Phase {
  if (t < attackStartAt) return 'before';
  return t < attackStopAt ? 'during' : 'after';
}

function describeParams(a: PlannedAttack): string {
  const params = Object.entries(a.params)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return `${a.ratePerSecond}/s, at most ${a.maxRequests}${params ? `; ${params}` : ''}`;
}

function tallyOutcomes(outcomes: AttackOutcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(o.kind, (counts.get(o.kind) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${n} ${k}`).join(', ') || 'no outcome';
}

/** One attack in its own window, aborted `attackCapMs` after its start (or with the run). */
async function runAttack(
  a: PlannedAttack,
  plan: MixedRunPlan,
  deps: MixedRunDeps,
  stop: AbortSignal,
  startAt = performance.now(),
): Promise<AttackRecord> {
  const record: AttackRecord = { name: a.name, outcomes: [], startedAt: startAt, stoppedAt: 0, capped: false };
  deps.event('attack-start', a.name, describeParams(a), record.startedAt);
  const capper = new AbortController();
  const capTimer = setTimeout(() => capper.abort(new Error('the attack cap passed')), plan.attackCapMs);
  const cap = capper.signal;
  const signal = AbortSignal.any([cap, stop, deps.signal]);
  try {
    record.report = await a.attack.run(plan.target, a.params, {
      ratePerSecond: a.ratePerSecond,
      maxRequests: a.maxRequests,
      durationMs: plan.attackMs,
      signal,
      onOutcome: (o) => record.outcomes.push(o),
    });
  } catch (err) {
    record.error = (err as Error).message;
  }
  clearTimeout(capTimer);
  record.capped = cap.aborted || stop.aborted;
  record.stoppedAt = performance.now();
  // Started but never settled when the rig aborted it at the cap: the agent held them that long.
  const unsettled = record.report?.aborted ?? (record.report?.started ?? 0) - record.outcomes.length;
  for (let i = 0; record.capped && i < unsettled; i++) {
    record.outcomes.push({
      startedAt: startAt,
      latencyMs: record.stoppedAt - startAt,
      kind: 'held',
      detail: 'still open when the rig aborted the attack at its cap',
    });
  }
  const capped = record.capped ? ' (aborted at the cap)' : '';
  const failed = record.error ? `; failed: ${record.error}` : '';
  deps.event('attack-stop', a.name, `${tallyOutcomes(record.outcomes)}${capped}${failed}`, record.stoppedAt);
  return record;
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
  const hardEndMs = plan.beforeMs + plan.attackCapMs * plan.attacks.length + plan.afterMs;
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
      attacksDone = (async () => {
        const records: AttackRecord[] = [];
        // One after another: an attack's window is its own (see the header).
        for (const a of plan.attacks) {
          if (stop.signal.aborted || deps.signal.aborted) break;
          // The first starts the during phase: its window opens at the same instant.
          records.push(await runAttack(a, plan, deps, stop.signal, records.length === 0 ? attackStartAt : undefined));
        }
        attackStopAt = Math.max(...records.map((r) => r.stoppedAt), attackStartAt);
        return records;
      })();
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
