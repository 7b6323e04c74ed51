// The DoS mutation matrix (issue 14), second half: each DoS scenario fails against the agent fault
// flag that removes the mitigation it verifies, and the failed check is the attack's own (the broken
// guarantee named), not only the legitimate traffic's tax under it. A row runs only the attack its
// flag is about. The first half (the correct agent) is scenarios.mutationMatrixDos.test.ts.
import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import { onlyAttack } from './support/dosRuns.ts';
import { DOS_MATRIX, dosScenarios as all, reasons, runDos, verdicts } from './support/dosMatrix.ts';

const twoAtOnce = pLimit(2);

describe('DoS mutation matrix (smoke profile): each flag fails its scenario', () => {
  // The gates on the legitimate traffic itself (errors, drops, recovery), not only the attack's own
  // checks: answers of 30 a's against ^(a+)+$ on the backtracking engine hold the agent's event loop
  // for seconds each (2^30 steps; with 28 a's a quiet box drained the backlog before the last burst
  // ended, and recovery passed: docs/testing.md), so round trips time out during the attack (errors), pile
  // up past a small in-flight bound (drops) and are still failing after it (no recovery).
  it(
    "--agent-fault backtracking-patterns, at 30 a's: the legitimate errors, drops and recovery gates fail",
    { timeout: 180_000 },
    async () => {
      const result = await runDos(['dos-payloads'], ['backtracking-patterns'], {
        'dos-payloads': {
          maxInFlight: 8,
          legitTimeoutMs: 2_000,
          // One burst that starts for 1 s (5 answers, tens of seconds of held event loop, whatever the
          // box's speed): the legitimate traffic times out and piles up during it, and is still
          // failing when recovery is measured after it.
          attackMs: 1_000,
          attackBursts: 1,
          attacks: { 'pattern-backtracking': { rate: 5, max: 10, repeat: 30 } },
        },
      });
      const failed = result.scenarios[0]!.checks.filter((c) => !c.ok).map((c) => c.name);
      for (const gate of [/^legitimate errors ≤/, /^legitimate drops ≤/, /^legitimate traffic recovers within/]) {
        expect(
          failed.some((name) => gate.test(name)),
          `${gate} among the failed checks:\n${failed.join('\n')}\n${reasons(result)}`,
        ).toBe(true);
      }
    },
  );

  // Two rows at a time: each judges a failing verdict on the attack's own check, which a busy box
  // cannot turn green (the attack-tax gates on the correct agent run alone: vitest.config.ts).
  for (const [fault, { scenario, attack }] of Object.entries(DOS_MATRIX)) {
    it.concurrent(
      `--agent-fault ${fault} fails ${scenario}, on ${attack}'s own check`,
      { timeout: 180_000 },
      async () => {
        const only = onlyAttack(
          all.find((s) => s.name === scenario)!,
          attack,
        );
        // One burst: the attack's own check needs the attack once; the three bursts and their
        // controls are there for the tax's paired comparison, which these rows do not judge.
        const result = await twoAtOnce(() => runDos([scenario], [fault], { [scenario]: { ...only, attackBursts: 1 } }));
        expect(verdicts(result)[scenario], reasons(result)).toBe('failed');
        const failed = result.scenarios
          .find((s) => s.name === scenario)!
          .checks.filter((c) => !c.ok)
          .map((c) => `${c.name}: ${c.detail ?? ''}`);
        expect(
          failed.some((c) => c.startsWith(`${attack}:`) && !c.startsWith(`${attack}: attack tax`)),
          `failed checks:\n${failed.join('\n')}`,
        ).toBe(true);
      },
    );
  }
});
