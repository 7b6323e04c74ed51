// The figures of the terminal summary (terminalSummary.ts) as text: counts with thousands
// separators, milliseconds with the digits that mean something, durations, bytes, percentages.

export const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** Milliseconds with the digits that mean something: 0.42, 8.31, 42.1, 421, 4,210. */
export function millis(ms: number): string {
  if (ms < 10) return ms.toFixed(2);
  if (ms < 100) return ms.toFixed(1);
  return count(ms);
}

export const micros = (us: number) => millis(us / 1000);
/** "12.3 s"; from 1,000 s on "16m 40s", so the time column keeps its width. */
export function seconds(ms: number): string {
  const s = ms / 1000;
  if (s < 1000) return `${s.toFixed(1)} s`;
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)}m ${String(whole % 60).padStart(2, '0')}s`;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

export function percent(part: number, whole: number): string {
  if (whole === 0) return '0 %';
  const p = (part * 100) / whole;
  if (p === 0) return '0 %';
  if (p < 0.01) return '< 0.01 %';
  return `${p < 10 ? p.toFixed(2) : p.toFixed(1)} %`;
}
