// The geometry the report's SVG charts share (svgChart.ts, laneChart.ts): sizes and margins, so
// stacked charts line up; axes and their ticks; numbers as coordinates and labels.

export interface Tick {
  value: number;
  label: string;
}

export interface Axis {
  label: string;
  min?: number;
  max?: number;
  /** Fixed ticks (e.g. the nines of a percentile axis); otherwise round numbers are chosen. */
  ticks?: Tick[];
  format?: (value: number) => string;
  /** Logarithmic (values ≤ 0 sit at the bottom); ticks at 1, 2, 5 × 10^k. */
  log?: boolean;
}

/**
 * How big a chart is drawn. Every size is drawn at 1:1 (the svg's width is its viewBox's, shrunk
 * only on a narrower window), so an 11 px label is 11 px on screen. `wide` and `strip` share one
 * plot area left and right: every chart over a scenario's time is one of them, so their x axes line
 * up when stacked (latency over time, traffic, faults timeline). `half`: two side by side.
 */
export type ChartSize = 'wide' | 'strip' | 'half';

export const CHART_WIDTH: Record<ChartSize, number> = { wide: 1060, strip: 1060, half: 520 };
export const CHART_HEIGHT: Record<ChartSize, number> = { wide: 260, strip: 150, half: 280 };
/** Left and right margins of the plot area: the same for every size, so stacked charts align. */
export const PAD = { left: 64, right: 16, top: 12, bottom: 44 };
export const STRIP_BOTTOM = 34;

/** Round ticks (1, 2, 5 × 10^k) covering [min, max]. */
export function niceTicks(min: number, max: number, target = 6): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / target;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9 && ticks.length < 50; v += step)
    ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** Ticks 1, 2, 5 × 10^k covering [min, max] (both > 0). */
export function logTicks(min: number, max: number): number[] {
  const ticks: number[] = [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)) && ticks.length < 40; e++) {
    for (const m of [1, 2, 5]) {
      const v = Number((m * 10 ** e).toPrecision(12));
      if (v >= min * 0.999 && v <= max * 1.001) ticks.push(v);
    }
  }
  return ticks;
}

export function extent(values: number[], axis: Axis): [number, number] {
  let lo = axis.min ?? Math.min(...values);
  let hi = axis.max ?? Math.max(...values);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) [lo, hi] = [0, 1];
  if (hi <= lo) hi = lo + (lo === 0 ? 1 : Math.abs(lo) * 0.1);
  return [lo, hi];
}

export const fmt = (v: number) => String(Number(v.toPrecision(4)));
export const px = (v: number) => v.toFixed(1);

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
