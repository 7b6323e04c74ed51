// A scenario's measured curves (`series` in results.json, e.g. capacity: p95 against offered rate),
// each as a chart with its points' other fields in the tooltip and in a table. A series is named
// `<y>_vs_<x>` with units in the names, which become the axis labels. A series over time (`_vs_s`:
// seconds since the scenario started, e.g. the DoS scenarios' agent_rss_mb_vs_s) is drawn with the
// attack windows shaded, on the scenario's whole time axis.
import type { ScenarioResult, SeriesPoint } from '../../../results/runResult.ts';
import { html, type SafeHtml } from '../safeHtml.ts';
import { CAPACITY_SERIES } from '../../../load/capacitySlo.ts';
import { PALETTE } from './chartColors.ts';
import { timeAxis, timeOverlay } from './timeOverlay.ts';
import { xyChart } from './svgChart.ts';

const UNITS: Array<[RegExp, string]> = [
  [/_per_s$/, ' (/s)'],
  [/_ms$/, ' (ms)'],
  [/_us$/, ' (µs)'],
  [/_bytes$/, ' (bytes)'],
  [/_mb$/, ' (MB)'],
  [/_pct$/, ' (%)'],
];

const OVER_TIME = '_vs_s';

/** `round_trip_p95_ms` → `round trip p95 (ms)`. */
export function axisLabel(name: string): string {
  for (const [suffix, unit] of UNITS)
    if (suffix.test(name)) return `${name.replace(suffix, '').replaceAll('_', ' ')}${unit}`;
  return name.replaceAll('_', ' ');
}

export function seriesAxes(name: string): { x: string; y: string } {
  if (name.endsWith(OVER_TIME))
    return { x: 'seconds since the scenario started', y: axisLabel(name.slice(0, -OVER_TIME.length)) };
  const at = name.lastIndexOf('_vs_');
  return at < 0
    ? { x: 'x', y: axisLabel(name) }
    : { x: axisLabel(name.slice(at + 4)), y: axisLabel(name.slice(0, at)) };
}

// A series point's own fields, of any unit the scenario chose: shown as recorded (trimmed), since
// only the scenario knows whether it is a count, a rate or a latency (figures.ts prints known kinds).
const value = (v: number | string | boolean) => (typeof v === 'number' ? String(Number(v.toPrecision(6))) : String(v));

function extraFields(points: SeriesPoint[]): string[] {
  return [...new Set(points.flatMap((p) => Object.keys(p).filter((k) => k !== 'x' && k !== 'y')))];
}

function pointTitle(p: SeriesPoint, axes: { x: string; y: string }, fields: string[]): string {
  return [
    `${axes.x} ${value(p.x)}`,
    `${axes.y} ${value(p.y)}`,
    ...fields.filter((f) => p[f] !== undefined).map((f) => `${f.replaceAll('_', ' ')} ${value(p[f])}`),
  ].join(', ');
}

/**
 * `overTime`: only the series over time (true; drawn as strips on the scenario's time axis, under
 * its shading), only the others (false), or all (undefined). The capacity curve is drawn by
 * capacityCharts.ts, not here.
 */
export function seriesCharts(s: ScenarioResult, overTime?: boolean): SafeHtml[] {
  return Object.entries(s.series ?? {})
    .filter(
      ([name, points]) =>
        points.length > 0 &&
        name !== CAPACITY_SERIES &&
        (overTime === undefined || name.endsWith(OVER_TIME) === overTime),
    )
    .map(([name, points], i) => {
      const axes = seriesAxes(name);
      const fields = extraFields(points);
      const color = PALETTE[(i + 2) % PALETTE.length];
      // A point the scenario marked unsustainable (errors, drops, late starts) is drawn apart.
      const unsustainable = points.filter((p) => p.sustainable === false);
      const overTime = name.endsWith(OVER_TIME);
      return xyChart({
        id: overTime ? name : 'series',
        title: overTime ? `${axes.y} over time` : `${axes.y} against ${axes.x}`,
        ...(overTime ? { size: 'strip' as const } : {}),
        x: overTime ? timeAxis(s) : { label: axes.x, min: Math.min(0, ...points.map((p) => p.x)) },
        y: { label: axes.y, min: 0 },
        series: [
          { name: axes.y, color, points: points.map((p) => ({ x: p.x, y: p.y, title: pointTitle(p, axes, fields) })) },
          ...(unsustainable.length
            ? [
                {
                  name: 'not sustained',
                  color: '#c62828',
                  kind: 'points' as const,
                  points: unsustainable.map((p) => ({ x: p.x, y: p.y, title: pointTitle(p, axes, fields) })),
                },
              ]
            : []),
        ],
        ...(overTime ? timeOverlay(s) : {}),
      });
    });
}

/** The points of every series as tables (for the scenario's details). */
export function seriesTables(s: ScenarioResult): SafeHtml[] {
  return Object.entries(s.series ?? {})
    .filter(([, points]) => points.length > 0)
    .map(([name, points]) => {
      const axes = seriesAxes(name);
      const fields = extraFields(points);
      return html`<h4>${axes.y} against ${axes.x}</h4><table class="series"><thead><tr><th>${axes.x}</th><th>${axes.y}</th>${fields.map((f) => html`<th>${f.replaceAll('_', ' ')}</th>`)}</tr></thead><tbody>${points.map(
        (p) =>
          html`<tr><td class="num">${value(p.x)}</td><td class="num">${value(p.y)}</td>${fields.map((f) => html`<td class="num">${p[f] === undefined ? '' : value(p[f])}</td>`)}</tr>`,
      )}</tbody></table>`;
    });
}
