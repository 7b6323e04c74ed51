// One scenario's section of report.html (htmlReport.ts): its verdict and reason, stack and notes,
// the totals of its traffic, its charts (curves, everything over its time on one x axis, the
// percentile distributions), the operations and DoS tables, its log, then every check with the
// params, counters, latency table and fault events behind a fold.
import {
  checkFailed,
  checkNotJudged,
  type CheckResult,
  type MetricResult,
  type ScenarioResult,
} from '../../results/runResult.ts';
import { checkWarned, levelText, warningsCount } from '../../results/checkResult.ts';
import { capacityCharts } from './charts/capacityCharts.ts';
import { dosTables } from './dosTables.ts';
import { count, microsAsMillis, seconds } from '../../figures.ts';
import { html, type HtmlValue, type SafeHtml } from './safeHtml.ts';
import { faultsTimelineChart, latencyOverTimeCharts, percentileCharts } from './charts/scenarioCharts.ts';
import { seriesCharts, seriesTables } from './charts/seriesCharts.ts';
import { operationsTable, percentileCell, trafficCharts, trafficTotals } from './charts/trafficCharts.ts';
import { badge } from './verdictBadge.ts';
import { healthCharts, healthDetails, healthWarning } from './healthSection.ts';

function keyValues(title: string, entries: Array<[string, unknown]>): HtmlValue {
  if (entries.length === 0) return null;
  return html`<h4>${title}</h4><dl class="kv">${entries.map(([k, v]) => html`<dt>${k}</dt><dd>${typeof v === 'string' ? v : JSON.stringify(v)}</dd>`)}</dl>`;
}

function metricsTable(metrics: Record<string, MetricResult>): HtmlValue {
  const entries = Object.entries(metrics);
  if (entries.length === 0) return null;
  return html`<h4>Latency (ms)</h4><table class="metrics"><thead><tr><th>metric</th><th>n</th><th>min</th><th>mean</th><th>p50</th><th>p90</th><th>p95</th><th>p99</th><th>max</th></tr></thead><tbody>${entries.map(
    ([name, m]) =>
      html`<tr><td>${name}</td><td class="num">${count(m.count)}</td><td class="num">${m.count ? microsAsMillis(m.min) : '—'}</td><td class="num">${m.count ? microsAsMillis(m.mean) : '—'}</td>${([50, 90, 95, 99] as const).map((p) => percentileCell(m.count, p, m[`p${p}`]))}<td class="num">${m.count ? microsAsMillis(m.max) : '—'}</td></tr>`,
  )}</tbody></table>`;
}

function faultEventList(s: ScenarioResult): HtmlValue {
  if (!s.faultEvents?.length) return null;
  return html`<h4>Fault events</h4><ol class="events">${s.faultEvents.map(
    (e) =>
      html`<li><span class="t">${seconds(e.t)}</span> ${e.action} <code>${e.target}</code>${e.detail ? html` — ${e.detail}` : null}</li>`,
  )}</ol>`;
}

/**
 * What the scenario could not judge and left out (results.json `notes`, written by the DoS scenarios:
 * an attack not aimed, memory not sampled), shown beside the verdict so a part skipped never reads
 * as a part passed. Read defensively: results written before the field existed have none.
 */
function notesList(s: ScenarioResult): HtmlValue {
  const notes = (s as ScenarioResult & { notes?: unknown }).notes;
  if (!Array.isArray(notes) || notes.length === 0) return null;
  return html`<div class="notes"><strong>Not judged:</strong><ul>${notes.map((n) => html`<li>${String(n)}</li>`)}</ul></div>`;
}

/** An errored scenario's stack (frames, scenario files first), as text. */
/** One check: ✓ passed, ✗ failed, ! a warning (its level said), ? not judged (neither: its detail says why). */
function checkItem(c: CheckResult): HtmlValue {
  const [cls, mark] = checkNotJudged(c)
    ? ['unsure', '?']
    : c.ok
      ? ['ok', '✓']
      : checkWarned(c)
        ? ['warn', '!']
        : ['bad', '✗'];
  const level = checkWarned(c) ? html`<span class="level">${levelText(c)}</span> ` : null;
  return html`<li class="${cls}"><span class="mark">${mark}</span> ${level}${c.name}${c.detail ? html`<div class="detail">${c.detail}</div>` : null}</li>`;
}

function stackBlock(s: ScenarioResult): HtmlValue {
  if (typeof s.stack !== 'string' || s.stack === '') return null;
  return html`<details class="stack" open><summary>Stack</summary><pre>${s.stack}</pre></details>`;
}

/** What the scenario said as it ran (ctx.log), with when. */
function logBlock(s: ScenarioResult): HtmlValue {
  if (!Array.isArray(s.log) || s.log.length === 0) return null;
  const dropped = s.logDropped ?? 0;
  const half = dropped ? Math.ceil(s.log.length / 2) : s.log.length;
  const line = (l: { t: number; line: string }) => html`<span class="t">${seconds(l.t)}</span> ${l.line}
`;
  return html`<details class="log"${s.log.length <= 12 ? html` open` : null}><summary>Log (${s.log.length} line${s.log.length === 1 ? '' : 's'}${dropped ? `, ${dropped} left out` : ''})</summary><pre>${s.log.slice(0, half).map(line)}${
    dropped
      ? html`<span class="n">… ${dropped} lines left out …</span>
${s.log.slice(half).map(line)}`
      : null
  }</pre></details>`;
}

export function scenarioSection(s: ScenarioResult, anchor: string): SafeHtml {
  const curves = [...capacityCharts(s), ...seriesCharts(s, false)];
  // Everything over the scenario's time, stacked on one x axis: traffic, latency per measure, the
  // agent's resources, the faults timeline.
  const overTime = [
    ...trafficCharts(s),
    ...latencyOverTimeCharts(s),
    ...seriesCharts(s, true),
    ...healthCharts(s),
    faultsTimelineChart(s),
  ].filter((c) => c !== undefined);
  const distributions = percentileCharts(s);
  const failed = s.checks.filter(checkFailed).length;
  const notJudged = s.checks.filter(checkNotJudged).length;
  const warned = s.checks.filter(checkWarned).length;
  return html`<article class="scenario ${s.verdict}" id="${anchor}">
<h3><a class="anchor" href="#${anchor}">${s.name}</a> ${badge(s.verdict)}</h3>
<p class="description">${s.description}</p>
${s.reason ? html`<p class="reason">${s.reason}</p>` : null}
${stackBlock(s)}
${notesList(s)}
${healthWarning(s)}
${trafficTotals(s)}
${curves.length ? html`<div class="charts">${curves}</div>` : null}
${overTime.length ? html`<div class="over-time">${overTime}</div>` : null}
${distributions.length ? html`<div class="charts">${distributions}</div>` : null}
${operationsTable(s)}
${dosTables(s)}
${logBlock(s)}
<details${s.verdict === 'failed' || s.verdict === 'errored' || s.verdict === 'inconclusive' || warned > 0 ? html` open` : null}><summary>${s.checks.length} checks${failed ? html`, <strong>${failed} failed</strong>` : null}${warned ? html`, <strong>${warningsCount(warned)}</strong>` : null}${notJudged ? html`, <strong>${notJudged} not judged</strong>` : null} · params, counters, latency table</summary>
<ul class="checks">${s.checks.map(checkItem)}</ul>
${metricsTable(s.metrics)}
${seriesTables(s)}
${healthDetails(s)}
${keyValues('Counters', Object.entries(s.counters))}
${keyValues('Parameters', Object.entries(s.params))}
${faultEventList(s)}
</details>
</article>`;
}
