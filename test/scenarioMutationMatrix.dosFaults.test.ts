// The DoS mutation matrix (issue 14), second half: each DoS scenario fails against the agent fault
// flag that removes the mitigation it verifies, and the failed check is the attack's own (the broken
// guarantee named), not only the legitimate traffic's tax under it. A row runs only the attack its
// flag is about. The first half (the correct agent) is scenarioMutationMatrix.dos.test.ts.
import { describe, expect, it } from 'vitest';
import { onlyAttack } from './support/dosRuns.ts';
import { DOS_MATRIX, dosScenarios as all, reasons, runDos, verdicts } from './support/dosMatrix.ts';

describe('DoS mutation matrix (smoke profile): each flag fails its scenario', () => {
  for (const [fault, { scenario, attack }] of Object.entries(DOS_MATRIX)) {
    it(`--agent-fault ${fault} fails ${scenario}, on ${attack}'s own check`, { timeout: 180_000 }, async () => {
      const result = await runDos([scenario], [fault], { [scenario]: onlyAttack(all.find((s) => s.name === scenario)!, attack) });
      expect(verdicts(result)[scenario], reasons(result)).toBe('failed');
      const failed = result.scenarios.find((s) => s.name === scenario)!.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail ?? ''}`);
      expect(failed.some((c) => c.startsWith(`${attack}:`) && !c.startsWith(`${attack}: attack tax`)), `failed checks:\n${failed.join('\n')}`).toBe(true);
    });
  }
});
