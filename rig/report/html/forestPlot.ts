// The comparison as a forest plot (report.html): one line per compared row with its interval on
// current / baseline, on a log axis so ×2 and ×0.5 are as far from ×1, over the row's own
// no-change band (±its tolerance). A reader sees at a glance which rows cleared their threshold,
// which sat inside it, and which straddled it (inconclusive) and by how much.
import { html, type SafeHtml } from './safeHtml.ts';
import { clip, fmt, logTicks, px } from './charts/chartScale.ts';
import { ratioText, type CompareRow } from '../compare/compareRow.ts';

const ROW = 22;
const LABEL = 300;
const WIDTH = 1060;
const RIGHT = 110;
const COLOR: Record<string, string> = {
  regression: '#c0392b',
  improvement: '#2e7d32',
  'no change': '#4e79a7',
  inconclusive: '#b07aa1',
};

/** A row's no-change band: [1 / (1 + t), 1 + t] for a latency (t > 0), [1 + t, 1 / (1 + t)] for a throughput. */
function band({ tolerance: t }: CompareRow): [number, number] | undefined {
  if (t === undefined) return undefined;
  return t > 0 ? [1 / (1 + t), 1 + t] : [1 + t, 1 / (1 + t)];
}

export function forestPlot(rows: readonly CompareRow[]): SafeHtml | null {
  const shown = rows.filter((r) => r.interval && Number.isFinite(r.interval.lo) && Number.isFinite(r.interval.hi));
  if (shown.length === 0) return null;
  const ends = shown.flatMap((r) => [r.interval!.lo, r.interval!.hi, ...(band(r) ?? [])]).filter((v) => v > 0);
  const lo = Math.min(0.8, ...ends) / 1.05;
  const hi = Math.max(1.25, ...ends) * 1.05;
  const x = (v: number) =>
    LABEL + ((Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo))) * (WIDTH - LABEL - RIGHT);
  const height = shown.length * ROW + 36;
  const ticks = logTicks(lo, hi).filter((t) => t >= lo && t <= hi);
  return html`<svg class="chart forest" viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-label="current / baseline with 95 % intervals, one line per row">
${ticks.map((t) => html`<line x1="${px(x(t))}" x2="${px(x(t))}" y1="0" y2="${shown.length * ROW}" class="grid"/><text x="${px(x(t))}" y="${shown.length * ROW + 14}" text-anchor="middle" class="tick">×${fmt(t)}</text>`)}
<line x1="${px(x(1))}" x2="${px(x(1))}" y1="0" y2="${shown.length * ROW}" stroke="#333"/>
<text x="${px((LABEL + WIDTH - RIGHT) / 2)}" y="${shown.length * ROW + 30}" text-anchor="middle" class="axis">current / baseline (log scale; shaded: no-change band ± tolerance)</text>
${shown.map((r, i) => {
  const y = i * ROW + ROW / 2;
  const b = band(r);
  const color = COLOR[r.result] ?? '#777';
  return html`<g><title>${r.scenario} ${r.measure}: ${ratioText(r)} — ${r.result}</title>
<text x="${LABEL - 8}" y="${px(y + 4)}" text-anchor="end" class="tick">${clip(`${r.scenario} ${r.measure}`, 44)}</text>
${b ? html`<rect x="${px(x(b[0]))}" y="${px(y - 8)}" width="${px(x(b[1]) - x(b[0]))}" height="16" fill="rgba(78,121,167,0.12)"/>` : null}
<line x1="${px(x(r.interval!.lo))}" x2="${px(x(r.interval!.hi))}" y1="${px(y)}" y2="${px(y)}" stroke="${color}" stroke-width="2"/>
${r.ratio !== null && r.ratio > 0 ? html`<circle cx="${px(x(r.ratio))}" cy="${px(y)}" r="4" fill="${color}"/>` : null}
<text x="${WIDTH - RIGHT + 8}" y="${px(y + 4)}" class="tick" fill="${color}">${r.result}</text></g>`;
})}
</svg>`;
}
