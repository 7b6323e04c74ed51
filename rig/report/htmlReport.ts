// report.html: one self-contained page per run (styles and charts inline, no script, nothing
// fetched; the Content-Security-Policy forbids both). At the top the headline figures (verdict,
// requests, error %, bytes, capacity, thresholds, the baseline comparison), then the verdict
// table, thresholds, the comparison with a baseline when one was given, and per scenario (its
// anchor named after it): the totals of its traffic; the capacity curve; over its time, one strip
// each on one x axis: throughput, errors, in-flight, latency per measure, the agent's resources,
// and the faults timeline; its percentile distributions; the table per A2A operation; the DoS
// tables; its log; then every check. Percentiles are shown only where n carries them
// (sampleSize.ts). Every string from an agent or a scenario goes through `html`, which escapes it
// (spec S-1): a `<script>` in a prompt or a reason shows as text.
import { compareWithBaseline, baselineSection, type BaselineComparison } from './baselineSection.ts';
import { capacityCharts } from './capacityCharts.ts';
import { headlineFigures } from './headlineFigures.ts';
import {
  nothingTested,
  type MetricResult,
  type RunResult,
  type RunToxic,
  type ScenarioResult,
  type Verdict,
} from '../results/runResult.ts';
import { msText, secondsText } from './reportNumbers.ts';
import { html, SafeHtml, type HtmlValue } from './safeHtml.ts';
import { PERCENTILE_RULE, percentileShown } from './sampleSize.ts';
import { scenarioAnchors } from './scenarioAnchors.ts';
import { faultsTimelineChart, latencyOverTimeCharts, percentileCharts } from './scenarioCharts.ts';
import { seriesCharts, seriesTables } from './seriesCharts.ts';
import { dosTables } from './dosTables.ts';
import { operationsTable, percentileCell, trafficCharts, trafficTotals } from './trafficCharts.ts';
import { REPORT_STYLE } from './reportStyle.ts';

export interface HtmlReportOptions {
  /** A run to compare with (`--baseline DIR`): compareRuns' rows, with `a2a-rig compare`'s defaults. */
  baseline?: RunResult;
}

const VERDICT_LABEL: Record<Verdict, string> = {
  passed: 'PASS',
  failed: 'FAIL',
  skipped: 'SKIP',
  errored: 'ERROR',
  interrupted: 'INTERRUPTED',
  'not-run': 'NOT RUN',
};

/** A percentile, or `–` when n does not carry it (sampleSize.ts). */
const pText = (m: MetricResult, p: 50 | 95 | 99) => (percentileShown(m.count, p) ? msText(m[`p${p}`]) : '–');

function badge(verdict: Verdict): SafeHtml {
  return html`<span class="badge ${verdict}">${VERDICT_LABEL[verdict] ?? verdict}</span>`;
}

function latencyCell(metrics: Record<string, MetricResult>): HtmlValue {
  const entries = Object.entries(metrics).filter(([, m]) => m.count > 0);
  if (entries.length === 0) return '—';
  return entries.map(
    ([name, m]) =>
      html`<div>
        <span class="metric">${name}</span> ${pText(m, 50)} / ${pText(m, 95)} / ${pText(m, 99)}
        <span class="n">n=${m.count}</span>
      </div>`,
  );
}

function verdictTable(run: RunResult, anchors: string[]): SafeHtml {
  const rows = run.scenarios.map((s, i) => {
    const passed = s.checks.filter((c) => c.ok).length;
    return html`<tr class="${s.verdict}">
      <td><a href="#${anchors[i]}">${s.name}</a></td>
      <td>${badge(s.verdict)}</td>
      <td class="num">${passed}/${s.checks.length}</td>
      <td class="num">${secondsText(s.durationMs)}</td>
      <td>${latencyCell(s.metrics)}</td>
      <td class="reason">${s.reason ?? ''}</td>
    </tr>`;
  });
  return html`<section id="verdicts">
    <h2>Verdicts</h2>
    <table class="verdicts">
      <thead>
        <tr>
          <th>scenario</th>
          <th>verdict</th>
          <th>checks</th>
          <th>time</th>
          <th title="${PERCENTILE_RULE}">latency ms (p50 / p95 / p99)</th>
          <th>note</th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </section>`;
}

function thresholdsSection(run: RunResult): HtmlValue {
  if (!run.thresholds?.length) return null;
  return html`<section id="thresholds">
    <h2>Thresholds</h2>
    <table>
      <thead>
        <tr>
          <th>threshold</th>
          <th>result</th>
          <th>measured</th>
        </tr>
      </thead>
      <tbody>
        ${run.thresholds.map(
          (t) =>
            html`<tr>
              <td><code>${t.expression}</code></td>
              <td>${badge(t.ok ? 'passed' : 'failed')}</td>
              <td>${t.detail}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}

function keyValues(title: string, entries: Array<[string, unknown]>): HtmlValue {
  if (entries.length === 0) return null;
  return html`<h4>${title}</h4>
    <dl class="kv">
      ${entries.map(
        ([k, v]) =>
          html`<dt>${k}</dt>
            <dd>${typeof v === 'string' ? v : JSON.stringify(v)}</dd>`,
      )}
    </dl>`;
}

