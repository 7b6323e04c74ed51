// A scenario's own traffic (results.json `traffic`: what the rig's client sent the agent) as
// report.html shows it: a totals line, throughput / errors / in-flight over time (strips on the
// scenario's time axis, under the same shading as its latency), and a table per A2A operation.
// Results written before traffic was recorded have none: each part then says "not recorded",
// never an empty chart.
import type { OperationStats, ScenarioResult, TrafficPoint } from '../../../results/runResult.ts';
import { bytes, count, microsAsMillis, percent, quantity, rate } from '../../../figures.ts';
import { html, type HtmlValue, type SafeHtml } from '../safeHtml.ts';
import { minSamplesFor, percentileShown } from '../../sampleSize.ts';
import { PALETTE } from './chartColors.ts';
import { timeAxis, timeOverlay } from './timeOverlay.ts';
import { xyChart, type Series } from './svgChart.ts';

const NOT_RECORDED =
  'not recorded (results written before a2a-rig recorded traffic, or the scenario sent nothing through its client)';
const ERROR_COLOR = '#d62728';
const OFFERED_COLOR = '#7f7f7f';

export function trafficTotals(s: ScenarioResult): SafeHtml {
  const t = s.traffic;
  if (!t) return html`<p class="totals none">Traffic: ${NOT_RECORDED}.</p>`;
  const { requests, bytesSent, bytesReceived } = t.totals;
  const durationS = s.durationMs / 1000;
  // Red only for no usable reply; a refusal is the agent answering (often what the scenario provoked).
  const failed = t.operations.reduce((a, o) => a + o.failed, 0);
  const refused = t.operations.reduce((a, o) => a + o.rpcErrors, 0);
  return html`<p class="totals"><span><strong>${count(requests)}</strong> requests</span><span>${durationS > 0 ? rate(requests / durationS) : '—'} mean</span><span class="${failed ? 'bad' : ''}"><strong>${count(failed)}</strong> failed (${percent(failed, requests)})</span><span><strong>${count(refused)}</strong> refused by the agent (${percent(refused, requests)})</span><span><strong>${bytes(bytesSent)}</strong> sent</span><span><strong>${bytes(bytesReceived)}</strong> received</span></p>`;
}

const perSecond = (t: { bucketMs: number }, n: number) => (n * 1000) / t.bucketMs;

type Traffic = NonNullable<ScenarioResult['traffic']>;

/** What every strip shares: the time axis and its shading, where a bucket sits and how it is named. */
interface Strips {
  t: Traffic;
  overlay: Pick<Parameters<typeof xyChart>[0], 'x' | 'spans' | 'markers'>;
  at: (p: TrafficPoint) => number;
  when: (p: TrafficPoint) => string;
}

function stripsOf(s: ScenarioResult, t: Traffic): Strips {
  const { spans, markers } = timeOverlay(s);
  const half = t.bucketMs / 2;
  return {
    t,
    overlay: { x: timeAxis(s), spans, markers },
    at: (p) => (p.t + half) / 1000,
    // Where on the time axis the bucket lies, as the axis reads (timeOverlay.ts), not a duration.
    when: (p) => `${Number((p.t / 1000).toPrecision(6))}–${Number(((p.t + t.bucketMs) / 1000).toPrecision(6))} s`,
  };
}

function strip(k: Strips, id: string, title: string, yLabel: string, series: Series[]): SafeHtml {
  const { x, spans, markers } = k.overlay;
  return xyChart({ id, size: 'strip', title, x, y: { label: yLabel, min: 0 }, series, spans, markers });
}

/** Requests completed per second, and an open-model load's offered and achieved iterations. */
function throughputChart(k: Strips): SafeHtml {
  const { t, at, when } = k;
  const open = t.points.filter((p) => p.offered !== undefined || p.achieved !== undefined);
  const completed: Series = {
    name: 'requests completed /s',
    color: PALETTE[0]!,
    points: t.points.map((p) => ({
      x: at(p),
      y: perSecond(t, p.completed),
      title: `${when(p)}: ${count(p.completed)} completed (${rate(perSecond(t, p.completed))}), ${count(p.errors)} errors`,
    })),
  };
  const offered: Series = {
    name: 'iterations offered /s',
    color: OFFERED_COLOR,
    dashed: true,
    points: open.map((p) => ({
      x: at(p),
      y: perSecond(t, p.offered ?? 0),
      title: `${when(p)}: ${p.offered ?? 0} offered`,
    })),
  };
  const achieved: Series = {
    name: 'iterations achieved /s',
    color: PALETTE[2]!,
    points: open.map((p) => ({
      x: at(p),
      y: perSecond(t, p.achieved ?? 0),
      title: `${when(p)}: ${p.achieved ?? 0} achieved of ${p.offered ?? 0} offered`,
    })),
  };
  const series = open.length ? [completed, offered, achieved] : [completed];
  return strip(k, 'throughput', `Throughput (${t.bucketMs} ms buckets)`, 'per s', series);
}

