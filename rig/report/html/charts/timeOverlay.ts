// The time axis every chart over a scenario's time shares, and what is shaded or marked on it:
// the load's rate steps, the faults in place (from the fault events), the restarts and the
// attacks that ran, so the charts stacked in a scenario's section line up and tell the same story.
import { attackWindows } from '../../dosResults.ts';
import type { FaultEvent, ScenarioResult } from '../../../results/runResult.ts';
import type { Axis } from './chartScale.ts';
import { ATTACK_COLORS, DISABLED_COLOR, FAULT_COLOR, RESTART_COLOR } from './chartColors.ts';
import type { Marker, Span } from './svgChart.ts';

/**
 * A time on the axis, in seconds: `12.5 s`. A position on the chart's axis, as its ticks read, not
 * a duration (figures.ts `seconds`): a tooltip names the same instant the axis shows.
 */
export const seconds = (v: number) => `${Number(v.toPrecision(6))} s`;

export interface FaultInterval {
  /** The toxic's name, or 'proxy disabled'. */
  target: string;
  t0: number;
  t1: number;
  detail: string;
  kind: 'toxic' | 'disabled';
}

/** Turns the event list into intervals (a fault still in place at the end lasts to `endMs`) and instants (restarts). */
export function faultIntervals(
  events: FaultEvent[],
  endMs: number,
): { intervals: FaultInterval[]; restarts: FaultEvent[] } {
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
      open.set(`toxic:${e.target}`, {
        target: e.target,
        t0: e.t,
        t1: endMs,
        detail: e.detail ?? e.target,
        kind: 'toxic',
      });
    } else if (e.action === 'remove') close(`toxic:${e.target}`, e.t);
    else if (e.action === 'disable') {
      if (!open.has('disabled'))
        open.set('disabled', {
          target: 'proxy disabled',
          t0: e.t,
          t1: endMs,
          detail: 'proxy disabled: connections cut and refused',
          kind: 'disabled',
        });
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
    markers: restarts.map((r) => ({
      x: r.t / 1000,
      label: `agent restarted (kill -9) at ${seconds(r.t / 1000)}${r.detail ? `: ${r.detail}` : ''}`,
      color: RESTART_COLOR,
    })),
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

/** The x axis of every chart over a scenario's time: 0 to its end (or its last data), in seconds. */
export function timeAxis(s: ScenarioResult): Axis {
  const ends = [
    s.durationMs,
    ...(s.timeline ? s.timeline.points.map((p) => p.t + s.timeline!.bucketMs) : []),
    ...(s.traffic?.points ?? []).map((p) => p.t + s.traffic!.bucketMs),
    ...(s.faultEvents ?? []).map((e) => e.t),
    ...Object.entries(s.series ?? {})
      .filter(([name]) => name.endsWith('_vs_s'))
      .flatMap(([, points]) => points.map((p) => p.x * 1000)),
  ].filter((v) => Number.isFinite(v));
  return { label: 'seconds since the scenario started', min: 0, max: Math.max(0.001, ...ends) / 1000 };
}

const LABELS = /^([^{]*)\{(.*)\}$/;

/** `round_trip{rate=40}` → base `round_trip`, labels {rate: '40'}. */
export function splitLabels(key: string): { base: string; labels: Record<string, string> } {
  const m = LABELS.exec(key);
  if (!m) return { base: key, labels: {} };
  const labels: Record<string, string> = {};
  for (const pair of m[2]!.split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) labels[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return { base: m[1]!, labels };
}

const STEP_COLORS = ['rgba(78, 121, 167, 0.07)', 'rgba(78, 121, 167, 0.15)'];

/**
 * The load's rate steps (capacity: `round_trip{rate=5}`, then `{rate=10}` …), from when each rate's
 * latencies were recorded: one span per rate, labelled `5/s`, shaded in alternation. Empty when the
 * scenario recorded no `rate` label.
 */
export function rateSteps(s: ScenarioResult): Span[] {
  const timeline = s.timeline;
  if (!timeline) return [];
  const windows = new Map<string, { t0: number; t1: number }>();
  for (const p of timeline.points) {
    const rate = splitLabels(p.metric).labels.rate;
    if (rate === undefined) continue;
    const w = windows.get(rate);
    const end = p.t + timeline.bucketMs;
    if (!w) windows.set(rate, { t0: p.t, t1: end });
    else {
      w.t0 = Math.min(w.t0, p.t);
      w.t1 = Math.max(w.t1, end);
    }
  }
  const steps = [...windows.entries()].sort((a, b) => a[1].t0 - b[1].t0);
  return steps.map(([rate, w], i) => {
    // A step ends where the next begins (their boundary bucket holds both).
    const next = steps[i + 1]?.[1].t0;
    const t1 = next !== undefined && next < w.t1 ? next : w.t1;
    return {
      x0: w.t0 / 1000,
      x1: t1 / 1000,
      label: 'offered rate step',
      text: `${rate}/s`,
      title: `offered ${rate}/s: ${seconds(w.t0 / 1000)} → ${seconds(t1 / 1000)}`,
      color: STEP_COLORS[i % 2]!,
    };
  });
}

/** Every shading of a chart over the scenario's time: rate steps, faults in place, attacks. */
export function timeOverlay(s: ScenarioResult): { spans: Span[]; markers: Marker[] } {
  const { spans, markers } = faultOverlay(s);
  return { spans: [...rateSteps(s), ...spans, ...attackSpans(s)], markers };
}
