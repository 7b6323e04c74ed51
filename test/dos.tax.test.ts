// The attack tax (rig/engine/dos/dosVerdicts.ts judgeTax) on synthetic windows: a neighbour that slows
// the machine only while the attack windows run fails the old rule (p99 during / p99 before) but
// not the interleaved one, since the control windows beside each burst are slowed alike; a real
// tax fails; one that straddles the bound is not judged. Deterministic: seeded samples and bootstrap.
import { describe, expect, it } from 'vitest';
import { judgeTax, percentile, taxBoundMs, taxStatistic, type TaxWindow } from '../rig/engine/dos/dosVerdicts.ts';
import { mulberry32 } from '../rig/stats/random.ts';

const random = mulberry32(23);
/** n round trips of about `ms` (uniform ±40 %). */
const around = (ms: number, n: number) => Array.from({ length: n }, () => ms * (0.6 + 0.8 * random()));
/** Bursts at the given factors over controls of about `ms`: `n` round trips each side per burst. */
const windows = (ms: number, factors: number[], n = 20): TaxWindow[] =>
  factors.map((k) => ({ burst: around(ms * k, n), control: around(ms, n) }));
const smoke = { maxTax: 2, taxFloorMs: 250 };

describe('attack tax over interleaved bursts', () => {
  it('the statistic is the highest percentile both sides carry, three samples beyond it', () => {
    expect(taxStatistic(300, 300)).toBe('p99');
    expect(taxStatistic(300, 299)).toBe('p90');
    expect(taxStatistic(30, 500)).toBe('p90');
    expect(taxStatistic(29, 29)).toBe('p50');
    expect(taxStatistic(6, 6)).toBe('p50');
    expect(taxStatistic(5, 100)).toBeUndefined();
  });

  it('a neighbour busy only while the attack runs fails the old rule, not the interleaved one', () => {
    // Before: ~110 ms. Then a neighbour takes the CPU for the whole attack stretch: ×3.6 on every
    // round trip, whether an attack burst or a control window is running (a harmless attack).
    const before = around(110, 30);
    const slowed = windows(110 * 3.6, [1, 1, 1]);
    const during = slowed.flatMap((w) => w.burst);
    const oldBound = taxBoundMs(percentile(before, 99)!, smoke);
    expect(percentile(during, 99)!).toBeGreaterThan(oldBound);
    const tax = judgeTax(slowed, smoke);
    expect(tax.outcome).toBe('passed');
    expect(tax.hi!).toBeLessThanOrEqual(tax.threshold!);
  });

  it('a real tax (×10 in every burst) fails: the whole interval is above the bound', () => {
    const tax = judgeTax(windows(100, [10, 10, 10]), smoke);
    expect(tax.outcome).toBe('failed');
    expect(tax.stat).toBe('p90');
    expect(tax.lo!).toBeGreaterThan(tax.threshold!);
    expect(tax.detail).toMatch(
      /^tax ×\d+\.\d+ \[\d+\.\d+, \d+\.\d+\] \(p90 over 3 bursts, n=60\/60; bound ×\d+\.\d+\)$/,
    );
  });

  it('a tax that straddles the bound across bursts is not judged, and says why', () => {
    const tax = judgeTax(windows(100, [1.2, 2.2, 3.4]), { maxTax: 2, taxFloorMs: 0 });
    expect(tax.outcome).toBe('not judged');
    expect(tax.lo!).toBeLessThanOrEqual(tax.threshold!);
    expect(tax.hi!).toBeGreaterThan(tax.threshold!);
  });

  it('the bound as a ratio is the floor over a fast control: 1 + taxFloorMs / stat(controls)', () => {
    const w = windows(10, [1, 1, 1]);
    const tax = judgeTax(w, smoke);
    expect(tax.threshold!).toBe(
      1 +
        250 /
          percentile(
            w.flatMap((x) => x.control),
            90,
          )!,
    );
    expect(tax.threshold!).toBeGreaterThan(2);
    expect(tax.outcome).toBe('passed');
  });

  it('too few round trips, or a burst with none, is not judged with the sample sizes', () => {
    const tax = judgeTax(
      [
        { burst: [5, 6], control: [5, 6, 7] },
        { burst: [], control: [5] },
      ],
      smoke,
    );
    expect(tax.outcome).toBe('not judged');
    expect(tax.bursts).toBe(1);
    expect(tax.detail).toContain('n=2/3');
  });

  it('is deterministic for a seed', () => {
    const w = windows(50, [1.5, 2, 2.5]);
    expect(judgeTax(w, smoke, 7)).toEqual(judgeTax(w, smoke, 7));
  });
});
