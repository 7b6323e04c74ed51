// The DoS scenarios (scenarios/dos/) against the correct Python peers of test/peers/python (official
// a2a-sdk 1.3.0 and 0.3.26, their DoS guards in their own HTTP layer): each must pass every family
// it can be judged on, and each check that a guard-removing flag fails (test/foreignPeers.dosFaults)
// must be here and hold, so a pass rests on measurements, not on skips. The overrides and the short
// phases are in test/support/peerDosRuns.ts.
//
// These runs judge attack-tax gates (now each attack's bursts against the control windows beside
// them; before issue 23, the legitimate round-trip p99 during an attack against the p99 before it,
// which another run's attack on the same two cores moved: beside the broken
// runs 3-7x; beside each other, in CI, duplicate-answers measured 94 ms before and 354 ms during
// against a 344 ms bound). So this file still runs with the machine to itself (vitest.config.ts) and its
// runs go one at a time.
import { afterAll, describe, expect, it } from 'vitest';
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
          // Passed, or a tax not judged (its interval straddling its bound): never failed, and no
          // other check left unjudged.
          const seen = results.scenarios.map((s) => [s.name, s.verdict === 'inconclusive' ? 'passed' : s.verdict]);
          expect(seen.sort(), explain(results)).toEqual(families.map((f) => [f, 'passed']).sort());
          const notJudged = results.scenarios.flatMap((s) => s.checks.filter(checkNotJudged).map((c) => c.name));
          expect(
            notJudged.filter((n) => !/^[a-z-]+: attack tax — /.test(n)),
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
