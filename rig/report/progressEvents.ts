// What the engine tells a display as a run goes (runScenarios' onProgress): a scenario starts or
// ends, a scenario logs a line (ctx.log / ctx.note), and, once a second while a scenario sends
// traffic, what that traffic looked like over the last second. The engine emits; the terminal
// display (progressOutput.ts) renders. Types only.
import type { ScenarioResult } from '../results/runResult.ts';
import type { LiveTraffic } from '../metrics/trafficRecord.ts';

export type { LiveTraffic } from '../metrics/trafficRecord.ts';

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


export interface ScenarioTrafficEvent extends ScenarioPosition {
  phase: 'traffic';
  live: LiveTraffic;
}

export type ProgressEvent = ScenarioBoundaryEvent | ScenarioLogEvent | ScenarioTrafficEvent;
