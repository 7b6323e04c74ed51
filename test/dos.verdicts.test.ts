// The DoS gates (rig/engine/dos/dosVerdicts.ts) on hand-made samples and outcomes: exact values, so a
// changed definition (the tax floor, the recovery window, what counts as shed) fails here.
import { describe, expect, it } from 'vitest';
import type { AttackOutcome } from '../rig/attack/attackTypes.ts';
import type { LegitSample } from '../rig/engine/dos/attackRun.ts';
import {
  attackVerdicts,
  droppedPct,
  errorPct,
  percentile,
  phaseStats,
  recoveryMs,
  taxBoundMs,
  type GateParams,
} from '../rig/engine/dos/dosVerdicts.ts';
import { GATE_DEFAULTS } from '../rig/engine/dos/dosParams.ts';

const gates: GateParams = { ...GATE_DEFAULTS, maxRefusalP99Ms: 100, maxCutMs: 16_000, minShed: 1, maxShedMs: 500 };
const ok = (intendedAt: number, latencyMs: number, phase: LegitSample['phase'] = 'after'): LegitSample => ({
  intendedAt,
  phase,
  outcome: 'ok',
  latencyMs,
});
const out = (kind: AttackOutcome['kind'], latencyMs = 5, status?: number): AttackOutcome => ({
  startedAt: 0,
  latencyMs,
  kind,
  ...(status ? { status } : {}),
});
const byName = (vs: ReturnType<typeof attackVerdicts>) =>
  Object.fromEntries(vs.map((v) => [v.name.split(':')[1]!.trim().split(' ')[0]!, v.ok]));

