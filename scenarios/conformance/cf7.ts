// CF-7: end-to-end harness round-trip (AC-7): the conformance harness, run against the agent with
// this extension URI, reports a green run for all of CF-1..CF-6. It fails only on a member that failed.
import { defineScenario, everyProfile } from 'a2a-rig';

const SUITE = ['cf1', 'cf2', 'cf3', 'cf4', 'cf5', 'cf6'];

export default defineScenario({
  name: 'cf7',
  description: 'CF-7 the whole conformance suite CF-1..CF-6 is green',
  tags: ['conformance', 'hitl'],
  needs: { hitlPrompt: true },
  requires: SUITE,
  params: everyProfile({}),
  budgetMs: everyProfile(1_000),
  records: { latencies: [], counters: {} },
  catches: ['skip-validation'],
  async run(ctx) {
    // Only a verdict on the agent counts: a member that errored, skipped or did not run judged
    // nothing (the rig could not reach the agent, say), so it neither passes nor fails CF-7.
    const unjudged: string[] = [];
    let failed = false;
    for (const name of SUITE) {
      const verdict = ctx.verdictOf(name);
      if (verdict === 'passed' || verdict === 'failed') {
        ctx.check(`${name} passed`, verdict === 'passed', verdict);
        failed ||= verdict === 'failed';
      } else if (verdict === 'inconclusive') {
        // Not judged (e.g. the agent refused the rig's credentials) says nothing of the agent either way.
        ctx.notJudged(`${name} passed`, `${name} was not judged`);
      } else unjudged.push(`${name} ${verdict ?? 'did not run'}`);
    }
    if (unjudged.length === 0) return;
    const what = `not judged: ${unjudged.join(', ')}`;
    if (failed) ctx.note(`CF-7 fails on the members judged; ${what}`);
    else throw new Error(`CF-7 ${what}, so the suite has no verdict on the agent`);
  },
});
