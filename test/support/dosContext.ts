// A ScenarioContext stand-in for judging a DoS run (rig/engine/dosJudge.ts) in a unit test: it keeps
// the checks (not-judged ones with judged: false) and notes, and throws Skipped where ctx.skip would
// end the scenario.
import type { CheckResult } from '../../rig/results/runResult.ts';

export class Skipped extends Error {}

export function fakeDosContext() {
  const checks: CheckResult[] = [];
  const notes: string[] = [];
  return {
    checks,
    notes,
    check: (name: string, ok: boolean, detail?: string) => (checks.push({ name, ok, detail }), ok),
    notJudged: (name: string, detail: string) => {
      checks.push({ name, ok: false, judged: false, detail });
      notes.push(`${name}: not judged: ${detail}`);
    },
    note: (line: string) => void notes.push(line),
    skip: (reason: string): never => {
      throw new Skipped(reason);
    },
    count: () => {},
    log: () => {},
    latency: () => ({ recordMs: () => {} }),
  };
}
