// The DoS scenarios (scenarios/dos/) against the correct Python peers of test/peers/python (official
// a2a-sdk 1.3.0 and 0.3.26, their DoS guards in their own HTTP layer): each must pass every family
// it can be judged on, and each check that a guard-removing flag fails (test/foreignPeers.dosFaults)
// must be here and hold, so a pass rests on measurements, not on skips. The overrides and the short
// phases are in test/support/peerDosRuns.ts.
//
// These runs judge attack-tax gates: each attack's bursts against the control windows beside them,
// with a 95 % interval, so a neighbour's load slows both sides alike and can leave a tax not judged
// but not failed (docs/testing.md). The file runs in the main pool beside others; its runs go one at
// a time, each peer's loop then has a core to keep up with its flood.
import { afterAll, describe, expect, it } from 'vitest';
import { LOAD_MAY_LEAVE_UNJUDGED } from '../rig/engine/dos/dosJudge.ts';
import { checkNotJudged } from '../rig/results/runResult.ts';
import { BROKEN, PASSING, SDKS, explain, missing, peerDosRunner, scenario } from './support/peerDosRuns.ts';

const { rigAgainstPeer, close } = peerDosRunner(1);
afterAll(close);

describe('the DoS scenarios against the correct a2a-sdk Python peers, one at a time', () => {
  for (const sdk of SDKS)
    for (const families of PASSING[sdk]) {
      it.skipIf(missing[sdk])(
        `${sdk} correct peer: ${families.join(', ')} pass, each guarantee its flags break judged and kept`,
        { timeout: 240_000 },
        async () => {
          const { run, results } = await rigAgainstPeer(sdk, `correct-${families.join('+')}`, [], families);
          // Passed, or a tax or the recovery not judged (a busy machine: LOAD_MAY_LEAVE_UNJUDGED):
          // never failed, and no other check left unjudged.
          const seen = results.scenarios.map((s) => [s.name, s.verdict === 'inconclusive' ? 'passed' : s.verdict]);
          expect(seen.sort(), explain(results)).toEqual(families.map((f) => [f, 'passed']).sort());
          const notJudged = results.scenarios.flatMap((s) => s.checks.filter(checkNotJudged).map((c) => c.name));
          expect(
            notJudged.filter((n) => !LOAD_MAY_LEAVE_UNJUDGED.test(n)),
            explain(results),
          ).toEqual([]);
          // Passed on a measurement, not on a skip: each check a broken variant fails is here, and held.
          for (const v of BROKEN.filter((b) => families.includes(b.family))) {
            const checks = scenario(results, v.family).checks.filter((c) => v.check.test(c.name));
            expect(checks.length, `${v.family} judged ${v.check}\n${explain(results)}`).toBeGreaterThan(0);
            expect(
              checks.filter((c) => !c.ok),
              explain(results),
            ).toEqual([]);
          }
          // The payloads family judges oversized and deep answers only: the peer's prompts carry no
          // `pattern`, so pattern-backtracking has nothing to aim at and says so (not a pass).
          if (families.includes('dos-payloads'))
            expect(scenario(results, 'dos-payloads').notes?.join('\n')).toMatch(
              /pattern-backtracking: no hostile request was made/,
            );
          expect(run.code, run.stderr).toBe(notJudged.length > 0 ? 3 : 0);
        },
      );
    }
});
