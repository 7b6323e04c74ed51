// The shapes of a mixed run (attackRun.ts) and its bursts (attackBursts.ts), in a module of their own
// so the two import them without importing each other.
import type { Attack, AttackOutcome, AttackReport, AttackSchedule, AttackTarget } from '../../attack/attackTypes.ts';
import type { OpenModelOptions, OpenModelResult, Iteration } from '../../load/openModelExecutor.ts';

export const PHASES = ['before', 'during', 'after'] as const;
export type Phase = (typeof PHASES)[number];

export interface PlannedAttack {
  name: string;
  /** Any attack: its params type is its own, so here it takes them as the plain record `params` is. */
  attack: Attack<object>;
  params: object;
  ratePerSecond: number;
  /** Per burst: a burst keeps the attack's rate and bound, only its starts are shorter. */
  maxRequests: number;
  /**
   * Each burst is the whole attack (its starts for attackMs): a holding attack must go past the
   * agent's bound within one burst, which a burst of a third of its starts may not reach.
   */
  wholeBursts?: boolean;
}

/** The phases of a mixed run and the bounds of its legitimate load: what a DoS family sizes (dosParams.ts). */
export interface MixedRunPhases {
  beforeMs: number;
  /** Each attack's starts, over all its bursts, end after this; a burst lasts until it settles. */
  attackMs: number;
  /** Hard bound on each burst, from its start: the attack is aborted then (its held connections closed). */
  attackCapMs: number;
  /** Bursts per attack (≥ 1), with a control window before each and after the last. */
  attackBursts: number;
  /** Legitimate traffic alone before each burst and after the last, which each burst's tax is measured against. */
  controlMs: number;
  afterMs: number;
  /** One legitimate round trip's bound (its resume wait included). */
  legitTimeoutMs: number;
  maxInFlight: number;
}

export interface MixedRunPlan extends MixedRunPhases {
  attacks: PlannedAttack[];
  target: AttackTarget;
  /** Legitimate round trips started per second, in every phase. */
  legitRatePerSecond: number;
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

/** [from, to) in performance.now() time. */
export interface Span {
  from: number;
  to: number;
}

export interface BurstRecord {
  startedAt: number;
  stoppedAt: number;
  /** The rig aborted it at attackCapMs. */
  capped: boolean;
  /** Legitimate traffic alone just before it and just after it (shared with the next burst). */
  controlBefore: Span;
  controlAfter: Span;
}

export interface AttackRecord {
  name: string;
  /** Of every burst. */
  outcomes: AttackOutcome[];
  /** The last burst's report. */
  report?: AttackReport;
  /** run() threw (a misuse: bad params, a non-loopback target). */
  error?: string;
  /** The first burst's start and the last's stop. */
  startedAt: number;
  stoppedAt: number;
  /** The rig aborted a burst at attackCapMs. */
  capped: boolean;
  bursts: BurstRecord[];
}

export interface MixedRunResult {
  /** performance.now() of the first intended start. */
  origin: number;
  /**
   * When the first attack started: the during phase's start. Each attack's bursts and the control
   * windows beside them are in its record.
   */
  attackStartAt: number;
  /** When the last burst settled: the during phase's end. */
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
  /** Runs one burst of `a` (on worker threads or not); default `a.attack.run` on this thread. */
  runAttack?(a: PlannedAttack, target: AttackTarget, schedule: AttackSchedule): Promise<AttackReport>;
}
