// The one way every writer prints a number (rig/figures.ts): where a unit or a digit
// changes, and what is printed when there is nothing to print.
import { describe, expect, it } from 'vitest';
import {
  bytes,
  change,
  count,
  microsAsMillis,
  millis,
  NO_FIGURE,
  percent,
  quantity,
  rate,
  ratio,
  ratioWithin,
  seconds,
} from '../rig/figures.ts';

describe('figures', () => {
  it('counts whole, with thousands separators', () => {
    expect([count(0), count(999), count(1000), count(1234567.4), count(-1500)]).toEqual([
      '0',
      '999',
      '1,000',
      '1,234,567',
      '-1,500',
    ]);
  });

  it('bytes in decimal units: 999 B, then 1.00 kB; a rounding never reads 1000 of a unit', () => {
    expect([bytes(0), bytes(999), bytes(1000), bytes(1001), bytes(9_994), bytes(9_996)]).toEqual([
      '0 B',
      '999 B',
      '1.00 kB',
      '1.00 kB',
      '9.99 kB',
      '10.0 kB',
    ]);
    expect([bytes(99_950), bytes(999_499), bytes(999_500), bytes(2_000_000), bytes(5.7 * 1024 ** 2)]).toEqual([
      '100 kB',
      '999 kB',
      '1.00 MB',
      '2.00 MB',
      '5.98 MB',
    ]);
    expect(bytes(3e15)).toBe('3000 TB');
  });

  it('milliseconds with the digits that mean something, judged after rounding', () => {
    expect([millis(0), millis(0.421), millis(9.994), millis(9.999), millis(10)]).toEqual([
      '0.00',
      '0.42',
      '9.99',
      '10.0',
      '10.0',
    ]);
    expect([millis(99.94), millis(99.96), millis(421.4), millis(4210)]).toEqual(['99.9', '100', '421', '4,210']);
    expect([microsAsMillis(9_999), microsAsMillis(10_000), microsAsMillis(123_456)]).toEqual(['10.0', '10.0', '123']);
  });

  it('durations in seconds to a tenth, minutes from 1,000 s on', () => {
    expect([seconds(0), seconds(2_500), seconds(999_940), seconds(999_960), seconds(1_000_000)]).toEqual([
      '0.0 s',
      '2.5 s',
      '999.9 s',
      '16m 40s',
      '16m 40s',
    ]);
  });

  it('a share of nothing (0 of 0) is "—", not 0 %', () => {
    expect(percent(0, 0)).toBe(NO_FIGURE);
    expect([percent(0, 10), percent(1, 100_000), percent(1, 10_000), percent(9.996, 100)]).toEqual([
      '0 %',
      '< 0.01 %',
      '0.01 %',
      '10.0 %',
    ]);
    expect([percent(1, 8), percent(100, 100), percent(99_999, 100_000)]).toEqual(['12.5 %', '100.0 %', '> 99.9 %']);
  });

  it('rates, changes, ratios and quantities', () => {
    expect([rate(0), rate(0.1234), rate(42.14), rate(99.96), rate(12_345.6), rate(120, 'req')]).toEqual([
      '0/s',
      '0.123/s',
      '42.1/s',
      '100/s',
      '12,346/s',
      '120 req/s',
    ]);
    expect([change(0.1), change(-0.025), change(0)]).toEqual(['+10 %', '−2.5 %', '+0 %']);
    expect([ratio(1.4249), ratio(9.999), ratio(12.34)]).toEqual(['×1.42', '×10.0', '×12.3']);
    expect([ratioWithin(1.42, 1.21, 1.7), ratioWithin(1.42, NaN, NaN)]).toEqual(['×1.42 [1.21, 1.70]', '×1.42']);
    expect([quantity(4), quantity(4.2), quantity(1234.5)]).toEqual(['4', '4.20', '1,235']);
  });

  it('prints "—" for what is not a number, and keeps the sign of a negative', () => {
    for (const f of [count, millis, microsAsMillis, seconds, bytes, rate, change, ratio, quantity])
      for (const v of [NaN, Infinity, -Infinity]) expect(f(v), `${f.name}(${v})`).toBe(NO_FIGURE);
    expect([percent(NaN, 10), percent(1, NaN), percent(1, -1)]).toEqual([NO_FIGURE, NO_FIGURE, NO_FIGURE]);
    expect([millis(-0.5), bytes(-1500), seconds(-2_000)]).toEqual(['-0.50', '-1.50 kB', '-2.0 s']);
  });
});
