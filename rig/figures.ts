// How every writer prints a number (the terminal, summary.md, report.html, compare, merge, ab;
// junit.xml carries their texts), so the same run reads the same wherever it is read: counts with
// thousands separators, bytes in decimal units (kB, MB: k6's data_received does the same),
// latencies in ms with the digits that mean something, durations, shares, rates and ratios. It
// imports nothing, so the parts that put figures into a check's words (metrics, load, the engine)
// print them as the writers do.
// What is not a number (NaN, ±Infinity) prints as "—": a writer shows that nothing was measured
// rather than a figure no one measured.

/** What a figure prints as when there is nothing to print: not measured, or a share of nothing. */
export const NO_FIGURE = '—';

/**
 * Three significant figures at most: two decimals below 10, one below 100, none above. The
 * boundary is judged after rounding, so 9.999 reads 10.0, not 10.00.
 */
function threeFigures(v: number): string {
  const a = Math.abs(v);
  if (Number(a.toFixed(2)) < 10) return v.toFixed(2);
  if (Number(a.toFixed(1)) < 100) return v.toFixed(1);
  return v.toFixed(0);
}

/** 1,234,567: whole, with thousands separators. */
export function count(n: number): string {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : NO_FIGURE;
}

/** A plain quantity (a counter, a mean queue length): 4, 4.20, 42.1, 1,234; whole when it is whole. */
export function quantity(n: number): string {
  if (!Number.isFinite(n)) return NO_FIGURE;
  return Number.isInteger(n) || Number(Math.abs(n).toFixed(1)) >= 100 ? count(n) : threeFigures(n);
}

/** Milliseconds with the digits that mean something: 0.42, 8.31, 42.1, 421, 4,210 (no unit). */
export function millis(ms: number): string {
  if (!Number.isFinite(ms)) return NO_FIGURE;
  return Number(Math.abs(ms).toFixed(1)) < 100 ? threeFigures(ms) : count(ms);
}

/** Microseconds (what the histograms record) as milliseconds, as `millis` prints them. */
export const microsAsMillis = (us: number) => millis(us / 1000);

/** "12.3 s"; from 1,000 s on "16m 40s", so a time column keeps its width. */
export function seconds(ms: number): string {
  if (!Number.isFinite(ms)) return NO_FIGURE;
  const s = ms / 1000;
  if (Number(Math.abs(s).toFixed(1)) < 1000) return `${s.toFixed(1)} s`;
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)}m ${String(whole % 60).padStart(2, '0')}s`;
}

const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];

/** 999 B, 1.00 kB, 12.3 MB: decimal units, three significant figures. */
export function bytes(n: number): string {
  if (!Number.isFinite(n)) return NO_FIGURE;
  let value = n;
  let unit = 0;
  // Judged after rounding, so 999.6 kB moves on to 1.00 MB rather than reading 1000 kB.
  while (Number(Math.abs(value).toFixed(0)) >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? Math.round(value) : threeFigures(value)} ${BYTE_UNITS[unit]}`;
}

/**
 * `part` of `whole` as a percentage: "0 %", "< 0.01 %", "4.20 %", "12.5 %"; "> 99.9 %" when a
 * part short of the whole would round to all of it; "—" for a share of nothing (0 of 0).
 */
export function percent(part: number, whole: number): string {
  if (!Number.isFinite(part) || !Number.isFinite(whole) || whole <= 0) return NO_FIGURE;
  const p = (part * 100) / whole;
  if (p === 0) return '0 %';
  if (p > 0 && p < 0.01) return '< 0.01 %';
  if (part < whole && Number(p.toFixed(1)) >= 100) return '> 99.9 %';
  return `${Number(Math.abs(p).toFixed(2)) < 10 ? p.toFixed(2) : p.toFixed(1)} %`;
}

/** A signed fraction as a change: "+10 %", "−2.5 %" (a tolerance, a difference between runs). */
export function change(fraction: number): string {
  if (!Number.isFinite(fraction)) return NO_FIGURE;
  return `${fraction >= 0 ? '+' : '−'}${Number((Math.abs(fraction) * 100).toFixed(1))} %`;
}

/** Per second: "0.123/s", "42.1/s", "1,234/s"; `what` names what is counted: "120 req/s". */
export function rate(perS: number, what = ''): string {
  if (!Number.isFinite(perS)) return NO_FIGURE;
  const n = Number(Math.abs(perS).toPrecision(3)) < 100 ? String(Number(perS.toPrecision(3))) : count(perS);
  return what ? `${n} ${what}/s` : `${n}/s`;
}

const ratioDigits = (r: number) => (Number(Math.abs(r).toFixed(2)) < 10 ? r.toFixed(2) : r.toFixed(1));

/** "×1.42": how many times one figure is another (a tax, current ÷ baseline). */
export function ratio(r: number): string {
  return Number.isFinite(r) ? `×${ratioDigits(r)}` : NO_FIGURE;
}

/** "×1.42 [1.21, 1.70]": a ratio with its confidence interval. */
export function ratioWithin(r: number, lo: number, hi: number): string {
  if (!Number.isFinite(r)) return NO_FIGURE;
  return Number.isFinite(lo) ? `${ratio(r)} [${ratioDigits(lo)}, ${ratioDigits(hi)}]` : ratio(r);
}
