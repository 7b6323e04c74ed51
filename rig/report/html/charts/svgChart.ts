// Charts as inline SVG, drawn here in TypeScript when the report is written: the page needs no
// script and no network to show them, and a Content-Security-Policy can forbid both. Hand-written
// rather than an embedded charting library, since the report needs only two shapes (an XY chart
// with lines, points, shaded spans and markers; and a lane chart for the faults timeline) and a
// library would bring a runtime script into a page that otherwise has none.
import { html, type SafeHtml } from '../safeHtml.ts';
import {
  CHART_HEIGHT,
  CHART_WIDTH,
  PAD,
  STRIP_BOTTOM,
  clip,
  extent,
  fmt,
  logTicks,
  niceTicks,
  px,
  type Axis,
  type ChartSize,
  type Tick,
} from './chartScale.ts';

export interface Series {
  name: string;
  color: string;
  points: Array<{ x: number; y: number; title?: string }>;
  /** Line through the points (default), or points only. */
  kind?: 'line' | 'points';
  dashed?: boolean;
}

/** A shaded stretch of x (a fault in place, an attack running). */
export interface Span {
  x0: number;
  x1: number;
  /** The legend's entry and the tooltip. */
  label: string;
  color: string;
  /** Written inside the span at its top (an attack's name), so the chart says what the shading is without a hover. */
  text?: string;
  /** The tooltip when it should say more than the legend (the attack's rate and params). */
  title?: string;
}

/** A vertical line at x (a restart, a disabled proxy). */
export interface Marker {
  x: number;
  label: string;
  color: string;
  /** Written beside the line at the top of the plot (a breaking point), so it reads without a hover. */
  text?: string;
}

/** A horizontal line at y (an SLO), its label written at the right end inside the plot. */
export interface Rule {
  y: number;
  label: string;
  color: string;
}

/** A shaded area between two curves over the same xs (a p50–p99 band). */
export interface Band {
  name: string;
  color: string;
  points: Array<{ x: number; lo: number; hi: number; title?: string }>;
}

export interface XYChart {
  /** Names the chart for tests and styles (data-chart). */
  id: string;
  title: string;
  x: Axis;
  y: Axis;
  series: Series[];
  spans?: Span[];
  markers?: Marker[];
  rules?: Rule[];
  bands?: Band[];
  size?: ChartSize;
  /** A line under the title (what the chart leaves out, a sample-size note). */
  note?: string;
}

function legend(items: Array<{ name: string; color: string; dashed?: boolean; shaded?: boolean }>): SafeHtml {
  return html`<ul class="legend">${items.map(
    (i) =>
      html`<li><span class="swatch${i.shaded ? ' shaded' : ''}${i.dashed ? ' dashed' : ''}" style="--c:${i.color}"></span>${i.name}</li>`,
  )}</ul>`;
}

/** Where the chart's values land: the plot's box, the scales, and the y ticks that fix them. */
interface Plot {
  size: ChartSize;
  width: number;
  height: number;
  plotW: number;
  plotH: number;
  x0: number;
  x1: number;
  sx: (x: number) => number;
  sy: (y: number) => number;
  yTicks: number[];
}

/** A log y scale from the decade below the least positive value to the decade above the most. */
function logY(ys: number[], size: ChartSize, plotH: number): Pick<Plot, 'sy' | 'yTicks'> {
  const positive = ys.filter((y) => y > 0);
  const lo = 10 ** Math.floor(Math.log10(Math.min(...positive, 1)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...positive, lo * 10)));
  // A strip has room for a tick per decade only.
  const yTicks =
    size === 'strip'
      ? logTicks(lo, hi).filter((v) => Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9)
      : logTicks(lo, hi);
  const [l0, l1] = [Math.log10(lo), Math.log10(hi)];
  return { yTicks, sy: (y) => PAD.top + plotH - ((Math.log10(Math.max(y, lo)) - l0) / (l1 - l0)) * plotH };
}

/** A linear y scale from 0 (or the axis' own bounds) up to a labelled tick at or above the data. */
function linearY(ys: number[], axis: Axis, size: ChartSize, plotH: number): Pick<Plot, 'sy' | 'yTicks'> {
  const [y0, y1raw] = extent([0, ...ys], axis);
  const yTicks = axis.ticks?.map((t) => t.value) ?? niceTicks(y0, y1raw, size === 'strip' ? 3 : 6);
  // The top of the plot is a labelled tick: one step above the data when it ends between two.
  const last = yTicks[yTicks.length - 1];
  if (!axis.ticks && axis.max === undefined && yTicks.length > 1 && last < y1raw)
    yTicks.push(Number((2 * last - yTicks[yTicks.length - 2]).toPrecision(12)));
  const y1 = axis.max ?? Math.max(y1raw, yTicks[yTicks.length - 1] ?? y1raw);
  return { yTicks, sy: (y) => PAD.top + plotH - ((y - y0) / (y1 - y0)) * plotH };
}

