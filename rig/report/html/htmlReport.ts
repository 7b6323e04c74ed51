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
import { headlineFigures } from './headlineFigures.ts';
import {
  notJudgedNote,
  nothingTested,
  type MetricResult,
  type RunResult,
  type RunToxic,
} from '../../results/runResult.ts';
import { warningsCount, warningsNote } from '../../results/checkResult.ts';
import { count, microsAsMillis, seconds } from '../../figures.ts';
import { html, SafeHtml, type HtmlValue } from './safeHtml.ts';
import { PERCENTILE_RULE, percentileShown } from '../sampleSize.ts';
import { scenarioAnchors } from './scenarioAnchors.ts';
import { polledText } from '../thresholds/thresholdEvaluation.ts';
import { scenarioSection } from './scenarioSection.ts';
import { REPORT_STYLE } from './reportStyle.ts';
import { VERDICT_LABEL, badge, thresholdBadge } from './verdictBadge.ts';
import { partialNote } from '../merge/shardRows.ts';
import { workersSection } from './workersSection.ts';

export interface HtmlReportOptions {
  /** A run to compare with (`--baseline DIR`): compareRuns' rows, with `a2a-rig compare`'s defaults. */
  baseline?: RunResult;
}
/** A percentile, or `–` when n does not carry it (sampleSize.ts). */
const pText = (m: MetricResult, p: 50 | 95 | 99) => (percentileShown(m.count, p) ? microsAsMillis(m[`p${p}`]) : '–');
/** The mark of a latency observed by GetTask polling, its resolution in the hover text. */
const polledMark = (m: MetricResult): HtmlValue =>
  m.polled ? html` <span class="n" title="${polledText(m.polled, m.count)}">polled</span>` : null;
function latencyCell(metrics: Record<string, MetricResult>): HtmlValue {
  const entries = Object.entries(metrics).filter(([, m]) => m.count > 0);
  if (entries.length === 0) return '—';
  return entries.map(
    ([name, m]) =>
      html`<div><span class="metric">${name}</span> ${pText(m, 50)} / ${pText(m, 95)} / ${pText(m, 99)} <span class="n">n=${count(m.count)}</span>${polledMark(m)}</div>`,
  );
}

function verdictTable(run: RunResult, anchors: string[]): SafeHtml {
  const rows = run.scenarios.map((s, i) => {
    const passed = s.checks.filter((c) => c.ok).length;
    const warned = s.warnings ? html` <span class="warned">${warningsCount(s.warnings)}</span>` : null;
    return html`<tr class="${s.verdict}"><td><a href="#${anchors[i]}">${s.name}</a></td><td>${badge(s.verdict)}${warned}</td><td class="num">${passed}/${s.checks.length}</td><td class="num">${seconds(s.durationMs)}</td><td>${latencyCell(s.metrics)}</td><td class="reason">${s.reason ?? ''}</td></tr>`;
  });
  return html`<section id="verdicts"><h2>Verdicts</h2>
<table class="verdicts"><thead><tr><th>scenario</th><th>verdict</th><th>checks</th><th>time</th><th title="${PERCENTILE_RULE}">latency ms (p50 / p95 / p99)</th><th>note</th></tr></thead>
<tbody>${rows}</tbody></table></section>`;
}

/**
 * The page's contents: its sections and every scenario, so a reader can jump across a long page
 * (a full run's page is many screens of charts).
 */
function contents(run: RunResult, anchors: string[], baseline: boolean): SafeHtml {
  const sections: [string, string][] = [
    ['verdicts', 'Verdicts'],
    ...(run.shards ? [['workers', 'Workers'] as [string, string]] : []),
    ...(run.thresholds?.length ? [['thresholds', 'Thresholds'] as [string, string]] : []),
    ...(baseline ? [['baseline', 'Against the baseline'] as [string, string]] : []),
  ];
  const scenarios = run.scenarios.map((s, i) => html`<a href="#${anchors[i]}" class="${s.verdict}">${s.name}</a>`);
  return html`<nav id="contents" aria-label="contents">${sections.map(([id, label]) => html`<a href="#${id}">${label}</a> · `)}Scenarios: ${scenarios.map((a, i) => (i ? html` · ${a}` : a))}</nav>`;
}

