// cf4 stops once the p95 cannot pass any more (more than 5 % of its trials over 1 s). Its trials
// check passes then — stopping is the rule — and must say that it stopped and why: it used to read
// "at least 20 trials observed" beside "2 measured", a check that contradicted its own detail.
import { describe, expect, it } from 'vitest';
import { loadScenarios, selectScenarios } from '../rig/engine/scenarioCatalog.ts';
import { runScenarios } from '../rig/engine/runScenarios.ts';
import { pinnedToxiproxy } from './support/proxyBackends.ts';

const all = await loadScenarios();

describe('cf4 stopping early', () => {
  it('says in the trials check that it stopped, after how many, and why', { timeout: 120_000 }, async () => {
    const result = await runScenarios(selectScenarios(all, ['cf4']), {
      profile: 'smoke',
      toxiproxy: pinnedToxiproxy(),
      agentFault: ['slow-resume'],
      a2aVersion: 'auto',
    });
    const cf4 = result.scenarios[0]!;
    expect(cf4.verdict, cf4.reason).toBe('failed');
    const trials = cf4.checks.find((c) => c.name.startsWith('20 trials observed'))!;
    expect(trials.ok).toBe(true);
    // Each trial resumes 1.5 s late (over the bound), or past the 3 s wait on a very busy box (never).
    expect(trials.detail).toMatch(
      /^stopped after 2 of 20 trials: \d over 1000 ms and \d never resumed, more than the 1 a p95 over 20 allows$/,
    );
    expect(cf4.checks.find((c) => c.name.startsWith('p95 resume latency'))!.ok).toBe(false);
  });
});
