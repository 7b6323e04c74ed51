// A scenario during which the agent answered 401 or 403 to the rig tested the rig's credentials,
// not the agent's guarantees: whatever its checks said, it is not judged (inconclusive, exit 3),
// and its reason is the refusal, which names what the card's securitySchemes ask for
// (client/securitySchemes.ts). Every client of the run tells the watch (TargetAccess.onRefused).
import type { TransportError } from '../client/transportError.ts';
import type { ScenarioResult } from '../results/runResult.ts';

// A skip after a refusal is kept from blaming the agent too ("the agent did not start a task").
const UNTOUCHED: ReadonlySet<string> = new Set(['interrupted', 'not-run']);

export class RefusalWatch {
  private heard: string | undefined;

  /** Given to every client as `onRefused`. */
  readonly hear = (err: TransportError): void => {
    this.heard ??= err.message;
  };

  /** The scenario's result, not judged when a refusal was heard since the last scenario ended. */
  judge(result: ScenarioResult): ScenarioResult {
    const heard = this.heard;
    this.heard = undefined;
    if (heard === undefined || UNTOUCHED.has(result.verdict)) return result;
    const why = `not judged: ${heard}`;
    // A check that failed on the refusal says so; the agent's behaviour was never seen.
    const checks = result.checks.map((c) =>
      c.ok ? c : { ...c, judged: false as const, detail: `${why}${c.detail ? ` (it read: ${c.detail})` : ''}` },
    );
    const { stack: _stack, ...rest } = result;
    return { ...rest, checks, verdict: 'inconclusive', reason: why };
  }
}
