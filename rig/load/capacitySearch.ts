// The capacity search's pure parts (issue 23): what a step achieved within its own window, whether
// a step that broke the SLO broke it by the agent or by the rig (its bounds, or the load generator
// saturated), and the bisection that refines the knee between the last step that held and the
// first that broke. scenarios/capacity.ts runs the steps; this only judges and chooses.
import type { LoadObserver, OpenModelResult } from './openModelExecutor.ts';
import { rigSaturation, type RigHealth } from '../metrics/rigHealth.ts';
import { sloBreaches, type CapacitySlo, type StepOutcome } from './capacitySlo.ts';

/**
 * Counts a step's round trips by when they completed: `within` its window (every arrival of a step
 * is intended inside it, so within = ended by origin + stepMs), else in the drain after it. The
 * achieved rate is within / step: completions of the drain would credit the step with work done
 * after it (docs/scenarios.md, "Achieved within the step").
 */
export function stepCompletions(origin: number, stepMs: number): LoadObserver & { within: number; drained: number } {
  const end = origin + stepMs;
  const counts = {
    within: 0,
    drained: 0,
    due() {},
    succeeded(endedAt: number) {
      if (endedAt <= end) counts.within++;
      else counts.drained++;
    },
  };
  return counts;
}

/**
 * What the step cost in CPU, the rig's (its whole process: the embedded fault proxy runs in it) and
 * the agent's (when the rig started it): % of one core over the step, drain included, and µs per
 * round trip completed, so a reader can tell whether the generator is much cheaper than its target.
 */
export function stepCpuCost(health: RigHealth | undefined, completed: number): Record<string, number> {
  if (!health) return {};
  const perRoundTrip = (pct: number) => Math.round((pct * health.durationMs * 10) / completed);
  const agent = health.agentCpu?.pctOfCore;
  return {
    rig_cpu_pct: health.rigCpu.pctOfCore,
    ...(agent !== undefined ? { agent_cpu_pct: agent } : {}),
    ...(completed > 0 ? { rig_cpu_us_per_round_trip: perRoundTrip(health.rigCpu.pctOfCore) } : {}),
    ...(completed > 0 && agent !== undefined ? { agent_cpu_us_per_round_trip: perRoundTrip(agent) } : {}),
  };
}

/**
 * Which processes `rig_cpu_pct` counts, for the curve: always the rig's whole process, and the fault
 * proxy only when the load passed it and it runs in that process (the embedded one). A load with no
 * toxic to meet goes straight to the agent (newClient's proxy 'for-toxics').
 */
export function rigCpuCounts(viaProxy: boolean, proxyBackend: string | undefined): string {
  const rig = "the rig's process (all its threads)";
  if (!viaProxy) return `${rig}; the load went straight to the agent (no toxic asked for the fault proxy)`;
  if (proxyBackend === 'embedded') return `${rig}, with the embedded fault proxy the load passed`;
  return `${rig}; the fault proxy the load passed (${proxyBackend ?? 'unknown'}) runs apart, not counted`;
}

/** Per second, one decimal. */
export const perSecond = (n: number, ms: number) => Math.round((n * 10_000) / ms) / 10;

/** One step as the search judges it: its outcome against the SLO and what the rig saw of itself. */
export interface StepFacts extends StepOutcome {
  /** Actual start → end p95 of the successes: how long the agent took once asked. */
  serviceP95Ms: number;
  /**
   * Of `errors`, those a slow rig could cause too: timeouts and unfinished at the drain bound. The
   * others (a wrong state, a refusal) are the agent's whatever the rig's health.
   */
  timeouts: number;
  /** Started more than the executor's lateAfterMs after their intended time. */
  late: number;
  /** The most round trips in flight at once, and the bound. */
  peakInFlight: number;
  maxInFlight: number;
  /** The rig over the step's window (rigHealthMonitor.ts span); undefined when not watched. */
  health?: RigHealth;
}

export interface StepVerdict {
  /** Why the step breaks the SLO (sloBreaches); empty when it holds. */
  reasons: string[];
  /** The rig's own bounds the step reached, in words (in-flight, backlog, late starts). */
  rigBounds: string[];
  /** Why the load generator was saturated over the step (rigSaturation), if it was. */
  saturation?: string;
  /**
   * The step broke the SLO, but not by the agent: the rig was saturated, or every reason was the
   * rig's (drops from a full backlog; a p95 over the bound while the agent's own service time held it).
   */
  byRig: boolean;
}

/** The rig's bounds the step reached. Reached is not broken: a step may hold at its in-flight bound. */
export function rigBounds(step: StepFacts): string[] {
  const bounds: string[] = [];
  if (step.peakInFlight >= step.maxInFlight) bounds.push(`in-flight bound ${step.maxInFlight} reached`);
  if (step.dropped > 0) bounds.push(`${step.dropped} dropped with the backlog full`);
  if (step.late > 0) bounds.push(`${step.late} of ${step.scheduled} started late`);
  return bounds;
}

const overErrorBound = (n: number, step: StepFacts, slo: CapacitySlo) =>
  n > (step.scheduled * slo.sloMaxErrorPct) / 100;

/** A breach the agent caused: errors, nothing completed, or a p95 it took itself (service time). */
function agentBreach(step: StepFacts, slo: CapacitySlo): boolean {
  const slow = step.completed > 0 && step.serviceP95Ms > slo.sloP95Ms;
  return overErrorBound(step.errors, step, slo) || step.completed === 0 || slow;
}

/** Errors no state of the rig explains (not timeouts): over the bound, the agent broke the SLO. */
const agentFault = (step: StepFacts, slo: CapacitySlo) => overErrorBound(step.errors - step.timeouts, step, slo);

