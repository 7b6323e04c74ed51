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
import { fastDosParams, onlyAttack, type ParamOverrides } from './support/dosRuns.ts';

/** Each flag, the scenario it must fail, and the attack whose own check must be among the failed ones (the broken guarantee named). */
const MATRIX: Record<string, { scenario: string; attack: string }> = {
  'no-body-limit': { scenario: 'dos-payloads', attack: 'oversized-answer' },
  'backtracking-patterns': { scenario: 'dos-payloads', attack: 'pattern-backtracking' },
  'no-depth-limit': { scenario: 'dos-payloads', attack: 'deep-answer' },
  'accept-duplicates': { scenario: 'dos-answers', attack: 'duplicate-answers' },
  'parse-errors-500': { scenario: 'dos-malformed', attack: 'malformed-json' },
  'no-header-limit': { scenario: 'dos-malformed', attack: 'huge-headers' },
  'no-request-timeouts': { scenario: 'dos-slow', attack: 'slowloris' },
  'no-connection-limit': { scenario: 'dos-connections', attack: 'idle-connections' },
  'unbounded-streams': { scenario: 'dos-streams', attack: 'unread-streams' },
};

/**
 * The embedded agent with short client timeouts (1.5 s headers, 3 s request) and the scenarios with
 * short phases (test/support/dosRuns.ts), so a row takes seconds. With idle connections cut after
 * 1.5 s the idle flood holds fewer at once, so the per-client bound is 256 here (1,024 by default):
 * the flood still goes past it. A fault row runs only the attack its flag is about.
 */
const AGENT_ARGS = ['--headers-timeout-ms', '1500', '--request-timeout-ms', '3000', '--max-connections-per-client', '256'];

const all = (await loadScenarios()).filter((s) => s.tags.includes('dos'));
const verdicts = (run: RunResult) => Object.fromEntries(run.scenarios.map((s) => [s.name, s.verdict]));
const reasons = (run: RunResult) => run.scenarios.map((s) => `${s.name}: ${s.verdict}${s.reason ? ` (${s.reason})` : ''}${s.notes?.length ? ` [${s.notes.join('; ')}]` : ''}`).join('\n');

function run(names: string[], agentFaults: string[], params: ParamOverrides = {}, agentArgs: string[] = []): Promise<RunResult> {
  const selected = selectScenarios(all, names);
  // The agent's per-client bound is 256 here (AGENT_ARGS): the flood need only pass that, which
  // also keeps it within a CI box's `ulimit -n` of 1,024.
  const overrides = fastDosParams(selected.map((s) => s.name), { ...params, 'dos-connections': { clientBound: 256, ...params['dos-connections'] } });
  return runScenarios(selected, { profile: 'smoke', toxiproxy: pinnedToxiproxy(), agentFaults, agentArgs: [...AGENT_ARGS, ...agentArgs], paramOverrides: overrides, generation: 'auto' });
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
    const catching = new Set(Object.values(MATRIX).map((row) => row.scenario));
    expect(all.map((s) => s.name).filter((n) => !catching.has(n))).toEqual([]);
  });

  it('a rate limit is a mitigation working: with --rate-limit the flood comes back 429 + Retry-After (rate-limited), and dos-answers passes', { timeout: 180_000 }, async () => {
    // 40 requests/s per client IP: the legitimate round trips (from the proxy's address, a few
    // requests each at 10/s) stay under it, the attacker's 100 answers/s from 127.0.0.2 do not.
    const result = await run(['dos-answers'], [], { 'dos-answers': { attacks: { 'unknown-prompt': { rate: 100, max: 100 } } } }, ['--rate-limit', '40']);
    const scenario = result.scenarios[0]!;
    expect(scenario.verdict, reasons(result)).toBe('passed');
    expect(scenario.counters['attack_outcomes{attack=unknown-prompt,outcome=rate-limited}'], reasons(result)).toBeGreaterThan(0);
    expect(scenario.counters['attack_outcomes{attack=unknown-prompt,outcome=accepted}']).toBe(0);
  });

  for (const [fault, { scenario, attack }] of Object.entries(MATRIX)) {
    it(`--agent-fault ${fault} fails ${scenario}, on ${attack}'s own check`, { timeout: 180_000 }, async () => {
      const result = await run([scenario], [fault], { [scenario]: onlyAttack(all.find((s) => s.name === scenario)!, attack) });
      expect(verdicts(result)[scenario], reasons(result)).toBe('failed');
      const failed = result.scenarios.find((s) => s.name === scenario)!.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail ?? ''}`);
      // One of the attack's own checks (refusal, 5xx, cut, shed), not only the legitimate traffic's tax under it.
      expect(failed.some((c) => c.startsWith(`${attack}:`) && !c.startsWith(`${attack}: attack tax`)), `failed checks:\n${failed.join('\n')}`).toBe(true);
    });
  }
});
