// The charts of one scenario, from its results.json entry: latency over time (one strip per
// measure, with the rate steps, the faults that were in place and the attacks that ran shaded),
// the percentile distribution of every latency measure (decoded from the HDR histograms), and the
// faults timeline (attacks as lanes too), all over time on the one axis timeAxis() gives.
import { LatencyHistogram } from '../../../metrics/latencyHistogram.ts';
import { attackWindows } from '../../dosResults.ts';
import type { ScenarioResult } from '../../../results/runResult.ts';
import type { SafeHtml } from '../safeHtml.ts';
import { percentileShown } from '../../sampleSize.ts';
import type { Tick } from './chartScale.ts';
import { ATTACK_BAR_COLORS, PALETTE, RESTART_COLOR } from './chartColors.ts';
import { laneChart, type Lane } from './laneChart.ts';
import { xyChart } from './svgChart.ts';
import { count, microsAsMillis } from '../../../figures.ts';
import { faultIntervals, seconds, splitLabels, timeAxis, timeOverlay } from './timeOverlay.ts';

const ms = (us: number) => us / 1000;

/** Log scale when the values span more than two decades, so a 1 ms series is not flattened by a 100 ms one. */
function wideSpread(values: number[]): boolean {
  const positive = values.filter((v) => v > 0);
  return positive.length > 0 && Math.max(...positive) / Math.min(...positive) > 100;
}

interface MergedBucket {
  t: number;
  count: number;
  sum: number;
  min: number;
  max: number;
  /** The bucket's p50 and p99, µs, when one series filled it (two series' percentiles do not add up). */
  p50?: number;
  p99?: number;
}

/**
 * The timeline's metrics grouped for small multiples: one group per base name. The labelled
 * variants of a base that never overlap in time (capacity's rate steps, the DoS phases) are one
 * line: they are one measure taken one step after another, and the step is shaded instead. Variants
 * that overlap stay apart (one group each).
 */
export function timelineGroups(s: ScenarioResult): Array<{ name: string; buckets: MergedBucket[] }> {
  const timeline = s.timeline;
  if (!timeline) return [];
  const byKey = new Map<string, typeof timeline.points>();
  for (const p of timeline.points) {
    const list = byKey.get(p.metric) ?? [];
    list.push(p);
    byKey.set(p.metric, list);
  }
  const byBase = new Map<string, string[]>();
  for (const key of byKey.keys()) {
    const base = splitLabels(key).base;
    byBase.set(base, [...(byBase.get(base) ?? []), key]);
  }
  const groups: Array<{ name: string; buckets: MergedBucket[] }> = [];
  const toBuckets = (keys: string[]) => {
    const merged = new Map<number, MergedBucket>();
    for (const key of keys)
      for (const p of byKey.get(key)!) {
        const b = merged.get(p.t);
        const quantiles = p.p50 !== undefined && p.p99 !== undefined ? { p50: p.p50, p99: p.p99 } : {};
        if (!b)
          merged.set(p.t, { t: p.t, count: p.count, sum: p.mean * p.count, min: p.min, max: p.max, ...quantiles });
        else {
          b.count += p.count;
          b.sum += p.mean * p.count;
          b.min = Math.min(b.min, p.min);
          b.max = Math.max(b.max, p.max);
          delete b.p50;
          delete b.p99;
        }
      }
    return [...merged.values()].sort((a, b) => a.t - b.t);
  };
  for (const [base, keys] of byBase) {
    const spans = keys
      .map((key) => {
        const ts = byKey.get(key)!.map((p) => p.t);
        return { key, t0: Math.min(...ts), t1: Math.max(...ts) };
      })
      .sort((a, b) => a.t0 - b.t0);
    // Disjoint when each starts at or after the previous one's last bucket (a shared boundary bucket is fine).
    const disjoint = spans.every((sp, i) => i === 0 || sp.t0 >= spans[i - 1]!.t1);
    if (keys.length === 1 || disjoint)
      groups.push({
        name: keys.length === 1 ? keys[0]! : `${base} (every ${Object.keys(splitLabels(keys[0]!).labels).join(', ')})`,
        buckets: toBuckets(keys),
      });
    else for (const key of keys) groups.push({ name: key, buckets: toBuckets([key]) });
  }
  return groups;
}

