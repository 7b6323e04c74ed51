// What the engine tells a display as a run goes (runScenarios' onProgress): a scenario starts or
// ends, a scenario logs a line (ctx.log / ctx.note), and, once a second while a scenario sends
// traffic, what that traffic looked like over the last second. The engine emits; the terminal
// display (progressOutput.ts) renders. Types only.
import type { ScenarioResult } from './runResult.ts';

interface ScenarioPosition {
  scenario: string;
  /** 0-based position of the scenario in the run, and how many the run has. */
  index: number;
  total: number;
}

export interface ScenarioBoundaryEvent extends ScenarioPosition {
  phase: 'start' | 'end';
  /** `end` only. */
  result?: ScenarioResult;
}

export interface ScenarioLogEvent extends ScenarioPosition {
  phase: 'log';
  /** ms since the scenario started. */
  t: number;
  line: string;
}

/** The scenario's own traffic (results.json `traffic`) over the last second, and so far. */
export interface LiveTraffic {
  /** Exchanges that ended in the last second, and of them rpc errors or failed. */
  ratePerS: number;
  errorsPerS: number;
  /** Exchanges open now. */
  inFlight: number;
  /** Latency of the exchanges that ended in the last second; absent when none did. */
  p50Ms?: number;
  p95Ms?: number;
  /** Open-model load running now: its offered arrival rate. */
  offeredPerS?: number;
  /** Since the scenario started. */
  requests: number;
  errors: number;
}

export interface ScenarioTrafficEvent extends ScenarioPosition {
  phase: 'traffic';
  live: LiveTraffic;
}

export type ProgressEvent = ScenarioBoundaryEvent | ScenarioLogEvent | ScenarioTrafficEvent;
