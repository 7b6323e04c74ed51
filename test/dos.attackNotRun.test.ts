// An attack that threw (the rig could not run it: a precondition of its own, an fd budget) says
// nothing of the agent: its "ran" check is not judged, never failed, and with no other attack
// judged the scenario is skipped saying why (issue 24, item 4: the dos-* FAILED "attacks speak
// plain http: to a loopback agent only" against an https: agent).
import { describe, expect, it } from 'vitest';
import type { MixedRunResult } from '../rig/engine/dos/attackRun.ts';
import { judgeDosRun } from '../rig/engine/dos/dosJudge.ts';
import type { DosParams } from '../rig/engine/dos/dosParams.ts';
import { Skipped, fakeDosContext } from './support/dosContext.ts';

describe('an attack the rig could not run', () => {
  it('is not judged, and no other attack judged means the scenario is skipped, not failed', () => {
    const ctx = fakeDosContext();
    const run = {
      origin: 0,
      attackStartAt: 0,
      attackStopAt: 0,
      endAt: 0,
      samples: [],
      attacks: [
        {
          name: 'duplicate-answers',
          error: 'attacks speak plain http: to a loopback agent only',
          outcomes: [],
          bursts: [],
        },
      ],
      aborted: false,
    } as unknown as MixedRunResult;
    expect(() => judgeDosRun(ctx as never, run, {} as DosParams, undefined)).toThrow(Skipped);
    expect(ctx.checks).toEqual([
      {
        name: 'duplicate-answers: the attack ran',
        ok: false,
        judged: false,
        detail: 'the rig could not run it: attacks speak plain http: to a loopback agent only',
      },
    ]);
  });
});
