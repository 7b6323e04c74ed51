// The charts of one scenario, from its results.json entry: latency over time (with the faults that
// were in place and the attacks that ran shaded), the percentile distribution of every latency
// metric (decoded from the HDR histograms), and the faults timeline (attacks as lanes too).
import { LatencyHistogram } from '../metrics/latencyHistogram.ts';
import { attackWindows } from './dosResults.ts';
import type { FaultEvent, ScenarioResult } from './runResult.ts';
import type { SafeHtml } from './safeHtml.ts';
import { laneChart, xyChart, type Lane, type Marker, type Span, type Tick } from './svgChart.ts';

/** Distinguishable on white and in greyscale order (Tableau 10). */
export const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
const FAULT_COLOR = 'rgba(225, 87, 89, 0.14)';
const DISABLED_COLOR = 'rgba(120, 120, 120, 0.22)';
const RESTART_COLOR = '#b03030';
/** Translucent, apart from the faults' red; an attack keeps its color in every chart of the scenario. */
const ATTACK_COLORS = ['rgba(242, 142, 43, 0.20)', 'rgba(176, 122, 161, 0.22)', 'rgba(118, 183, 178, 0.26)', 'rgba(237, 201, 72, 0.26)'];
const ATTACK_BAR_COLORS = [PALETTE[1], PALETTE[6], PALETTE[4], PALETTE[5]];

const ms = (us: number) => us / 1000;
const msLabel = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const seconds = (v: number) => `${Number(v.toPrecision(6))} s`;

/** Log scale when the values span more than two decades, so a 1 ms series is not flattened by a 100 ms one. */
function wideSpread(values: number[]): boolean {
  const positive = values.filter((v) => v > 0);
  return positive.length > 0 && Math.max(...positive) / Math.min(...positive) > 100;
}

/** One color per metric, the same in every chart of the scenario. */
function metricColor(s: ScenarioResult): (metric: string) => string {
  const names = [...new Set([...Object.keys(s.metrics), ...(s.timeline?.points.map((p) => p.metric) ?? [])])];
  return (metric) => PALETTE[Math.max(0, names.indexOf(metric)) % PALETTE.length];
}

export interface FaultInterval {
  /** The toxic's name, or 'proxy disabled'. */
  target: string;
  t0: number;
  t1: number;
  detail: string;
  kind: 'toxic' | 'disabled';
}

/** Turns the event list into intervals (a fault still in place at the end lasts to `endMs`) and instants (restarts). */
export function faultIntervals(events: FaultEvent[], endMs: number): { intervals: FaultInterval[]; restarts: FaultEvent[] } {
  const open = new Map<string, FaultInterval>();
  const intervals: FaultInterval[] = [];
  const restarts: FaultEvent[] = [];
  const close = (key: string, t: number) => {
    const interval = open.get(key);
    if (!interval) return;
    interval.t1 = t;
    intervals.push(interval);
    open.delete(key);
  };
  for (const e of events) {
    if (e.action === 'add') {
      close(`toxic:${e.target}`, e.t);
      open.set(`toxic:${e.target}`, { target: e.target, t0: e.t, t1: endMs, detail: e.detail ?? e.target, kind: 'toxic' });
    } else if (e.action === 'remove') close(`toxic:${e.target}`, e.t);
    else if (e.action === 'disable') {
      if (!open.has('disabled')) open.set('disabled', { target: 'proxy disabled', t0: e.t, t1: endMs, detail: 'proxy disabled: connections cut and refused', kind: 'disabled' });
    } else if (e.action === 'enable') close('disabled', e.t);
    else if (e.action === 'reset') for (const key of [...open.keys()]) close(key, e.t);
    else if (e.action === 'restart') restarts.push(e);
  }
  for (const interval of open.values()) intervals.push({ ...interval, t1: Math.max(interval.t0, endMs) });
  intervals.sort((a, b) => a.t0 - b.t0);
  return { intervals, restarts };
}

function faultOverlay(s: ScenarioResult): { spans: Span[]; markers: Marker[] } {
  const { intervals, restarts } = faultIntervals(s.faultEvents ?? [], s.durationMs);
  return {
    spans: intervals.map((i) => ({
      x0: i.t0 / 1000,
      x1: i.t1 / 1000,
      label: i.kind === 'toxic' ? 'a toxic in place' : 'proxy disabled',
      color: i.kind === 'toxic' ? FAULT_COLOR : DISABLED_COLOR,
    })),
    markers: restarts.map((r) => ({ x: r.t / 1000, label: `agent restarted (kill -9) at ${seconds(r.t / 1000)}${r.detail ? `: ${r.detail}` : ''}`, color: RESTART_COLOR })),
  };
}

