// N workers' shares of one schedule are disjoint and add up to it, each spread over the whole step.
import { describe, expect, it } from 'vitest';
import { constantArrivals, steppedArrivals } from '../rig/load/arrivalSchedule.ts';
import { shareOfArrivals } from '../rig/load/shardedArrivals.ts';

describe('shareOfArrivals', () => {
  it('splits a schedule into N disjoint shares whose union is the schedule', () => {
    const whole = [
      ...steppedArrivals([
        { ratePerSec: 30, durationMs: 1000 },
        { ratePerSec: 45, durationMs: 1000 },
      ]),
    ];
    const shares = [0, 1, 2].map((index) => [...shareOfArrivals(whole, { index, count: 3 })]);
    expect(shares.map((s) => s.length)).toEqual([25, 25, 25]);
    const union = shares.flat().sort((a, b) => a.atMs - b.atMs);
    expect(union).toEqual(whole);
  });

  it('gives each worker rate/N over the whole step, not a time slice', () => {
    const share = [...shareOfArrivals(constantArrivals(40, 2000), { index: 1, count: 4 })];
    expect(share).toHaveLength(20);
    expect(share[0]!.atMs).toBe(25);
    expect(share.at(-1)!.atMs).toBe(1925);
    const gaps = share.slice(1).map((a, k) => a.atMs - share[k]!.atMs);
    expect(new Set(gaps.map((g) => g.toFixed(6)))).toEqual(new Set(['100.000000']));
  });

  it('with one worker is the schedule itself; a worker outside 0..N-1 is refused', () => {
    expect([...shareOfArrivals(constantArrivals(5, 1000), { index: 0, count: 1 })]).toEqual([
      ...constantArrivals(5, 1000),
    ]);
    expect(() => [...shareOfArrivals(constantArrivals(5, 1000), { index: 3, count: 3 })]).toThrow(/0..2/);
    expect(() => [...shareOfArrivals(constantArrivals(5, 1000), { index: 0, count: 0 })]).toThrow(/worker i of N/);
  });
});
