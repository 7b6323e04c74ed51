// The capacity search as report.html shows it: what was found (a capacity, a cap reached, or no
// sustainable rate) for the headline, and the curve: p95 against the offered rate with the
// p50–p99 band, the SLO's p95 bound as a line and the first unsustainable step marked, beside the
// achieved rate against the offered one. Read from the series `round_trip_p95_ms_vs_rate_per_s`
// (scenarios/capacity.ts: one point per step, in the order run, bisection probes included, so
// sorted by rate here; each with p50_ms, p99_ms, achieved_per_s, sustainable and, on a broken step,
// limit: agent or rig) and the scenario's params (sloP95Ms, maxRate, growth).
import type { ScenarioResult, SeriesPoint } from '../../../results/runResult.ts';
import type { SafeHtml } from '../safeHtml.ts';
import { PALETTE } from './chartColors.ts';
import { xyChart, type Marker, type Series } from './svgChart.ts';
import { millis } from '../../../figures.ts';

import { CAPACITY_SERIES, kneeOf } from '../../../load/capacitySlo.ts';
const BREAK_COLOR = '#c62828';
const SLO_COLOR = '#8a6d00';

export interface CapacityFinding {
  scenario: string;
  /**
   * broke: a step broke the SLO, `capacity` is the step before it (0: none held); cap: every step
   * held up to the profile's top rate, capacity is above it; budget: every step run held but the
   * time budget ended the search before the top rate; rig: the step that broke was the load
   * generator's limit, not the agent's (capacity is at least `capacity`, not judged).
   */
  kind: 'broke' | 'cap' | 'budget' | 'rig';
  /** The highest sustainable offered rate (/s), 0 when none was. */
  capacity: number;
  /** The first step that broke the SLO. */
  brokeAt?: SeriesPoint;
  /** The profile's highest rate (param maxRate), when known. */
  maxRate?: number;
  sloP95Ms?: number;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export function capacityFinding(s: ScenarioResult): CapacityFinding | undefined {
  const points = s.series?.[CAPACITY_SERIES];
  if (!points?.length) return undefined;
  const maxRate = num(s.params.maxRate);
  const growth = num(s.params.growth);
  const sloP95Ms = num(s.params.sloP95Ms);
  const known = {
    scenario: s.name,
    ...(maxRate !== undefined ? { maxRate } : {}),
    ...(sloP95Ms !== undefined ? { sloP95Ms } : {}),
  };
  const { held, broke } = kneeOf(points);
  if (broke)
    return { ...known, kind: broke.limit === 'rig' && held ? 'rig' : 'broke', capacity: held?.x ?? 0, brokeAt: broke };
  const last = held!.x;
  // The next step would have been past the top rate (geometricRates: round(rate × growth), at least +1).
  const next = growth !== undefined ? Math.max(last + 1, Math.round(last * growth)) : Infinity;
  const capped = maxRate === undefined || last >= maxRate || next > maxRate;
  return { ...known, kind: capped ? 'cap' : 'budget', capacity: last };
}

/** One line for the headline: `40/s`, `≥ 40/s (cap reached …)`, `none`. */
export function capacityText(f: CapacityFinding): { value: string; detail: string } {
  if (f.kind === 'broke') {
    const why = f.brokeAt && typeof f.brokeAt.y === 'number' ? `p95 ${millis(f.brokeAt.y)} ms` : '';
    const at = f.brokeAt ? `${f.brokeAt.x}/s` : '?';
    const vsSlo = f.sloP95Ms !== undefined ? ` vs ${f.sloP95Ms} ms` : '';
    const reason = why ? ` (${why}${vsSlo}, or errors/drops)` : '';
    return f.capacity > 0
      ? { value: `${f.capacity}/s`, detail: `the SLO broke at ${at}${reason}` }
      : { value: 'none', detail: `no sustainable rate: the SLO broke at the first step, ${at}` };
  }
  if (f.kind === 'rig')
    return {
      value: `≥ ${f.capacity}/s`,
      detail: `not judged: the load generator was the limit at ${f.brokeAt?.x ?? '?'}/s, not the agent`,
    };
  if (f.kind === 'cap')
    return {
      value: `≥ ${f.capacity}/s`,
      detail: `cap reached: the profile's top rate ${f.maxRate ?? f.capacity}/s passed, capacity is above it`,
    };
  return { value: `≥ ${f.capacity}/s`, detail: `the time budget ended the search at ${f.capacity}/s` };
}

const NOTES = {
  cap: 'every step held: capacity is above the top rate tried',
  budget: 'every step run held: the time budget ended the search',
  rig: 'the step that broke was the load generator’s limit: the agent’s capacity is not judged',
} as const;

const wide = (values: number[]) => {
  const positive = values.filter((v) => v > 0);
  return positive.length > 0 && Math.max(...positive) / Math.min(...positive) > 30;
};

/** A step's hover text: its rate, p95, every field it recorded, and whether it held the SLO. */
function stepTitle(p: SeriesPoint): string {
  return [
    `${p.x}/s offered`,
    `p95 ${millis(p.y)} ms`,
    ...['p50_ms', 'p99_ms', 'service_p95_ms', 'achieved_per_s', 'drained', 'arrivals', 'errors', 'dropped', 'late']
      .concat(['schedule_lag_p99_ms', 'loop_delay_max_ms', 'peak_in_flight'])
      .concat(['rig_cpu_us_per_round_trip', 'agent_cpu_us_per_round_trip', 'rig_bounds', 'rig_saturated'])
      .filter((k) => p[k] !== undefined)
      .map((k) => `${k.replaceAll('_', ' ')} ${p[k]}`),
    p.sustainable === false ? `breaks the SLO${p.limit === 'rig' ? ' by the rig' : ''}` : 'sustainable',
  ].join(', ');
}

/** The steps that broke the SLO as red points at `y`, or no series when none broke. */
function brokenSteps(unsustainable: SeriesPoint[], y: (p: SeriesPoint) => number | undefined): Series[] {
  if (!unsustainable.length) return [];
  const points = unsustainable
    .filter((p) => y(p) !== undefined)
    .map((p) => ({ x: p.x, y: y(p)!, title: stepTitle(p) }));
  return [{ name: 'breaks the SLO', color: BREAK_COLOR, kind: 'points' as const, points }];
}

/** The marker where the SLO broke, when it did. */
function breakMarkers(finding: CapacityFinding): Marker[] {
  if (!finding.brokeAt) return [];
  const byRig = finding.kind === 'rig' ? ' (the rig was the limit)' : '';
  const at = finding.brokeAt.x;
  return [
    { x: at, label: `the SLO broke at ${at}/s${byRig}`, text: `SLO broke at ${at}/s${byRig}`, color: BREAK_COLOR },
  ];
}

/** p95 against the offered rate, the p50–p99 band, the SLO and where it broke. */
function curveChart(points: SeriesPoint[], finding: CapacityFinding, markers: Marker[]): SafeHtml {
  const banded = points.filter((p) => num(p.p50_ms) !== undefined && num(p.p99_ms) !== undefined);
  const rules =
    finding.sloP95Ms !== undefined
      ? [{ y: finding.sloP95Ms, label: `SLO: p95 ≤ ${finding.sloP95Ms} ms`, color: SLO_COLOR }]
      : [];
  const unsustainable = points.filter((p) => p.sustainable === false);
  const series: Series[] = [
    { name: 'p95', color: PALETTE[0]!, points: points.map((p) => ({ x: p.x, y: p.y, title: stepTitle(p) })) },
    ...brokenSteps(unsustainable, (p) => p.y),
  ];
  const allY = [
    ...points.map((p) => p.y),
    ...banded.flatMap((p) => [num(p.p50_ms)!, num(p.p99_ms)!]),
    ...rules.map((r) => r.y),
  ];
  const band = {
    name: 'p50–p99',
    color: 'rgba(78, 121, 167, 0.18)',
    points: banded.map((p) => ({ x: p.x, lo: num(p.p50_ms)!, hi: num(p.p99_ms)! })),
  };
  return xyChart({
    id: 'capacity-curve',
    title: 'Round trip latency against offered rate',
    ...(finding.kind !== 'broke' ? { note: NOTES[finding.kind] } : {}),
    x: { label: 'offered rate (round trips/s)', min: 0 },
    y: { label: 'round trip (ms)', min: 0, log: wide(allY) },
    series,
    bands: banded.length >= 2 ? [band] : [],
    rules,
    markers,
  });
}

/** The achieved rate against the offered one, beside the line where they are equal. */
function achievedChart(points: SeriesPoint[], achieved: SeriesPoint[], markers: Marker[]): SafeHtml {
  const top = Math.max(...points.map((p) => p.x));
  const ideal = [
    { x: 0, y: 0, title: 'ideal' },
    { x: top, y: top, title: 'ideal' },
  ];
  const unsustainable = points.filter((p) => p.sustainable === false);
  return xyChart({
    id: 'capacity-achieved',
    title: 'Achieved rate against offered rate',
    x: { label: 'offered rate (round trips/s)', min: 0 },
    y: { label: 'achieved (round trips/s)', min: 0 },
    series: [
      { name: 'offered = achieved', color: '#9aa3ad', dashed: true, points: ideal },
      {
        name: 'achieved',
        color: PALETTE[2]!,
        points: achieved.map((p) => ({ x: p.x, y: num(p.achieved_per_s)!, title: stepTitle(p) })),
      },
      ...brokenSteps(unsustainable, (p) => num(p.achieved_per_s)),
    ],
    markers,
  });
}

/** The curve and the achieved rate, for a scenario that measured the capacity series; [] otherwise. */
export function capacityCharts(s: ScenarioResult): SafeHtml[] {
  const run = s.series?.[CAPACITY_SERIES];
  const finding = capacityFinding(s);
  if (!run?.length || !finding) return [];
  const points = kneeOf(run).sorted;
  const markers = breakMarkers(finding);
  const curve = curveChart(points, finding, markers);
  const achieved = points.filter((p) => num(p.achieved_per_s) !== undefined);
  return achieved.length === 0 ? [curve] : [curve, achievedChart(points, achieved, markers)];
}