function errorsChart(k: Strips): SafeHtml {
  const { t, at, when } = k;
  const errors: Series = {
    name: 'errors /s',
    color: ERROR_COLOR,
    points: t.points.map((p) => ({
      x: at(p),
      y: perSecond(t, p.errors),
      title: `${when(p)}: ${count(p.errors)} of ${count(p.completed)} (${percent(p.errors, p.completed)})`,
    })),
  };
  return strip(k, 'errors', 'Errors (rpc errors and failed exchanges)', 'per s', [errors]);
}

function inFlightChart(k: Strips): SafeHtml {
  const { t, at, when } = k;
  const mean: Series = {
    name: 'mean',
    color: PALETTE[4]!,
    points: t.points.map((p) => ({
      x: at(p),
      y: p.inFlight,
      title: `${when(p)}: mean ${quantity(p.inFlight)}, most ${p.inFlightMax}`,
    })),
  };
  const most: Series = {
    name: 'most',
    color: PALETTE[4]!,
    dashed: true,
    points: t.points.map((p) => ({
      x: at(p),
      y: p.inFlightMax,
      title: `${when(p)}: most ${p.inFlightMax} open at once`,
    })),
  };
  return strip(k, 'in-flight', 'In flight (exchanges open at once)', 'open', [mean, most]);
}

/**
 * Throughput (requests/s; offered and achieved iterations/s for an open-model load), errors/s and
 * in-flight, one strip each.
 */
export function trafficCharts(s: ScenarioResult): SafeHtml[] {
  const t = s.traffic;
  if (!t || t.points.length === 0) return [];
  const k = stripsOf(s, t);
  return [throughputChart(k), errorsChart(k), inFlightChart(k)];
}

/** A percentile cell, or a dash saying why not when n does not carry it (sampleSize.ts). */
export function percentileCell(n: number, p: number, us: number): SafeHtml {
  if (n === 0) return html`<td class="num thin">—</td>`;
  if (!percentileShown(n, p))
    return html`<td class="num thin" title="n=${n}: p${p} needs n ≥ ${minSamplesFor(p)}">n&lt;${minSamplesFor(p)}</td>`;
  return html`<td class="num">${microsAsMillis(us)}</td>`;
}

function operationRow(o: OperationStats): SafeHtml {
  const m = o.latency;
  const bad = o.rpcErrors + o.failed;
  return html`<tr data-operation="${o.operation}"><td>${o.operation}</td><td class="num">${count(o.count)}</td><td class="num">${count(o.ok)}</td><td class="num">${count(o.rpcErrors)}</td><td class="num${o.failed ? ' bad' : ''}">${count(o.failed)}</td><td class="num">${percent(bad, o.count)}</td>${percentileCell(m.count, 50, m.p50)}${percentileCell(m.count, 95, m.p95)}${percentileCell(m.count, 99, m.p99)}<td class="num">${m.count ? microsAsMillis(m.max) : '—'}</td><td class="num">${bytes(o.bytesSent)}</td><td class="num">${bytes(o.bytesReceived)}</td></tr>`;
}

export function operationsTable(s: ScenarioResult): HtmlValue {
  const t = s.traffic;
  if (!t) return null;
  if (t.operations.length === 0) return html`<h4>Per operation</h4><p class="none">No operation recorded.</p>`;
  return html`<h4>Per operation (latency in ms)</h4><table class="operations"><thead><tr><th>operation</th><th>count</th><th>ok</th><th title="the agent answered with a JSON-RPC error or an HTTP error status">rpc errors</th><th title="no usable reply: transport error, timeout, unreadable reply">failed</th><th>error %</th><th>p50</th><th>p95</th><th>p99</th><th>max</th><th>sent</th><th>received</th></tr></thead><tbody>${t.operations.map(operationRow)}</tbody></table>`;
}