/** Each attack's window (attack-start → attack-stop) as a span labelled with the attack's name. */
export function attackSpans(s: ScenarioResult): Span[] {
  const windows = attackWindows(s);
  const names = [...new Set(windows.map((w) => w.attack))];
  return windows.map((w) => ({
    x0: w.t0 / 1000,
    x1: w.t1 / 1000,
    label: `attack: ${w.attack}`,
    text: w.attack,
    title: `attack ${w.attack}: ${seconds(w.t0 / 1000)} → ${seconds(w.t1 / 1000)}${w.detail ? ` (${w.detail})` : ''}`,
    color: ATTACK_COLORS[names.indexOf(w.attack) % ATTACK_COLORS.length],
  }));
}

export function latencyOverTimeChart(s: ScenarioResult): SafeHtml | undefined {
  const timeline = s.timeline;
  if (!timeline || timeline.points.length === 0) return undefined;
  const metrics = [...new Set(timeline.points.map((p) => p.metric))];
  const half = timeline.bucketMs / 2;
  const colorOf = metricColor(s);
  const series = metrics.flatMap((metric) => {
    const points = timeline.points.filter((p) => p.metric === metric);
    const color = colorOf(metric);
    const at = (t: number) => (t + half) / 1000;
    const title = (p: (typeof points)[number]) =>
      `${seconds(p.t / 1000)}–${seconds((p.t + timeline.bucketMs) / 1000)}: n=${p.count}, mean ${msLabel(ms(p.mean))} ms, min ${msLabel(ms(p.min))} ms, max ${msLabel(ms(p.max))} ms`;
    return [
      { name: `${metric} (mean)`, color, points: points.map((p) => ({ x: at(p.t), y: ms(p.mean), title: title(p) })) },
      { name: `${metric} (max)`, color, dashed: true, points: points.map((p) => ({ x: at(p.t), y: ms(p.max), title: title(p) })) },
    ];
  });
  const { spans, markers } = faultOverlay(s);
  return xyChart({
    id: 'latency-over-time',
    title: `Latency over time (${timeline.bucketMs} ms buckets)`,
    x: { label: 'seconds since the scenario started', min: 0, max: Math.max(s.durationMs, ...timeline.points.map((p) => p.t + timeline.bucketMs)) / 1000 },
    y: { label: 'latency (ms)', min: 0, log: wideSpread(series.flatMap((x) => x.points.map((p) => p.y))) },
    series,
    spans: [...spans, ...attackSpans(s)],
    markers,
  });
}

const NINES_TICKS: Tick[] = ['0%', '90%', '99%', '99.9%', '99.99%', '99.999%'].map((label, value) => ({ value, label }));

/** x of a percentile on the nines axis: 0 % → 0, 90 % → 1, 99 % → 2 ... */
export function ninesOf(percentile: number): number {
  return Math.log10(1 / Math.max(1e-12, 1 - percentile / 100));
}

export function percentileChart(s: ScenarioResult): SafeHtml | undefined {
  const metrics = Object.entries(s.metrics).filter(([, m]) => m.count > 0);
  if (metrics.length === 0) return undefined;
  let maxNines = 1;
  const colorOf = metricColor(s);
  const series = metrics.map(([name, m]) => {
    const curve = LatencyHistogram.decode(m.hdr).percentileCurve();
    maxNines = Math.max(maxNines, ...curve.map((p) => ninesOf(p.percentile)));
    return {
      name: `${name} (n=${m.count})`,
      color: colorOf(name),
      points: curve.map((p) => ({ x: ninesOf(p.percentile), y: ms(p.us), title: `p${Number(p.percentile.toPrecision(6))} = ${msLabel(ms(p.us))} ms` })),
    };
  });
  const top = Math.ceil(maxNines - 1e-9);
  return xyChart({
    id: 'percentiles',
    title: 'Latency by percentile (HDR histogram)',
    x: { label: 'percentile', min: 0, max: top, ticks: NINES_TICKS.slice(0, top + 1) },
    y: { label: 'latency (ms)', min: 0, log: wideSpread(series.flatMap((x) => x.points.map((p) => p.y))) },
    series,
  });
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
  for (const r of restarts) lane('agent restart').instants.push({ x: r.t / 1000, color: RESTART_COLOR, title: `kill -9 and restart at ${seconds(r.t / 1000)}${r.detail ? `: ${r.detail}` : ''}` });
  return laneChart({
    id: 'faults-timeline',
    title: attacks.length ? 'Faults and attacks timeline' : 'Faults timeline',
    x: { label: 'seconds since the scenario started', min: 0, max: s.durationMs / 1000 },
    lanes: [...lanes.values()],
  });
}
