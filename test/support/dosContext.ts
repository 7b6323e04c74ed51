// A ScenarioContext stand-in for judging a DoS run (rig/engine/dos/dosJudge.ts) in a unit test: it keeps
// the checks (not-judged ones with judged: false) and notes, and throws Skipped where ctx.skip would
// end the scenario. And an attack target nothing listens on, for runs whose attack is a fake.
import type { AttackTarget } from '../../rig/attack/attackTypes.ts';
import type { CheckResult } from '../../rig/results/runResult.ts';

/** Port 1 on loopback: a fake attack never connects, and a real one would be refused at once. */
export const NOWHERE_TARGET: AttackTarget = {
  baseUrl: new URL('http://127.0.0.1:1'),
  endpoint: new URL('http://127.0.0.1:1/'),
  binding: 'JSONRPC',
  generation: '1.0',
  sourceAddress: '127.0.0.2',
  headers: {},
};

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