function plotOf(chart: XYChart): Plot {
  const size = chart.size ?? 'half';
  const [width, height] = [CHART_WIDTH[size], CHART_HEIGHT[size]];
  const bottom = size === 'strip' ? STRIP_BOTTOM : PAD.bottom;
  const all = chart.series.flatMap((s) => s.points);
  const bandPoints = (chart.bands ?? []).flatMap((b) => b.points);
  const ys = [
    ...all.map((p) => p.y),
    ...bandPoints.flatMap((p) => [p.lo, p.hi]),
    ...(chart.rules ?? []).map((r) => r.y),
  ];
  const xs = [
    ...all.map((p) => p.x),
    ...bandPoints.map((p) => p.x),
    ...(chart.spans ?? []).flatMap((s) => [s.x0, s.x1]),
    ...(chart.markers ?? []).map((m) => m.x),
  ];
  const [x0, x1] = extent(xs, chart.x);
  const plotW = width - PAD.left - PAD.right;
  const plotH = height - PAD.top - bottom;
  const sx = (x: number) => PAD.left + ((x - x0) / (x1 - x0)) * plotW;
  const y = chart.y.log ? logY(ys, size, plotH) : linearY(ys, chart.y, size, plotH);
  return { size, width, height, plotW, plotH, x0, x1, sx, ...y };
}

function gridLayer(chart: XYChart, p: Plot): SafeHtml[] {
  const xTicks: Tick[] =
    chart.x.ticks ??
    niceTicks(p.x0, p.x1, p.size === 'half' ? 6 : 12).map((value) => ({
      value,
      label: (chart.x.format ?? fmt)(value),
    }));
  const yFormat = chart.y.format ?? fmt;
  return [
    ...p.yTicks.map(
      (v) =>
        html`<line class="grid" x1="${PAD.left}" x2="${p.width - PAD.right}" y1="${px(p.sy(v))}" y2="${px(p.sy(v))}"/><text class="tick" x="${PAD.left - 6}" y="${px(p.sy(v) + 4)}" text-anchor="end">${yFormat(v)}</text>`,
    ),
    ...xTicks
      .filter((t) => t.value >= p.x0 && t.value <= p.x1)
      .map(
        (t) =>
          html`<line class="grid" x1="${px(p.sx(t.value))}" x2="${px(p.sx(t.value))}" y1="${PAD.top}" y2="${PAD.top + p.plotH}"/><text class="tick" x="${px(p.sx(t.value))}" y="${PAD.top + p.plotH + 16}" text-anchor="middle">${t.label}</text>`,
      ),
  ];
}

function spanLayer(spans: Span[], p: Plot): SafeHtml[] {
  // A span's label goes on the first line (of three) where it overlaps no label before it.
  const lineEnds = [-Infinity, -Infinity, -Infinity];
  return spans.map((s) => {
    let line = 0;
    if (s.text) {
      const x = p.sx(s.x0) + 4;
      const found = lineEnds.findIndex((end) => end <= x);
      line = found < 0 ? lineEnds.indexOf(Math.min(...lineEnds)) : found;
      lineEnds[line] = x + clip(s.text, 40).length * 7 + 6;
    }
    return html`<rect class="span" x="${px(p.sx(s.x0))}" y="${PAD.top}" width="${px(Math.max(1, p.sx(s.x1) - p.sx(s.x0)))}" height="${p.plotH}" fill="${s.color}"><title>${s.title ?? s.label}</title></rect>${
      s.text
        ? html`<text class="span-label" x="${px(p.sx(s.x0) + 4)}" y="${PAD.top + 13 + 13 * line}">${clip(s.text, 40)}<title>${s.title ?? s.label}</title></text>`
        : null
    }`;
  });
}

function markerLayer(markers: Marker[], p: Plot): SafeHtml[] {
  return markers.map(
    (m) =>
      html`<line class="marker" x1="${px(p.sx(m.x))}" x2="${px(p.sx(m.x))}" y1="${PAD.top}" y2="${PAD.top + p.plotH}" stroke="${m.color}"><title>${m.label}</title></line>${
        // Written on the side of the line with room: left of it in the plot's right half.
        m.text
          ? html`<text class="marker-label" x="${px(p.sx(m.x) + (p.sx(m.x) > PAD.left + p.plotW / 2 ? -4 : 4))}" y="${PAD.top + 13}" text-anchor="${p.sx(m.x) > PAD.left + p.plotW / 2 ? 'end' : 'start'}" fill="${m.color}">${clip(m.text, 40)}<title>${m.label}</title></text>`
          : null
      }`,
  );
}

