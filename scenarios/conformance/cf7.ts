// CF-7: end-to-end harness round-trip (AC-7): the conformance harness, run against the agent with
// this extension URI, reports a green run for all of CF-1..CF-6.
import { defineScenario, everyProfile } from 'a2a-rig';

const SUITE = ['cf1', 'cf2', 'cf3', 'cf4', 'cf5', 'cf6'];

export default defineScenario({
  name: 'cf7',
  description: 'CF-7 the whole conformance suite CF-1..CF-6 is green',
  tags: ['conformance', 'hitl'],
  needs: { extension: true },
  requires: SUITE,
  params: everyProfile({}),
  budgetMs: everyProfile(1_000),
  records: { latencies: [], counters: {} },
  catches: ['skip-validation'],
  async run(ctx) {
    for (const name of SUITE) {
      const verdict = ctx.verdictOf(name);
      // Not judged (e.g. the agent refused the rig's credentials) says nothing of the agent either way.
      if (verdict === 'inconclusive') ctx.notJudged(`${name} passed`, `${name} was not judged`);
      else ctx.check(`${name} passed`, verdict === 'passed', verdict ?? 'did not run');
    }
  },
});
