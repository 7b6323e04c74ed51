// What a scenario's result holds besides its checks, made the same way for every scenario the run
// holds: the counters it recorded (every declared one, 0 when never counted), and the result of one
// the run never started.
import type { ScenarioDefinition } from './kit/defineScenario.ts';
import type { ScenarioResult, Verdict } from '../results/runResult.ts';

/**
 * A scenario that ran records every declared (unlabelled) counter, 0 when never counted, so a gate
 * on it measures a 0 rather than nothing. Not a `measure` (the attack tax, a recovery time): 0 is
 * its best value, so one never measured stays absent and a threshold on it breaks, saying so.
 */
export function recordedCounters(
  scenario: ScenarioDefinition<object>,
  verdict: Verdict,
  counted: Map<string, number>,
): Record<string, number> {
  const zeros =
    verdict === 'skipped'
      ? []
      : Object.entries(scenario.records.counters)
          .filter(([name, kind]) => !name.includes('{') && kind !== 'measure')
          .map(([name]) => [name, 0]);
  return { ...Object.fromEntries(zeros), ...Object.fromEntries(counted) };
}

/** A scenario the run never started because a signal stopped it first. */
export function notRun(scenario: ScenarioDefinition<object>, signal: AbortSignal): ScenarioResult {
  return {
    name: scenario.name,
    description: scenario.description,
    tags: scenario.tags,
    verdict: 'not-run',
    reason: `not run: the run was interrupted by ${String(signal.reason)}`,
    durationMs: 0,
    params: {},
    checks: [],
    metrics: {},
    counters: {},
    records: scenario.records,
  };
}
