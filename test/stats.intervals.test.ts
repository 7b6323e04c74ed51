import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';
import { changeOutcome } from '../rig/stats/changeOutcome.ts';
import { judgeAgainstBound, quantileInterval, quantileRanks, samplesToBound } from '../rig/stats/quantileInterval.ts';
import { mulberry32 } from '../rig/stats/random.ts';
import { ratioInterval } from '../rig/stats/ratioInterval.ts';
import { sampleOf } from '../rig/stats/sampleSet.ts';

const draws = (seed: number, n: number, scale: number, shift = 0) => {
  const random = mulberry32(seed);
  // log-normal-ish latencies: a long right tail, as loopback round trips have
  return Array.from({ length: n }, () => shift + scale * Math.exp(0.5 * (random() + random() + random() - 1.5)));
};

describe('quantile intervals from order statistics', () => {
  it('brackets the median of 20 values with the textbook ranks (6th and 15th)', () => {
    expect(quantileRanks(20, 0.5)).toEqual({ l: 6, u: 15 });
  });

  it('cannot bound p99 from above with 100 values, and can with 400 (368 is the least)', () => {
    const few = quantileInterval(sampleOf(draws(1, 100, 1000)), 0.99);
    expect(few.hi).toBeNull();
    expect(few.lo).not.toBeNull();
    const many = quantileInterval(sampleOf(draws(2, 400, 1000)), 0.99);
    expect(many.hi).not.toBeNull();
    expect(samplesToBound(0.99)).toBe(368);
    expect(samplesToBound(0.95)).toBe(72);
    expect(samplesToBound(0.5)).toBe(6);
  });

  it('the normal approximation above 2000 values agrees with the exact ranks at 2000 to a rank or two', () => {
    const exact = quantileRanks(2000, 0.95);
    const approx = quantileRanks(2001, 0.95);
    expect(Math.abs(exact.l - approx.l)).toBeLessThanOrEqual(2);
    expect(Math.abs(exact.u - approx.u)).toBeLessThanOrEqual(2);
  });

  it('judges a bound only when the whole interval is on one side of it', () => {
    const s = sampleOf(draws(3, 400, 1000));
    const p99 = quantileInterval(s, 0.99);
    expect(judgeAgainstBound(p99, '<', p99.hi! + 1)).toBe('holds');
    expect(judgeAgainstBound(p99, '<', p99.lo!)).toBe('broken');
    expect(judgeAgainstBound(p99, '<', p99.estimate)).toBe('not judged');
    expect(judgeAgainstBound(quantileInterval(sampleOf(draws(4, 20, 1000)), 0.99), '<', 1e9)).toBe('not judged');
  });
});

describe('ratio intervals by bootstrap', () => {
  it('a doubling is a regression at +20 %, an identical sample is no change', () => {
    const base = [sampleOf(draws(5, 200, 1000))];
    const doubled = [sampleOf(draws(6, 200, 2000))];
    const same = [sampleOf(draws(7, 200, 1000))];
    const up = ratioInterval(base, doubled, 'p50');
    expect(up.lo).toBeGreaterThan(1.2);
    expect(changeOutcome(up, { fraction: 0.2, worse: 'higher' })).toBe('regression');
    const flat = ratioInterval(base, same, 'p50');
    expect(changeOutcome(flat, { fraction: 0.2, worse: 'higher' })).toBe('no change');
    expect(changeOutcome(ratioInterval(doubled, base, 'p50'), { fraction: 0.2, worse: 'higher' })).toBe('improvement');
  });

  it('is deterministic for a seed and reads HDR histograms the way their percentiles do', () => {
    const h = new LatencyHistogram();
    for (const v of draws(8, 500, 1500)) h.recordMicros(v);
    const s = h.sample();
    expect(s.n).toBe(500);
    const p95 = quantileInterval(s, 0.95).estimate;
    expect(p95).toBe(h.percentileUs(95));
    const a = ratioInterval([s], [s], 'p95', { seed: 9 });
    const b = ratioInterval([s], [s], 'p95', { seed: 9 });
    expect(a).toEqual(b);
  });

  it('runs that disagree with each other widen the interval: a run-to-run swing is not read as a change', () => {
    // Three baseline runs and three current runs of the same agent, each run shifted by its own
    // machine state (×0.7..×1.4): within one run the values agree, between runs they do not.
    const shifts = [0.7, 1.0, 1.4];
    const base = shifts.map((k, i) => sampleOf(draws(10 + i, 100, 1000 * k)));
    const cur = [1.4, 0.7, 1.0].map((k, i) => sampleOf(draws(20 + i, 100, 1000 * k)));
    const pooledOnly = ratioInterval([base[0]!], [cur[0]!], 'p50');
    expect(changeOutcome(pooledOnly, { fraction: 0.2, worse: 'higher' })).toBe('regression');
    const hierarchical = ratioInterval(base, cur, 'p50');
    expect(hierarchical.method).toBe('runs and values');
    expect(changeOutcome(hierarchical, { fraction: 0.2, worse: 'higher' })).toBe('inconclusive');
  });

  it('paired rounds cancel what hit both sides alike in a round', () => {
    const shifts = [0.7, 1.0, 1.4, 0.8, 1.2, 0.9];
    const base = shifts.map((k, i) => sampleOf(draws(30 + i, 60, 1000 * k)));
    const cur = shifts.map((k, i) => sampleOf(draws(40 + i, 60, 1300 * k)));
    const unpaired = ratioInterval(base, cur, 'p50');
    const paired = ratioInterval(base, cur, 'p50', { paired: true });
    expect(paired.method).toBe('paired runs and values');
    expect(paired.hi - paired.lo).toBeLessThan(unpaired.hi - unpaired.lo);
    expect(changeOutcome(paired, { fraction: 0.1, worse: 'higher' })).toBe('regression');
  });
});

describe('change outcomes', () => {
  const t = { fraction: 0.2, worse: 'higher' as const };
  it('straddling the threshold is inconclusive, never no change', () => {
    expect(changeOutcome({ lo: 1.1, hi: 1.3 }, t)).toBe('inconclusive');
    expect(changeOutcome({ lo: 0.7, hi: 1.1 }, t)).toBe('inconclusive');
    expect(changeOutcome({ lo: Number.NaN, hi: 2 }, t)).toBe('inconclusive');
  });
  it('throughput gets worse downwards', () => {
    expect(changeOutcome({ lo: 0.5, hi: 0.7 }, { fraction: 0.1, worse: 'lower' })).toBe('regression');
    expect(changeOutcome({ lo: 1.2, hi: 1.5 }, { fraction: 0.1, worse: 'lower' })).toBe('improvement');
  });
});