function ruleLayer(rules: Rule[], p: Plot): SafeHtml[] {
  return rules.map(
    (r) =>
      html`<line class="rule" x1="${PAD.left}" x2="${p.width - PAD.right}" y1="${px(p.sy(r.y))}" y2="${px(p.sy(r.y))}" stroke="${r.color}"><title>${r.label}</title></line><text class="rule-label" x="${p.width - PAD.right - 4}" y="${px(p.sy(r.y) - 4)}" text-anchor="end" fill="${r.color}">${r.label}</text>`,
  );
}

function bandLayer(bands: Band[], p: Plot): Array<SafeHtml | null> {
  return bands.map((b) => {
    if (b.points.length < 2) return null;
    const upper = b.points.map((q) => `${px(p.sx(q.x))},${px(p.sy(q.hi))}`);
    const lower = [...b.points].reverse().map((q) => `${px(p.sx(q.x))},${px(p.sy(q.lo))}`);
    return html`<polygon class="band" points="${[...upper, ...lower].join(' ')}" fill="${b.color}"><title>${b.name}</title></polygon>`;
  });
}

function seriesLayer(chart: XYChart, p: Plot): SafeHtml[] {
  const yFormat = chart.y.format ?? fmt;
  return chart.series.map((s) => {
    const pts = s.points.map((q) => ({ ...q, cx: p.sx(q.x), cy: p.sy(q.y) }));
    const path =
      s.kind === 'points' || pts.length < 2
        ? null
        : html`<path class="series" d="${pts.map((q, i) => `${i ? 'L' : 'M'}${px(q.cx)},${px(q.cy)}`).join('')}" stroke="${s.color}"${s.dashed ? html` stroke-dasharray="5 4"` : ''}/>`;
    const dots = pts.map(
      (q) =>
        html`<circle class="point" cx="${px(q.cx)}" cy="${px(q.cy)}" r="${s.kind === 'points' ? 3.5 : 2.2}" fill="${s.color}"><title>${s.name}: ${q.title ?? `${fmt(q.x)}, ${yFormat(q.y)}`}</title></circle>`,
    );
    return html`<g class="series-group">${path}${dots}</g>`;
  });
}

function legendItems(chart: XYChart): Array<{ name: string; color: string; dashed?: boolean; shaded?: boolean }> {
  return [
    ...chart.series.map((s) => ({ name: s.name, color: s.color, dashed: s.dashed })),
    ...(chart.bands ?? []).map((b) => ({ name: b.name, color: b.color, shaded: true })),
    ...unique(chart.spans ?? [])
      .filter((s) => !s.text || s.label !== s.text)
      .map((s) => ({ name: s.label, color: s.color, shaded: true })),
    ...(chart.rules ?? []).map((r) => ({ name: r.label, color: r.color, dashed: true })),
  ];
}

export function xyChart(chart: XYChart): SafeHtml {
  const p = plotOf(chart);
  const { size, width: WIDTH, height: HEIGHT, plotW, plotH } = p;
  const grid = gridLayer(chart, p);
  const spans = spanLayer(chart.spans ?? [], p);
  const markers = markerLayer(chart.markers ?? [], p);
  const rules = ruleLayer(chart.rules ?? [], p);
  const bands = bandLayer(chart.bands ?? [], p);
  const series = seriesLayer(chart, p);
  return html`<figure class="chart ${size}">
<figcaption>${chart.title}${chart.note ? html` <span class="chart-note">${chart.note}</span>` : null}</figcaption>
<svg data-chart="${chart.id}" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" xmlns="http://www.w3.org/2000/svg"><title>${chart.title}</title>
${grid}${spans}${bands}${markers}${rules}
<rect class="frame" x="${PAD.left}" y="${PAD.top}" width="${plotW}" height="${plotH}"/>
${series}
${size === 'strip' ? null : html`<text class="axis-label" x="${PAD.left + plotW / 2}" y="${HEIGHT - 6}" text-anchor="middle">${chart.x.label}</text>`}
<text class="axis-label" transform="translate(14 ${PAD.top + plotH / 2}) rotate(-90)" text-anchor="middle">${clip(chart.y.label, Math.floor(plotH / 7))}<title>${chart.y.label}</title></text>
</svg>
${legend(legendItems(chart))}
</figure>`;
}

function unique(spans: Span[]): Span[] {
  const seen = new Set<string>();
  return spans.filter((s) => !seen.has(s.label) && seen.add(s.label));
}