export function judgeStep(step: StepFacts, slo: CapacitySlo): StepVerdict {
  const reasons = sloBreaches(step, slo);
  const saturation = rigSaturation(step.health);
  const excused = saturation !== undefined || !agentBreach(step, slo);
  const byRig = reasons.length > 0 && excused && !agentFault(step, slo);
  return { reasons, rigBounds: rigBounds(step), ...(saturation ? { saturation } : {}), byRig };
}

/** The errors a slow rig could cause too: timed out, or unfinished at the drain bound. */
export const stepTimeouts = (step: OpenModelResult) => (step.failures.timeout ?? 0) + step.unfinished;

/** A step's outcome as the search judges it (judgeStep), from what the open model returned. */
export function stepVerdict(
  step: OpenModelResult,
  bounds: CapacitySlo & { maxInFlight: number },
  health: RigHealth | undefined,
): StepVerdict {
  const kinds = Object.entries(step.failures).map(([k, n]) => `${n} ${k}`);
  if (step.unfinished) kinds.push(`${step.unfinished} unfinished`);
  const first = step.firstFailure ? `; first: ${step.firstFailure}` : '';
  const facts = {
    scheduled: step.scheduled,
    errors: step.failed + step.unfinished,
    dropped: step.dropped,
    completed: step.latency.count,
    p95Ms: step.latency.percentileMs(95),
    serviceP95Ms: step.serviceTime.percentileMs(95),
    timeouts: stepTimeouts(step),
    errorDetail: `${kinds.join(', ')}${first}`,
    late: step.late,
    peakInFlight: step.peakInFlight,
    maxInFlight: bounds.maxInFlight,
    ...(health ? { health } : {}),
  };
  return judgeStep(facts, bounds);
}

/**
 * The next rate to try between `held` (sustainable) and `broke` (not), or undefined when the gap is
 * within `resolutionPct` % of `held` (0: no refinement) or no whole rate lies between them.
 */
export function nextProbe(held: number, broke: number, resolutionPct: number): number | undefined {
  if (resolutionPct <= 0 || held <= 0 || broke - held <= (held * resolutionPct) / 100) return undefined;
  const mid = Math.round((held + broke) / 2);
  return mid > held && mid < broke ? mid : undefined;
}

/** A probe's outcome: held, broke (by the agent or the rig), or stop (the budget or an abort). */
export type ProbeOutcome = 'held' | 'broke' | 'stop';

/**
 * Bisects between `held` and `broke` until the gap is within the resolution or a probe says stop;
 * returns the final bracket. A probe broken by the rig narrows it like one broken by the agent: the
 * agent's own limit above it is then not known, which the caller says.
 */
export async function bisectKnee(
  bracket: { held: number; broke: number },
  resolutionPct: number,
  probe: (rate: number) => Promise<ProbeOutcome>,
): Promise<{ held: number; broke: number }> {
  let { held, broke } = bracket;
  for (let rate = nextProbe(held, broke, resolutionPct); rate !== undefined;) {
    const outcome = await probe(rate);
    if (outcome === 'stop') break;
    if (outcome === 'held') held = rate;
    else broke = rate;
    rate = nextProbe(held, broke, resolutionPct);
  }
  return { held, broke };
}

/**
 * The whole search: the ramp's rates in order until one breaks, then the bisection between it and the
 * last that held; a probe's 'stop' (the budget, an abort) ends it where it is. `broke` is absent
 * when no step broke.
 */
export async function searchKnee(
  rates: readonly number[],
  resolutionPct: number,
  probe: (rate: number, refined: boolean) => Promise<ProbeOutcome>,
): Promise<{ held: number; broke?: number }> {
  let held = 0;
  for (const rate of rates) {
    const outcome = await probe(rate, false);
    if (outcome === 'stop') return { held };
    if (outcome === 'broke') return bisectKnee({ held, broke: rate }, resolutionPct, (r) => probe(r, true));
    held = rate;
  }
  return { held };
}

const pctApart = (held: number, broke: number) => Math.round(((broke - held) * 100) / held);

/**
 * Where the search ended, in words: `capacity 720/s (between 720 and 790/s, resolution 10 %)`,
 * or, when the step that broke was the rig's limit, `capacity ≥ 720/s: …` and why, not judged.
 * `atHeld` follows the figure (e.g. " (p95 12 ms at 720/s)").
 */
export function kneeText(
  held: number,
  broke: number,
  resolutionPct: number,
  verdict: StepVerdict,
  atHeld = '',
): string {
  // No step held: the first step is far below any rig's limit, so that is the agent's failure.
  if (held === 0) return 'no sustainable rate';
  if (verdict.byRig) return `capacity ≥ ${held}/s${atHeld}: ${rigLimitText(broke, verdict)}`;
  const apart = pctApart(held, broke);
  const resolution =
    resolutionPct > 0 && apart <= resolutionPct
      ? `resolution ${resolutionPct} %`
      : `${apart} % apart${resolutionPct > 0 ? `, not refined to ${resolutionPct} %: the budget ended it` : ''}`;
  return `capacity ${held}/s (between ${held} and ${broke}/s, ${resolution})${atHeld}`;
}

/** Why a step that broke was the rig's limit, not the agent's. */
export function rigLimitText(rate: number, verdict: StepVerdict): string {
  const why = rigLimitWhy(verdict.saturation, verdict.rigBounds.join(', '));
  return `the load generator was the limit at ${rate}/s (${why}); the agent's capacity is not judged`;
}

/** "saturated: …" (rigSaturation's text without its lead, which the caller says once), else the bounds. */
export function rigLimitWhy(saturation: string | undefined, bounds: string): string {
  return saturation
    ? saturation.replace(/^the load generator was /, '')
    : `its own bounds broke the SLO, not the agent: ${bounds || 'late starts'}`;
}