/** Small charts drawn at most; past it the rest is in the latency table. */
export const MAX_LATENCY_STRIPS = 8;

/**
 * Latency over time as small multiples: one strip per measure (p50 solid, p99 dashed, one colour;
 * mean and max for results written before buckets kept percentiles), every strip on the scenario's
 * time axis, with its rate steps, faults and attacks shaded. Each point's tooltip gives its n, so a
 * p99 from a thin bucket reads as what it is.
 */
export function latencyOverTimeCharts(s: ScenarioResult): SafeHtml[] {
  const timeline = s.timeline;
  if (!timeline || timeline.points.length === 0) return [];
  const groups = timelineGroups(s);
  const half = timeline.bucketMs / 2;
  const { spans, markers } = timeOverlay(s);
  const x = timeAxis(s);
  const shown = groups.slice(0, MAX_LATENCY_STRIPS);
  return shown.map((g, i) => {
    const color = PALETTE[i % PALETTE.length]!;
    const at = (t: number) => (t + half) / 1000;
    const title = (b: MergedBucket) => {
      const bucket = `${seconds(b.t / 1000)}–${seconds((b.t + timeline.bucketMs) / 1000)}`;
      const mean = `mean ${microsAsMillis(b.sum / b.count)} ms`;
      const q = b.p50 === undefined ? '' : `, p50 ${microsAsMillis(b.p50)} ms, p99 ${microsAsMillis(b.p99!)} ms`;
      return `${bucket}: n=${count(b.count)}${q}, ${mean}, min ${microsAsMillis(b.min)} ms, max ${microsAsMillis(b.max)} ms`;
    };
    const line = (name: string, dashed: boolean, y: (b: MergedBucket) => number | undefined) => ({
      name,
      color,
      dashed,
      points: g.buckets.flatMap((b) => (y(b) === undefined ? [] : [{ x: at(b.t), y: ms(y(b)!), title: title(b) }])),
    });
    const quantiles = g.buckets.some((b) => b.p50 !== undefined);
    const series = quantiles
      ? [line('p50', false, (b) => b.p50), line('p99', true, (b) => b.p99)]
      : [line('mean', false, (b) => b.sum / b.count), line('max', true, (b) => b.max)];
    const more = groups.length - shown.length;
    return xyChart({
      id: 'latency-over-time',
      size: 'strip',
      title: g.name,
      ...(i === shown.length - 1 && more > 0
        ? { note: `${more} more measure${more > 1 ? 's' : ''} in the latency table below` }
        : {}),
      x,
      y: { label: 'ms', min: 0, log: wideSpread(series.flatMap((x) => x.points.map((p) => p.y))) },
      series,
      spans,
      markers,
    });
  });
}

const NINES_TICKS: Tick[] = ['0%', '90%', '99%', '99.9%', '99.99%', '99.999%'].map((label, value) => ({
  value,
  label,
}));

/** x of a percentile on the nines axis: 0 % → 0, 90 % → 1, 99 % → 2 ... */
export function ninesOf(percentile: number): number {
  return Math.log10(1 / Math.max(1e-12, 1 - percentile / 100));
}

/** Light to dark, for the variants of one measure ordered by their label (rate 5/s … 2000/s). */
function rampColor(i: number, n: number): string {
  const f = n <= 1 ? 1 : i / (n - 1);
  const mix = (a: number, b: number) => Math.round(a + (b - a) * f);
  return `rgb(${mix(158, 8)}, ${mix(202, 48)}, ${mix(225, 107)})`;
}

/** Numeric labels by value (rates), the DoS phases in time order, anything else by name. */
const PHASES = ['before', 'during', 'after'];
const labelOrder = (a: string, b: string) => {
  const [u, v] = [Object.values(splitLabels(a).labels)[0] ?? '', Object.values(splitLabels(b).labels)[0] ?? ''];
  const [x, y] = [Number(u), Number(v)];
  if (u !== '' && v !== '' && Number.isFinite(x) && Number.isFinite(y)) return x - y;
  if (PHASES.includes(u) && PHASES.includes(v)) return PHASES.indexOf(u) - PHASES.indexOf(v);
  return a.localeCompare(b);
};

