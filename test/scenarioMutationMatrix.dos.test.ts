// The DoS mutation matrix (issue 14): every DoS scenario passes against the correct reference
// agent, and each fails against the agent fault flag that removes the mitigation it verifies. A
// file of its own so it runs in parallel with the main matrix (scenarioMutationMatrix.test.ts),
// which leaves the `dos` scenarios to this one. Smoke profile through the real engine, the agent a
// child process behind a pinned fault backend, as the main matrix does.
import { describe, expect, it } from 'vitest';
import { loadScenarios, selectScenarios } from '../rig/engine/scenarioCatalog.ts';
import { runScenarios } from '../rig/engine/runScenarios.ts';
import type { RunResult } from '../rig/report/runResult.ts';
import { pinnedToxiproxy } from './support/proxyBackends.ts';

const MATRIX: Record<string, string[]> = {
  'no-body-limit': ['dos-payloads'],
  'backtracking-patterns': ['dos-payloads'],
  'no-depth-limit': ['dos-payloads'],
  'accept-duplicates': ['dos-answers'],
  'parse-errors-500': ['dos-malformed'],
  'no-header-limit': ['dos-malformed'],
  'no-request-timeouts': ['dos-slow'],
  'no-connection-limit': ['dos-connections'],
  'unbounded-streams': ['dos-streams'],
};

const all = (await loadScenarios()).filter((s) => s.tags.includes('dos'));
const verdicts = (run: RunResult) => Object.fromEntries(run.scenarios.map((s) => [s.name, s.verdict]));
const reasons = (run: RunResult) => run.scenarios.map((s) => `${s.name}: ${s.verdict}${s.reason ? ` (${s.reason})` : ''}${s.notes?.length ? ` [${s.notes.join('; ')}]` : ''}`).join('\n');

function run(names: string[], agentFaults: string[]): Promise<RunResult> {
  return runScenarios(selectScenarios(all, names), { profile: 'smoke', toxiproxy: pinnedToxiproxy(), agentFaults, generation: 'auto' });
}

describe('DoS mutation matrix (smoke profile)', () => {
  it('the dos tag selects the six DoS scenarios', () => {
    expect(all.map((s) => s.name).sort()).toEqual(['dos-answers', 'dos-connections', 'dos-malformed', 'dos-payloads', 'dos-slow', 'dos-streams']);
    for (const s of all) expect(s.tags).toEqual(['dos', 'hostile']);
  });

  it('every DoS scenario passes against the correct agent, judging every part', { timeout: 300_000 }, async () => {
    const result = await run(['dos'], []);
    expect(verdicts(result), reasons(result)).toEqual(Object.fromEntries(all.map((s) => [s.name, 'passed'])));
    // Against the reference agent nothing is left out: every attack aimed, its memory sampled.
    expect(result.scenarios.flatMap((s) => s.notes ?? []), reasons(result)).toEqual([]);
  });

  it('every DoS scenario is meant to catch at least one fault', () => {
    const catching = new Set(Object.values(MATRIX).flat());
    expect(all.map((s) => s.name).filter((n) => !catching.has(n))).toEqual([]);
  });

  for (const [fault, scenarios] of Object.entries(MATRIX)) {
    it(`--agent-fault ${fault} fails ${scenarios.join(', ')}`, { timeout: 180_000 }, async () => {
      const result = await run(scenarios, [fault]);
      const got = verdicts(result);
      for (const name of scenarios) expect(got[name], reasons(result)).toBe('failed');
    });
  }
});
