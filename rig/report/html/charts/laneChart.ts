// The lane chart of the report: which fault was in place when, one lane per fault over a scenario's
// time, as inline SVG (svgChart.ts says why hand-written).
import { html, type SafeHtml } from '../safeHtml.ts';
import { CHART_WIDTH, PAD, clip, extent, fmt, niceTicks, px, type Axis } from './chartScale.ts';

export interface Lane {
  label: string;
  bars: Array<{ x0: number; x1: number; color: string; title: string }>;
  /** Instants (a restart): a diamond at x. */
  instants: Array<{ x: number; color: string; title: string }>;
}

/**
 * Lanes over a shared x axis: which fault was in place when (the toxics timeline). Drawn `wide`:
 * the same plot area left and right as the charts over time above it, so a fault lines up with
 * the latency it caused; each lane's name is written above its bars, inside the plot.
 */
export function laneChart(chart: { id: string; title: string; x: Axis; lanes: Lane[] }): SafeHtml {
  const laneH = 36;
  const WIDTH = CHART_WIDTH.wide;
  const height = PAD.top + chart.lanes.length * laneH + 38;
  const plotW = WIDTH - PAD.left - PAD.right;
  const [x0, x1] = extent(
    [0, ...chart.lanes.flatMap((l) => [...l.bars.flatMap((b) => [b.x0, b.x1]), ...l.instants.map((i) => i.x)])],
    chart.x,
  );
  const sx = (x: number) => PAD.left + ((x - x0) / (x1 - x0)) * plotW;
  const bottom = PAD.top + chart.lanes.length * laneH;
  const ticks = niceTicks(x0, x1, 12).map(
    (v) =>
      html`<line class="grid" x1="${px(sx(v))}" x2="${px(sx(v))}" y1="${PAD.top}" y2="${bottom}"/><text class="tick" x="${px(sx(v))}" y="${bottom + 16}" text-anchor="middle">${(chart.x.format ?? fmt)(v)}</text>`,
  );
  const bar = (b: Lane['bars'][number], y: number) => {
    const width = px(Math.max(2, sx(b.x1) - sx(b.x0)));
    const box = html`x="${px(sx(b.x0))}" y="${y + 19}" width="${width}" height="${laneH - 23}"`;
    return html`<rect class="bar" ${box} rx="3" fill="${b.color}"><title>${b.title}</title></rect>`;
  };
  const instant = (m: Lane['instants'][number], y: number) => {
    const diamond = `M${px(sx(m.x))},${y + 17}l7,8l-7,8l-7,-8z`;
    return html`<path class="instant" d="${diamond}" fill="${m.color}"><title>${m.title}</title></path>`;
  };
  const lanes = chart.lanes.map((lane, i) => {
    const y = PAD.top + i * laneH;
    // The page's bytes stay as they were: Prettier would join the two lines below into one.
    // prettier-ignore
    return html`<g class="lane"
      ><text class="lane-label" x="${PAD.left + 6}" y="${y + 14}"
        >${clip(lane.label, 90)}<title>${lane.label}</title></text
      >
      ${lane.bars.map((b) => bar(b, y))}
      ${lane.instants.map((m) => instant(m, y))}</g
    >`;
  });
  return html`<figure class="chart wide">
<figcaption>${chart.title}</figcaption>
<svg data-chart="${chart.id}" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" xmlns="http://www.w3.org/2000/svg"><title>${chart.title}</title>
${ticks}
<rect class="frame" x="${PAD.left}" y="${PAD.top}" width="${plotW}" height="${bottom - PAD.top}"/>
${lanes}
<text class="axis-label" x="${PAD.left + plotW / 2}" y="${height - 6}" text-anchor="middle">${chart.x.label}</text>
</svg>
</figure>`;
}