describe('DoS gates', () => {
  it('percentile is nearest-rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 99)).toBeUndefined();
  });

  it('the tax bound is the larger of maxTax × baseline and baseline + the floor', () => {
    expect(taxBoundMs(2, { maxTax: 2, taxFloorMs: 50 })).toBe(52);
    expect(taxBoundMs(100, { maxTax: 2, taxFloorMs: 50 })).toBe(200);
    expect(taxBoundMs(100, { maxTax: 3, taxFloorMs: 50 })).toBe(300);
  });

  it('phase stats count every outcome; errors are failed + unfinished, drops apart', () => {
    const samples: LegitSample[] = [
      ok(0, 10, 'before'),
      ok(1, 30, 'before'),
      { intendedAt: 2, phase: 'before', outcome: 'failed', failure: 'timeout: x' },
      { intendedAt: 3, phase: 'before', outcome: 'unfinished' },
      { intendedAt: 4, phase: 'before', outcome: 'dropped' },
      ok(5, 99, 'during'),
    ];
    const s = phaseStats(samples, 'before');
    expect(s).toMatchObject({
      arrivals: 5,
      ok: 2,
      failed: 1,
      unfinished: 1,
      dropped: 1,
      p99Ms: 30,
      firstFailure: 'timeout: x',
    });
    expect(errorPct(s)).toBe(40);
    expect(droppedPct(s)).toBe(20);
  });

  it('recovery is the start of the first window after the stop with every arrival ok and p99 within the bound', () => {
    const stop = 1_000;
    const samples = [
      ok(1_100, 500), // window 0: too slow
      ok(1_600, 10),
      { intendedAt: 2_200, phase: 'after', outcome: 'failed' } as LegitSample, // window 1: an error
      ok(2_500, 10),
      ok(3_100, 10), // window 2: healthy
      ok(3_900, 20),
    ];
    expect(recoveryMs(samples, stop, 4_000, 1_000, 50)).toBe(2_000);
    // A bound nothing meets: never.
    expect(recoveryMs(samples, stop, 4_000, 1_000, 5)).toBeUndefined();
    // A window that ends past the last arrival is not judged.
    expect(recoveryMs(samples, stop, 3_500, 1_000, 50)).toBeUndefined();
    // An empty window is neither healthy nor unhealthy.
    expect(recoveryMs([ok(2_100, 1)], stop, 4_000, 1_000, 50)).toBe(1_000);
  });

  it('request attacks: refused fast passes; a 5xx, an accepted or a held request, or a slow refusal fails', () => {
    expect(
      attackVerdicts('malformed-json', [out('refused'), out('rate-limited'), out('cut')], gates).every((v) => v.ok),
    ).toBe(true);
    expect(
      byName(attackVerdicts('malformed-json', [out('refused'), out('server-error', 5, 500)], gates)),
    ).toMatchObject({ no: false });
    expect(byName(attackVerdicts('duplicate-answers', [out('refused'), out('accepted', 5, 200)], gates))).toMatchObject(
      { every: false },
    );
    expect(byName(attackVerdicts('deep-answer', [out('refused'), out('held', 3_000)], gates))).toMatchObject({
      every: false,
    });
    expect(
      byName(attackVerdicts('pattern-backtracking', [out('refused', 5), out('refused', 2_000)], gates)),
    ).toMatchObject({ refusal: false });
    // Not even connected proves nothing: the agent may be down.
    expect(byName(attackVerdicts('bad-utf8', [out('refused'), out('connect-failed')], gates))).toMatchObject({
      every: false,
    });
    // Nothing at all is not a pass.
    expect(attackVerdicts('unknown-prompt', [], gates).filter((v) => !v.ok).length).toBeGreaterThan(0);
  });

  it('oversized answers and huge headers must be refused at the HTTP level, not with a JSON-RPC reply', () => {
    expect(attackVerdicts('oversized-answer', [out('refused', 5, 413), out('cut')], gates).every((v) => v.ok)).toBe(
      true,
    );
    const read = attackVerdicts('huge-headers', [out('refused', 5, 431), out('refused', 5, 200)], gates);
    expect(read.find((v) => v.name.includes('before the whole request is sent'))!.ok).toBe(false);
    const wholeBody = attackVerdicts(
      'oversized-answer',
      [out('refused', 5, 413), { ...out('refused', 5, 413), beforeBodyEnd: false }],
      gates,
    );
    expect(wholeBody.find((v) => v.name.includes('before the whole request is sent'))!.ok).toBe(false);
  });

  it('slow attacks: cut within maxCutMs passes; held, or cut later, fails', () => {
    expect(attackVerdicts('slowloris', [out('cut', 5_100), out('cut', 15_200)], gates).every((v) => v.ok)).toBe(true);
    expect(
      attackVerdicts('slowloris', [out('cut', 5_100), out('cut', 17_000)], gates).find((v) =>
        v.name.includes('cut within'),
      )!.ok,
    ).toBe(false);
    expect(
      attackVerdicts('slow-body', [out('cut', 5_100), out('held', 25_000)], gates).filter((v) => !v.ok).length,
    ).toBe(2);
  });

  it('holding attacks: some shed within maxShedMs passes; all held, or cut only by a later timeout, fails', () => {
    const held = Array.from({ length: 10 }, () => out('held', 3_000));
    expect(attackVerdicts('idle-connections', [...held, out('cut', 2)], gates).every((v) => v.ok)).toBe(true);
    expect(attackVerdicts('idle-connections', held, gates).every((v) => v.ok)).toBe(false);
    expect(attackVerdicts('unread-streams', [...held, out('cut', 5_000)], gates).every((v) => v.ok)).toBe(false);
    expect(
      attackVerdicts('unread-replay', [out('refused', 3), out('accepted', 3, 200)], gates).every((v) => v.ok),
    ).toBe(false);
    // A refusal is the bound at work whenever it comes (a loaded box delays it): shed; a cut is shed only at once.
    const late = [...held, out('refused', 2_000)];
    expect(attackVerdicts('unread-streams', late, gates).every((v) => v.ok)).toBe(true);
    expect(attackVerdicts('unread-streams', [...held, out('rate-limited', 2_000)], gates).every((v) => v.ok)).toBe(
      true,
    );
    expect(attackVerdicts('unread-streams', late, gates)[1].detail).toMatch(/^1 shed at once, 0 cut later, 10 held/);
    // A connection reset during the handshake by an agent at its bound is shed.
    expect(attackVerdicts('idle-connections', [...held, out('connect-failed', 1)], gates).every((v) => v.ok)).toBe(
      true,
    );
  });
});
