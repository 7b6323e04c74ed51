// The mutation matrix: every scenario passes against the correct reference agent, and each fails
// against the agent fault it exists to catch. A scenario that cannot fail is a defect, so this
// is where each check earns its place. The rows are what the scenarios declare they catch
// (`catches` in their definitions; test/scenarios.catches.test.ts holds every flag to a scenario).
// Runs at smoke sizes through the real engine: the agent is a child process behind a pinned fault
// backend: the real Toxiproxy spawned per run when a binary is found (CI builds one), else the
// embedded proxy; never `auto`, which a stranger's server could sway.
import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import { loadScenarios, selectScenarios } from '../rig/engine/scenarioCatalog.ts';
import { runScenarios } from '../rig/engine/runScenarios.ts';
import type { RunResult } from '../rig/results/runResult.ts';
import { pinnedToxiproxy } from './support/proxyBackends.ts';
import { mutationRows } from './support/faultMatrix.ts';

// The DoS scenarios have their own matrix (scenarios.mutationMatrixDos*.test.ts).
const all = (await loadScenarios()).filter((s) => !s.tags.includes('dos'));
/** Each fault flag → the scenarios that declare they catch it. */
const MATRIX = mutationRows(all);
const twoAtOnce = pLimit(2);
const verdicts = (run: RunResult) => Object.fromEntries(run.scenarios.map((s) => [s.name, s.verdict]));
const reasons = (run: RunResult) =>
  run.scenarios.map((s) => `${s.name}: ${s.verdict}${s.reason ? ` (${s.reason})` : ''}`).join('\n');

// Below smoke sizes where a scenario's size only buys time here: a flood of 200 answers tells one
// acceptance from several, 1 s capacity steps and a 1.5 s acceptance load still meet the SLO on the
// correct agent and break it on the slow one. The rows judge the checks, not the figures.
const FAST: Record<string, Record<string, unknown>> = {
  'duplicate-flood': { answers: 200 },
  capacity: { stepMs: 1_000 },
  'acceptance-latency': { durationMs: 1_500 },
};

function run(names: string[], agentFaults: string[]): Promise<RunResult> {
  return runScenarios(selectScenarios(all, names), {
    profile: 'smoke',
    toxiproxy: pinnedToxiproxy(),
    agentFault: agentFaults,
    a2aVersion: 'auto',
    param: FAST,
  });
}

describe('mutation matrix (smoke profile)', () => {
  it('every scenario passes against the correct agent', { timeout: 240_000 }, async () => {
    const result = await run([], []);
    expect(result.scenarios.map((s) => s.name).sort()).toEqual(all.map((s) => s.name).sort());
    expect(verdicts(result), reasons(result)).toEqual(Object.fromEntries(all.map((s) => [s.name, 'passed'])));
    expect(result.proxy?.backend).toBe(pinnedToxiproxy().kind === 'spawn' ? 'spawned' : 'embedded');
  });

  it('every scenario is meant to catch at least one fault', () => {
    const catching = new Set(Object.values(MATRIX).flat());
    expect(all.map((s) => s.name).filter((n) => !catching.has(n))).toEqual([]);
  });

  // Two rows at a time (a row is a failing verdict, which a busy box cannot turn green; the attack-tax
  // gates that rows side by side once swayed now run alone: vitest.config.ts).
  for (const [fault, scenarios] of Object.entries(MATRIX)) {
    it.concurrent(`--agent-fault ${fault} fails ${scenarios.join(', ')}`, { timeout: 180_000 }, async () => {
      const result = await twoAtOnce(() => run(scenarios, [fault]));
      const got = verdicts(result);
      for (const name of scenarios) expect(got[name], reasons(result)).toBe('failed');
      expect(result.proxy?.backend).toBe(pinnedToxiproxy().kind === 'spawn' ? 'spawned' : 'embedded');
    });
  }
});
