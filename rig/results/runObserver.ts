// What a run tells as it goes, to whoever watches it (k6's Output in miniature): the progress
// display (rig/report/terminal/progressOutput.ts), the live Prometheus metrics (rig/engine/liveMetricsOption.ts),
// anything later. The engine tells one observer; `fanOut` makes one of several.
//
// Every method is optional, and a method nobody has is work the engine skips: without `onTraffic`
// no scenario keeps its last second's latencies, without the iteration methods an open-model load
// runs its iterations unwrapped. Some methods are told tens of thousands of times a second: an
// observer must return at once. Scenarios run one at a time, so whatever comes between a
// scenario's start and its end is that scenario's.
import type { AnswerOutcome, ExchangeEnd } from '../client/index.ts';
import type { LiveTraffic } from '../metrics/trafficRecord.ts';
import type { FaultEvent, LogLine, ScenarioResult } from './runResult.ts';

export type { LiveTraffic } from '../metrics/trafficRecord.ts';

export interface ScenarioPosition {
  scenario: string;
  /** 0-based position of the scenario in the run, and how many the run has. */
  index: number;
  total: number;
}

export interface ScenarioEnd extends ScenarioPosition {
  result: ScenarioResult;
}

/** `t`: ms since the scenario started. */
export interface ScenarioLogLine extends ScenarioPosition, LogLine {}

export interface ScenarioTraffic extends ScenarioPosition {
  live: LiveTraffic;
}

export type IterationOutcome = 'succeeded' | 'failed';

export interface RunObserver {
  onScenarioStart?(at: ScenarioPosition): void;
  onScenarioEnd?(end: ScenarioEnd): void;
  /** A line the running scenario said (ctx.log / ctx.note); none after it ended. */
  onLog?(line: ScenarioLogLine): void;
  /** Once a second while the scenario sends traffic: what it looked like over the last second. */
  onTraffic?(traffic: ScenarioTraffic): void;
  /** A fault the scenario injected or lifted, once it took effect. */
  onFaultEvent?(event: FaultEvent): void;
  /** A latency the scenario recorded, in µs, under its declared name (`round_trip{rate=40}`). */
  onLatency?(metric: string, us: number): void;
  /** A JSON-RPC exchange of a client through the fault proxy, as it ended (a stream: at its headers). */
  onExchange?(method: string, end: ExchangeEnd, latencyMs: number): void;
  /** A hitl-prompt/v1 answer sent through the fault proxy, classified. */
  onAnswer?(outcome: AnswerOutcome): void;
  /** An open-model load's offered arrival rate as its schedule goes; 0 when the schedule ends. */
  onArrivalRate?(perSecond: number): void;
  /** An open-model iteration starts. */
  onIterationStart?(): void;
  /**
   * An open-model iteration settles: its promise resolved or rejected (a timeout is the executor's
   * verdict, not seen here).
   */
  onIterationEnd?(outcome: IterationOutcome): void;
}

/**
 * Every method, so that fanOut can forward each; a Record, so a method added above without one here
 * does not compile.
 */
const METHODS: Record<keyof RunObserver, true> = {
  onScenarioStart: true,
  onScenarioEnd: true,
  onLog: true,
  onTraffic: true,
  onFaultEvent: true,
  onLatency: true,
  onExchange: true,
  onAnswer: true,
  onArrivalRate: true,
  onIterationStart: true,
  onIterationEnd: true,
};

type Told = (...args: unknown[]) => void;

/**
 * One observer that tells each of `observers` (absent ones left out) everything, in the order
 * given. It has only the methods at least one of them has, so the engine still skips what nobody
 * watches.
 */
export function fanOut(observers: ReadonlyArray<RunObserver | undefined>): RunObserver {
  const present = observers.filter((o): o is RunObserver => o !== undefined);
  const fanned: Partial<Record<keyof RunObserver, Told>> = {};
  for (const method of Object.keys(METHODS) as Array<keyof RunObserver>) {
    const told = present.filter((o) => o[method] !== undefined);
    if (told.length === 0) continue;
    fanned[method] = (...args) => {
      for (const o of told) (o[method] as Told).apply(o, args);
    };
  }
  return fanned as RunObserver;
}