function metricsTable(metrics: Record<string, MetricResult>): HtmlValue {
  const entries = Object.entries(metrics);
  if (entries.length === 0) return null;
  return html`<h4>Latency (ms)</h4>
    <table class="metrics">
      <thead>
        <tr>
          <th>metric</th>
          <th>n</th>
          <th>min</th>
          <th>mean</th>
          <th>p50</th>
          <th>p90</th>
          <th>p95</th>
          <th>p99</th>
          <th>max</th>
        </tr>
      </thead>
      <tbody>
        ${entries.map(
          ([name, m]) =>
            html`<tr>
              <td>${name}</td>
              <td class="num">${m.count}</td>
              <td class="num">${m.count ? msText(m.min) : '—'}</td>
              <td class="num">${m.count ? msText(m.mean) : '—'}</td>
              ${([50, 90, 95, 99] as const).map((p) => percentileCell(m.count, p, m[`p${p}`]))}
              <td class="num">${m.count ? msText(m.max) : '—'}</td>
            </tr>`,
        )}
      </tbody>
    </table>`;
}

function faultEventList(s: ScenarioResult): HtmlValue {
  if (!s.faultEvents?.length) return null;
  return html`<h4>Fault events</h4>
    <ol class="events">
      ${s.faultEvents.map(
        (e) =>
          html`<li>
            <span class="t">${secondsText(e.t)}</span> ${e.action}
            <code>${e.target}</code>${e.detail ? html` — ${e.detail}` : null}
          </li>`,
      )}
    </ol>`;
}

/**
 * What the scenario could not judge and left out (results.json `notes`, written by the DoS scenarios:
 * an attack not aimed, memory not sampled), shown beside the verdict so a part skipped never reads
 * as a part passed. Read defensively: results written before the field existed have none.
 */
function notesList(s: ScenarioResult): HtmlValue {
  const notes = (s as ScenarioResult & { notes?: unknown }).notes;
  if (!Array.isArray(notes) || notes.length === 0) return null;
  return html`<div class="notes">
    <strong>Not judged:</strong>
    <ul>
      ${notes.map((n) => html`<li>${String(n)}</li>`)}
    </ul>
  </div>`;
}

/** An errored scenario's stack (frames, scenario files first), as text. */
function stackBlock(s: ScenarioResult): HtmlValue {
  if (typeof s.stack !== 'string' || s.stack === '') return null;
  return html`<details class="stack" open>
    <summary>Stack</summary>
    <pre>${s.stack}</pre>
  </details>`;
}

/** What the scenario said as it ran (ctx.log), with when. */
function logBlock(s: ScenarioResult): HtmlValue {
  if (!Array.isArray(s.log) || s.log.length === 0) return null;
  const dropped = s.logDropped ?? 0;
  const half = dropped ? Math.ceil(s.log.length / 2) : s.log.length;
  const line = (l: { t: number; line: string }) => html`<span class="t">${(l.t / 1000).toFixed(2)} s</span> ${l.line} `;
  return html`<details class="log" ${s.log.length <= 12 ? html` open` : null}>
    <summary>
      Log (${s.log.length} line${s.log.length === 1 ? '' : 's'}${dropped ? `, ${dropped} left out` : ''})
    </summary>
    <pre>
${s.log.slice(0, half).map(line)}${
        dropped ? html`<span class="n">… ${dropped} lines left out …</span> ${s.log.slice(half).map(line)}` : null
      }</pre>
  </details>`;
}

function scenarioSection(s: ScenarioResult, anchor: string): SafeHtml {
  const curves = [...capacityCharts(s), ...seriesCharts(s, false)];
  // Everything over the scenario's time, stacked on one x axis: traffic, latency per measure, the
  // agent's resources, the faults timeline.
  const overTime = [
    ...trafficCharts(s),
    ...latencyOverTimeCharts(s),
    ...seriesCharts(s, true),
    faultsTimelineChart(s),
  ].filter((c) => c !== undefined);
  const distributions = percentileCharts(s);
  const failed = s.checks.filter((c) => !c.ok).length;
  return html`<article class="scenario ${s.verdict}" id="${anchor}">
<h3><a class="anchor" href="#${anchor}">${s.name}</a> ${badge(s.verdict)}</h3>
<p class="description">${s.description}</p>
${s.reason ? html`<p class="reason">${s.reason}</p>` : null}
${stackBlock(s)}
${notesList(s)}
${trafficTotals(s)}
${curves.length ? html`<div class="charts">${curves}</div>` : null}
${overTime.length ? html`<div class="over-time">${overTime}</div>` : null}
${distributions.length ? html`<div class="charts">${distributions}</div>` : null}
${operationsTable(s)}
${dosTables(s)}
${logBlock(s)}
<details${s.verdict === 'failed' || s.verdict === 'errored' ? html` open` : null}><summary>${s.checks.length} checks${failed ? html`, <strong>${failed} failed</strong>` : null} · params, counters, latency table</summary>
<ul class="checks">${s.checks.map((c) => html`<li class="${c.ok ? 'ok' : 'bad'}"><span class="mark">${c.ok ? '✓' : '✗'}</span> ${c.name}${c.detail ? html`<div class="detail">${c.detail}</div>` : null}</li>`)}</ul>
${metricsTable(s.metrics)}
${seriesTables(s)}
${keyValues('Counters', Object.entries(s.counters))}
${keyValues('Parameters', Object.entries(s.params))}
${faultEventList(s)}
</details>
</article>`;
}

