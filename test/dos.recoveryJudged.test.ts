// The DoS recovery check on synthetic runs (rig/engine/dos/dosJudge.ts): a window's p99 is its slowest
// round trip, so a busy machine's scheduling delays, one per window, once failed a correct agent
// that had recovered. Now such a run is not judged, while an agent that stays slow or keeps failing
// after the attack still fails.
import { describe, expect, it } from 'vitest';
import type { LegitSample, MixedRunResult } from '../rig/engine/dos/attackRun.ts';
import { LOAD_MAY_LEAVE_UNJUDGED, judgeDosRun } from '../rig/engine/dos/dosJudge.ts';
import { GATE_DEFAULTS, LEGIT_DEFAULTS, type DosParams } from '../rig/engine/dos/dosParams.ts';
import { fakeDosContext } from './support/dosContext.ts';

const STOP = 3_000;
const params = { ...GATE_DEFAULTS, ...LEGIT_DEFAULTS, maxRecoveryS: 2 } as DosParams;

/** 10 round trips a second: 1.5 s before, 1.5 s during, 3 s after; `after(i)` sets the i-th after it. */
function run(after: (i: number) => Partial<LegitSample>): MixedRunResult {
  const samples: LegitSample[] = [];
  for (let t = 0; t < 6_000; t += 100) {
    const phase = t < 1_500 ? 'before' : t < STOP ? 'during' : 'after';
    const base = { phase, intendedAt: t, outcome: 'ok', latencyMs: 10 + (t % 300) / 100 } as LegitSample;
    samples.push(phase === 'after' ? { ...base, ...after((t - STOP) / 100) } : base);
  }
  const refused = { kind: 'refused', latencyMs: 5, startedAt: 1_600 } as const;
  return {
    attackStartAt: 1_500,
    attackStopAt: STOP,
    endAt: 6_000,
    samples,
    attacks: [{ name: 'unknown-prompt', outcomes: [refused], bursts: [] }],
    aborted: false,
  } as unknown as MixedRunResult;
}

function recovery(r: MixedRunResult) {
  const ctx = fakeDosContext();
  judgeDosRun(ctx as never, r, params, undefined);
  const check = ctx.checks.find((c) => c.name.startsWith('legitimate traffic recovers within'))!;
  return { ok: check.ok, judged: check.judged !== false, detail: check.detail };
}

describe('the DoS recovery check', () => {
  it('passes when the first window after the stop is all ok and within the bound', () => {
    expect(recovery(run(() => ({})))).toMatchObject({ ok: true, judged: true });
  });

  it('is not judged, not failed, when one delay per window is all that kept each window over', () => {
    // One round trip in ten 400 ms (a neighbour's CPU), the rest as before the attack.
    const got = recovery(run((i) => (i % 10 === 3 ? { latencyMs: 400 } : {})));
    expect(got, got.detail).toMatchObject({ ok: false, judged: false });
    expect(got.detail).toMatch(/^never within the 3 s after the attack, but all \d+ round trips in time succeeded/);
  });

  it('fails when the round trips after the attack stay slow', () => {
    const got = recovery(run(() => ({ latencyMs: 300 })));
    expect(got, got.detail).toMatchObject({ ok: false, judged: true });
    expect(got.detail).toMatch(/after it ÷ before it: tax ×/);
  });

  it('fails when round trips after the attack fail', () => {
    const got = recovery(run((i) => (i % 10 === 3 ? { outcome: 'failed', latencyMs: undefined } : {})));
    expect(got, got.detail).toMatchObject({ ok: false, judged: true });
    expect(got.detail).toMatch(/; 27 of 30 round trips ok in time$/);
  });
});

describe('LOAD_MAY_LEAVE_UNJUDGED', () => {
  it('names every attack tax (bad-utf8 has a digit) and the recovery, nothing else', () => {
    const tax = ': attack tax — legitimate round-trip p50 in its bursts ÷ in the control windows beside them';
    for (const attack of ['bad-utf8', 'duplicate-answers', 'slowloris'])
      expect(LOAD_MAY_LEAVE_UNJUDGED.test(attack + tax), attack).toBe(true);
    expect(LOAD_MAY_LEAVE_UNJUDGED.test("legitimate traffic recovers within 2 s of the attack's end")).toBe(true);
    expect(LOAD_MAY_LEAVE_UNJUDGED.test('bad-utf8: the attack ran')).toBe(false);
  });
});
