// The DoS mutation matrix (issue 14), first half: every DoS scenario passes against the correct
// reference agent, judging every part, and a rate limit counts as a mitigation working. The fault
// rows are in scenarios.mutationMatrixDosFaults.test.ts, which runs beside the main matrix
// (scenarios.mutationMatrix.test.ts, which leaves the `dos` scenarios to these two). This half judges
// the attack tax on a correct agent, paired with control windows, so a neighbour's load can leave
// it not judged but never failed: it runs in the main pool beside other files.
// Smoke profile through the real engine, the agent a child process behind a pinned fault backend,
// as the main matrix does, with the tests' short phases (test/support/dosMatrix.ts).
import { describe, expect, it } from 'vitest';
import { LOAD_MAY_LEAVE_UNJUDGED } from '../rig/engine/dos/dosJudge.ts';
import { checkNotJudged } from '../rig/results/runResult.ts';
import { DOS_MATRIX, dosScenarios as all, reasons, runDos, verdicts } from './support/dosMatrix.ts';

describe('DoS mutation matrix (smoke profile): the correct agent', () => {
  it('the dos tag selects the six DoS scenarios', () => {
    expect(all.map((s) => s.name).sort()).toEqual([
      'dos-answers',
      'dos-connections',
      'dos-malformed',
      'dos-payloads',
      'dos-slow',
      'dos-streams',
    ]);
    for (const s of all) expect(s.tags).toEqual(['dos', 'hostile']);
  });

  it('every DoS scenario passes against the correct agent, judging every part', { timeout: 300_000 }, async () => {
    const result = await runDos(['dos'], []);
    // Never failed. A tax whose interval straddles its bound, or a recovery a busy box hides, is not
    // judged (the scenario inconclusive): a test that demanded "passed" would bound latency; any
    // other check not judged is a finding (LOAD_MAY_LEAVE_UNJUDGED).
    const unsure = (v: string) => (v === 'inconclusive' ? 'passed' : v);
    const seen = Object.fromEntries(Object.entries(verdicts(result)).map(([n, v]) => [n, unsure(v)]));
    expect(seen, reasons(result)).toEqual(Object.fromEntries(all.map((s) => [s.name, 'passed'])));
    const notJudged = result.scenarios.flatMap((s) => s.checks.filter(checkNotJudged).map((c) => c.name));
    expect(
      notJudged.filter((n) => !LOAD_MAY_LEAVE_UNJUDGED.test(n)),
      reasons(result),
    ).toEqual([]);
    // Against the reference agent nothing is left out: every attack aimed, its memory sampled.
    expect(
      result.scenarios.flatMap((s) => s.notes ?? []),
      reasons(result),
    ).toEqual([]);
  });

  it('every DoS scenario is meant to catch at least one fault', () => {
    const catching = new Set(Object.values(DOS_MATRIX).map((row) => row.scenario));
    expect(all.map((s) => s.name).filter((n) => !catching.has(n))).toEqual([]);
  });

  it(
    'a rate limit is a mitigation working: with --rate-limit the flood ' +
      'comes back 429 + Retry-After (rate-limited), and dos-answers passes',
    { timeout: 180_000 },
    async () => {
      // 40 requests/s per client IP: the legitimate round trips (from the proxy's address, a few
      // requests each at 10/s) stay under it, the attacker's 100 answers/s from 127.0.0.2 do not.
      const result = await runDos(
        ['dos-answers'],
        [],
        // Each of the three bursts starts for attackMs / 3 = 1 s: 100 answers, past the bucket's 40.
        { 'dos-answers': { attackMs: 3_000, attacks: { 'unknown-prompt': { rate: 100, max: 100 } } } },
        ['--rate-limit', '40'],
      );
      const scenario = result.scenarios[0]!;
      // Passed, or its tax not judged on a busy box (see above): never failed.
      expect(['passed', 'inconclusive'], reasons(result)).toContain(scenario.verdict);
      expect(
        scenario.counters['attack_outcomes{attack=unknown-prompt,outcome=rate-limited}'],
        reasons(result),
      ).toBeGreaterThan(0);
      expect(scenario.counters['attack_outcomes{attack=unknown-prompt,outcome=accepted}']).toBe(0);
    },
  );
});