function toxicText(t: RunToxic): string {
  const attributes = Object.entries(t.attributes)
    .map(([k, v]) => ` ${k}=${v}`)
    .join('');
  return `${t.name}: ${t.type} ${t.stream}${t.toxicity !== 1 ? ` toxicity=${t.toxicity}` : ''}${attributes}`;
}

function header(run: RunResult, anchors: string[], baseline?: BaselineComparison): SafeHtml {
  const t = run.target;
  const facts: Array<[string, HtmlValue]> = [
    ['agent', html`${t.agentName ?? 'unknown'}${t.agentVersion ? ` ${t.agentVersion}` : ''} at <code>${t.url}</code>`],
    [
      'A2A',
      `${t.generation ?? '?'} · ${t.kind}${t.hitlDeclared === undefined ? '' : t.hitlDeclared ? ' · declares hitl-prompt/v1' : ' · no hitl-prompt/v1'}`,
    ],
    ...(t.agentFaults.length ? [['agent faults', t.agentFaults.join(', ')] as [string, HtmlValue]] : []),
    ['fault backend', run.proxy ? `${run.proxy.backend}${run.proxy.version ? ` ${run.proxy.version}` : ''}` : 'none'],
    ...(run.toxics?.length
      ? [['toxics (every scenario)', run.toxics.map((t) => toxicText(t)).join('; ')] as [string, HtmlValue]]
      : []),
    ['profile', run.profile],
    ['started', `${run.startedAt} · ${secondsText(run.durationMs)}`],
    ['rig', `${run.rig.version} · node ${run.rig.node} · ${run.rig.platform} · ${run.rig.cpus} CPUs`],
    ...(run.mergedFrom?.length
      ? [
          ['merged from', run.mergedFrom.map((m) => `${m.runId} (${m.platform}, ${m.verdict})`).join('; ')] as [
            string,
            HtmlValue,
          ],
        ]
      : []),
    ...(run.mergeForced
      ? [['forced merge: runs differ', run.mergeForced.differences.join('; ')] as [string, HtmlValue]]
      : []),
  ];
  const headline = headlineNote(run);
  const byName = new Map(run.scenarios.map((s, i) => [s.name, anchors[i]!]));
  return html`<header>
    <h1>a2a-rig ${badge(run.verdict)} <span class="run-id">${run.runId}</span></h1>
    ${headline ? html`<p class="headline ${run.verdict}">${headline}</p>` : null}
    ${headlineFigures(run, (v) => VERDICT_LABEL[v] ?? v, { of: (name) => byName.get(name) }, baseline)}
    <dl class="kv">
      ${facts.map(
        ([k, v]) =>
          html`<dt>${k}</dt>
            <dd>${v}</dd>`,
      )}
    </dl>
  </header>`;
}

/** What the verdict alone does not say: a run that tested nothing, or one a signal stopped. */
function headlineNote(run: RunResult): string | undefined {
  if (run.verdict === 'interrupted')
    return `Interrupted by ${run.interruptedBy ?? 'a signal'}: these are the results so far; scenarios marked NOT RUN never started.`;
  const untested = run.verdict === 'skipped' ? nothingTested(run.scenarios) : undefined;
  return untested ? `${untested[0]!.toUpperCase()}${untested.slice(1)}.` : undefined;
}

/** The whole page. Pure: the same RunResult (and baseline) gives the same bytes. */
export function htmlReport(run: RunResult, options: HtmlReportOptions = {}): string {
  const anchors = scenarioAnchors(run.scenarios.map((s) => s.name));
  const baseline = options.baseline ? compareWithBaseline(options.baseline, run) : undefined;
  const page = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta
          http-equiv="Content-Security-Policy"
          content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"
        />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>a2a-rig ${VERDICT_LABEL[run.verdict] ?? run.verdict} — ${run.runId}</title>
        <style>
          ${new SafeHtml(REPORT_STYLE)}
        </style>
      </head>
      <body>
        ${header(run, anchors, baseline)}
        <main>
          ${verdictTable(run, anchors)} ${thresholdsSection(run)} ${baseline ? baselineSection(baseline) : null}
          <section id="scenarios">
            <h2>Scenarios</h2>
            ${run.scenarios.map((s, i) => scenarioSection(s, anchors[i]!))}
          </section>
        </main>
        <footer>
          Written by a2a-rig ${run.rig.version} from results.json (schema <code>${run.schema}</code>). Charts are inline
          SVG: hover a point for its values. Percentiles: ${PERCENTILE_RULE}; a dash or <code>n&lt;N</code> marks one n
          does not carry. <code>a2a-rig report DIR</code> writes this page again.
        </footer>
      </body>
    </html> `;
  return page.text;
}