function thresholdsSection(run: RunResult): HtmlValue {
  if (!run.thresholds?.length) return null;
  return html`<section id="thresholds"><h2>Thresholds</h2><table><thead><tr><th>threshold</th><th>result</th><th>measured</th></tr></thead><tbody>${run.thresholds.map(
    (t) => html`<tr><td><code>${t.expression}</code></td><td>${thresholdBadge(t)}</td><td>${t.detail}</td></tr>`,
  )}</tbody></table></section>`;
}
function toxicText(t: RunToxic): string {
  const attributes = Object.entries(t.attributes)
    .map(([k, v]) => ` ${k}=${v}`)
    .join('');
  return `${t.name}: ${t.type} ${t.stream}${t.toxicity !== 1 ? ` toxicity=${t.toxicity}` : ''}${attributes}`;
}

function header(run: RunResult, anchors: string[], baseline?: BaselineComparison): SafeHtml {
  const t = run.target;
  const hitl =
    t.hitlDeclared === undefined ? '' : t.hitlDeclared ? ' · declares hitl-prompt/v1' : ' · no hitl-prompt/v1';
  const facts: Array<[string, HtmlValue]> = [
    ['agent', html`${t.agentName ?? 'unknown'}${t.agentVersion ? ` ${t.agentVersion}` : ''} at <code>${t.url}</code>`],
    ['A2A', `${t.generation ?? '?'} · ${t.kind}${hitl}`],
    ...(t.agentFaults.length ? [['agent faults', t.agentFaults.join(', ')] as [string, HtmlValue]] : []),
    ['fault backend', run.proxy ? `${run.proxy.backend}${run.proxy.version ? ` ${run.proxy.version}` : ''}` : 'none'],
    ...(run.toxics?.length
      ? [['toxics (every scenario)', run.toxics.map((t) => toxicText(t)).join('; ')] as [string, HtmlValue]]
      : []),
    ['profile', run.profile],
    ['started', `${run.startedAt} · ${seconds(run.durationMs)}`],
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
  const partial = partialNote(run);
  return html`<header><h1>a2a-rig ${badge(run.verdict)} <span class="run-id">${run.runId}</span></h1>
${partial ? html`<p class="headline partial">${partial}</p>` : null}
${headline ? html`<p class="headline ${run.verdict}">${headline}</p>` : null}
${warningsNote(run) ? html`<p class="headline warned">Warnings: ${warningsNote(run)!} (under each scenario's checks).</p>` : null}
${headlineFigures(run, (v) => VERDICT_LABEL[v] ?? v, { of: (name) => byName.get(name) }, baseline)}
<dl class="kv">${facts.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl></header>`;
}

/** What the verdict alone does not say: a run that tested nothing, or one a signal stopped. */
function headlineNote(run: RunResult): string | undefined {
  if (run.verdict === 'interrupted')
    return (
      `Interrupted by ${run.interruptedBy ?? 'a signal'}: these are the results so far; ` +
      'scenarios marked NOT RUN never started.'
    );
  const notJudged = notJudgedNote(run);
  if (notJudged) return notJudged;
  const untested = run.verdict === 'skipped' ? nothingTested(run.scenarios) : undefined;
  return untested ? `${untested[0]!.toUpperCase()}${untested.slice(1)}.` : undefined;
}

/** The whole page. Pure: the same RunResult (and baseline) gives the same bytes. */
export function htmlReport(run: RunResult, options: HtmlReportOptions = {}): string {
  const anchors = scenarioAnchors(run.scenarios.map((s) => s.name));
  const baseline = options.baseline ? compareWithBaseline(options.baseline, run) : undefined;
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>a2a-rig ${VERDICT_LABEL[run.verdict] ?? run.verdict} — ${run.runId}</title>
<style>${new SafeHtml(REPORT_STYLE)}</style></head>
<body>
${header(run, anchors, baseline)}
${contents(run, anchors, baseline !== undefined)}
<main>
${verdictTable(run, anchors)}
${workersSection(run)}
${thresholdsSection(run)}
${baseline ? baselineSection(baseline) : null}
<section id="scenarios"><h2>Scenarios</h2>${run.scenarios.map((s, i) => scenarioSection(s, anchors[i]!))}</section>
</main>
<footer>Written by a2a-rig ${run.rig.version} from results.json (schema <code>${run.schema}</code>). Charts are inline SVG: hover a point for its values. Percentiles: ${PERCENTILE_RULE}; a dash or <code>n&lt;N</code> marks one n does not carry. <code>a2a-rig report DIR</code> writes this page again.</footer>
</body></html>
`;
  return page.text;
}
