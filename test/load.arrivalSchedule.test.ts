// The open model's schedule math: evenly spaced arrivals, exact counts per step, steps laid end to
// end, and the geometric rate ladder the capacity search climbs.
import { describe, expect, it } from 'vitest';
import {
  constantArrivals,
  geometricRates,
  scheduleSize,
  stepArrivalCount,
  steppedArrivals,
} from '../rig/load/arrivalSchedule.ts';

describe('arrival schedule', () => {
  it('spaces a constant rate 1000/rate ms apart, from 0, inside the duration', () => {
    const arrivals = [...constantArrivals(200, 1000)];
    expect(arrivals).toHaveLength(200);
    expect(arrivals[0]).toEqual({ atMs: 0, step: 0 });
    expect(arrivals[1].atMs).toBeCloseTo(5, 9);
    expect(arrivals.at(-1)!.atMs).toBeCloseTo(995, 9);
    for (let i = 1; i < arrivals.length; i++) expect(arrivals[i].atMs - arrivals[i - 1].atMs).toBeCloseTo(5, 9);
  });

  it('counts ceil(duration × rate / 1000) arrivals, without floating point strays', () => {
    expect(stepArrivalCount({ ratePerSec: 3, durationMs: 1000 })).toBe(3);
    expect(stepArrivalCount({ ratePerSec: 3, durationMs: 1001 })).toBe(4);
    expect(stepArrivalCount({ ratePerSec: 0.5, durationMs: 3000 })).toBe(2); // at 0 and 2000
    expect(stepArrivalCount({ ratePerSec: 7, durationMs: 100 })).toBe(1);
    expect(stepArrivalCount({ ratePerSec: 1000, durationMs: 0 })).toBe(0);
    expect(stepArrivalCount({ ratePerSec: 0, durationMs: 5000 })).toBe(0);
    for (const rate of [1, 3, 7, 10, 33, 100, 333, 1000]) {
      expect([...constantArrivals(rate, 2500)].length).toBe(stepArrivalCount({ ratePerSec: rate, durationMs: 2500 }));
      expect([...constantArrivals(rate, 2500)].every((a) => a.atMs < 2500)).toBe(true);
    }
  });

  it('lays steps end to end, each at its own rate, and labels arrivals with their step', () => {
    const steps = [
      { ratePerSec: 10, durationMs: 1000 },
      { ratePerSec: 0, durationMs: 500 },
      { ratePerSec: 40, durationMs: 250 },
    ];
    const arrivals = [...steppedArrivals(steps)];
    expect(arrivals.filter((a) => a.step === 0)).toHaveLength(10);
    expect(arrivals.filter((a) => a.step === 1)).toHaveLength(0);
    const third = arrivals.filter((a) => a.step === 2);
    expect(third.map((a) => a.atMs)).toEqual([1500, 1525, 1550, 1575, 1600, 1625, 1650, 1675, 1700, 1725]);
    expect(arrivals.map((a) => a.atMs)).toEqual([...arrivals.map((a) => a.atMs)].sort((a, b) => a - b));
    expect(scheduleSize(steps)).toEqual({ arrivals: 20, durationMs: 1750 });
  });

  it('is lazy: a long schedule costs nothing until read', () => {
    const arrivals = constantArrivals(1_000_000, 3_600_000);
    expect(arrivals.next().value).toEqual({ atMs: 0, step: 0 });
    expect(arrivals.next().value!.atMs).toBeCloseTo(0.001, 9);
  });

  it('refuses nonsense rates and durations', () => {
    expect(() => [...constantArrivals(-1, 1000)]).toThrow(RangeError);
    expect(() => [...constantArrivals(Number.NaN, 1000)]).toThrow(RangeError);
    expect(() => [...constantArrivals(10, Number.POSITIVE_INFINITY)]).toThrow(RangeError);
  });

  it('climbs geometric rates, whole and strictly increasing, up to the maximum', () => {
    expect(geometricRates(10, 2, 100)).toEqual([10, 20, 40, 80]);
    expect(geometricRates(5, 1.5, 60)).toEqual([5, 8, 11, 17, 25, 38, 57]);
    expect(geometricRates(1, 1.1, 5)).toEqual([1, 2, 3, 4, 5]); // rounding never repeats a rate
    expect(geometricRates(10, 2, 10)).toEqual([10]);
    expect(() => geometricRates(10, 1, 100)).toThrow(RangeError);
    expect(() => geometricRates(0, 2, 100)).toThrow(RangeError);
    expect(() => geometricRates(10, 2, 5)).toThrow(RangeError);
  });
});