/**
 * The percentile distribution, one chart per measure (its labelled variants as its lines: up to 4
 * in distinct colours, more on a light-to-dark ramp). A line stops at the highest percentile its
 * sample count carries (sampleSize.ts); a variant with fewer than 2 samples is left out and named.
 */
export function percentileCharts(s: ScenarioResult): SafeHtml[] {
  const byBase = new Map<string, string[]>();
  for (const [key, m] of Object.entries(s.metrics)) {
    if (m.count === 0) continue;
    const base = splitLabels(key).base;
    byBase.set(base, [...(byBase.get(base) ?? []), key]);
  }
  const charts: SafeHtml[] = [];
  for (const [base, keys] of byBase) {
    keys.sort(labelOrder);
    const carried = keys.filter((k) => percentileShown(s.metrics[k]!.count, 50));
    const thin = keys.filter((k) => !carried.includes(k));
    // Nothing to draw: the latency table shows its n and max.
    if (carried.length === 0) continue;
    let maxNines = 1;
    const series = carried.map((key, i) => {
      const m = s.metrics[key]!;
      const curve = LatencyHistogram.decode(m.hdr)
        .percentileCurve()
        .filter((p) => percentileShown(m.count, p.percentile));
      maxNines = Math.max(maxNines, ...curve.map((p) => ninesOf(p.percentile)));
      return {
        name: `${keys.length > 1 ? key.slice(base.length) || base : key} (n=${count(m.count)})`,
        color: carried.length <= 4 ? PALETTE[i % PALETTE.length]! : rampColor(i, carried.length),
        points: curve.map((p) => ({
          x: ninesOf(p.percentile),
          y: ms(p.us),
          title: `p${Number(p.percentile.toPrecision(6))} = ${microsAsMillis(p.us)} ms`,
        })),
      };
    });
    const top = Math.min(NINES_TICKS.length - 1, Math.ceil(maxNines - 1e-9));
    const leftOut = thin.length ? `; left out (n < 2): ${thin.join(', ')}` : '';
    charts.push(
      xyChart({
        id: 'percentiles',
        title: `${base}: latency by percentile`,
        note: `each line stops where its n stops carrying a percentile${leftOut}`,
        x: { label: 'percentile', min: 0, max: top, ticks: NINES_TICKS.slice(0, top + 1) },
        y: { label: 'latency (ms)', min: 0, log: wideSpread(series.flatMap((x) => x.points.map((p) => p.y))) },
        series,
      }),
    );
  }
  return charts;
}

export function faultsTimelineChart(s: ScenarioResult): SafeHtml | undefined {
  const events = s.faultEvents ?? [];
  if (events.length === 0) return undefined;
  const { intervals, restarts } = faultIntervals(events, s.durationMs);
  const lanes = new Map<string, Lane>();
  const lane = (label: string) => {
    let l = lanes.get(label);
    if (!l) lanes.set(label, (l = { label, bars: [], instants: [] }));
    return l;
  };
  for (const i of intervals) {
    lane(i.target).bars.push({
      x0: i.t0 / 1000,
      x1: i.t1 / 1000,
      color: i.kind === 'toxic' ? PALETTE[3] : '#888888',
      title: `${i.detail}: ${seconds(i.t0 / 1000)} → ${seconds(i.t1 / 1000)}`,
    });
  }
  const attacks = attackWindows(s);
  const attackNames = [...new Set(attacks.map((w) => w.attack))];
  for (const w of attacks) {
    lane(`attack: ${w.attack}`).bars.push({
      x0: w.t0 / 1000,
      x1: w.t1 / 1000,
      color: ATTACK_BAR_COLORS[attackNames.indexOf(w.attack) % ATTACK_BAR_COLORS.length],
      title: `attack ${w.attack}: ${seconds(w.t0 / 1000)} → ${seconds(w.t1 / 1000)}${w.detail ? ` (${w.detail})` : ''}`,
    });
  }
  for (const r of restarts)
    lane('agent restart').instants.push({
      x: r.t / 1000,
      color: RESTART_COLOR,
      title: `kill -9 and restart at ${seconds(r.t / 1000)}${r.detail ? `: ${r.detail}` : ''}`,
    });
  return laneChart({
    id: 'faults-timeline',
    title: attacks.length ? 'Faults and attacks timeline' : 'Faults timeline',
    x: timeAxis(s),
    lanes: [...lanes.values()],
  });
}
