// How report.html writes its numbers: counts with thousands separators, bytes in decimal units,
// milliseconds to three significant figures, percentages, rates. One place, so a figure reads the
// same in the headline, a totals line and a table.

export const countText = (n: number) => Math.round(n).toLocaleString('en-US');

export function bytesText(n: number): string {
  if (n < 1000) return `${Math.round(n)} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n;
  let unit = 'B';
  for (const u of units) {
    if (v < 1000) break;
    v /= 1000;
    unit = u;
  }
  return `${v.toFixed(v < 10 ? 2 : v < 100 ? 1 : 0)} ${unit}`;
}

/** Microseconds as milliseconds: 2 decimals below 10 ms, 1 below 100 ms, none above. */
export const msText = (us: number) => (us / 1000).toFixed(us < 10_000 ? 2 : us < 100_000 ? 1 : 0);

export const secondsText = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

/** A share as a percentage: `0 %`, `0.03 %`, `12.5 %`. */
export function pctText(part: number, whole: number): string {
  if (whole <= 0) return '—';
  const p = (100 * part) / whole;
  return `${p === 0 ? '0' : p < 0.1 ? p.toPrecision(1) : p < 10 ? p.toFixed(2) : p.toFixed(1)} %`;
}

export const rateText = (perS: number) => `${Number(perS.toPrecision(perS < 10 ? 2 : 3))}/s`;
