// The figures at the top of report.html, k6's end-of-test summary as tiles: the run's verdict and
// its scenarios by verdict, requests, failed % (refusals beside it), bytes, capacity (or the cap that bounded it), the
// thresholds, and the baseline comparison when one was given. A figure the run did not record
// says "not recorded" rather than 0.
import { sumTraffic, trafficOf } from '../merge/trafficTotals.ts';
import { capacityFinding, capacityText } from './charts/capacityCharts.ts';
import type { BaselineComparison } from './baselineSection.ts';
import { bytes, count, percent } from '../../figures.ts';
import { VERDICTS, type RunResult, type Verdict } from '../../results/runResult.ts';
import { html, type HtmlValue, type SafeHtml } from './safeHtml.ts';
import { thresholdTally } from '../thresholds/thresholdEvaluation.ts';

export interface HeadlineAnchors {
  /** The anchor of a scenario by name (for the capacity tile's link). */
  of: (scenario: string) => string | undefined;
}

function tile(id: string, label: string, value: HtmlValue, detail: HtmlValue, cls = ''): SafeHtml {
  return html`<div class="tile ${cls}" data-figure="${id}"><div class="label">${label}</div><div class="value">${value}</div><div class="detail">${detail}</div></div>`;
}

type WithTraffic = RunResult['scenarios'][number];

/** The requests, failed requests and data tiles, or one saying traffic was not recorded. */
function trafficTiles(run: RunResult, anchors: HeadlineAnchors): SafeHtml[] {
  const withTraffic = run.scenarios.filter((s) => s.traffic);
  if (withTraffic.length === 0)
    return [tile('requests', 'requests', 'not recorded', 'results written before a2a-rig recorded traffic', 'none')];
  const sum = sumTraffic(trafficOf(withTraffic));
  const totals = { requests: sum.requests, sent: sum.bytesSent, received: sum.bytesReceived };
  const coverage =
    withTraffic.length === run.scenarios.length
      ? `${run.scenarios.length} scenario${run.scenarios.length === 1 ? '' : 's'}`
      : `${withTraffic.length} of ${run.scenarios.length} scenarios recorded traffic`;
  return [
    tile('requests', 'requests', count(totals.requests), coverage),
    errorsTile(withTraffic, sum, anchors),
    tile(
      'bytes',
      'data',
      html`${bytes(totals.sent)} <span class="unit">sent</span>`,
      `${bytes(totals.received)} received`,
    ),
  ];
}

/**
 * An error is a request that got no usable reply (a transport error, a timeout): that is what a
 * red figure means. A refusal (a JSON-RPC error, 409/422) is the agent answering, often because a
 * scenario provoked it on purpose (duplicate-flood's 409s): counted beside, never as a failure.
 */
function errorsTile(
  withTraffic: WithTraffic[],
  sum: { requests: number; failed: number; refused: number },
  anchors: HeadlineAnchors,
): SafeHtml {
  const { failed, refused } = sum;
  const most = (pick: (s: WithTraffic) => number) => [...withTraffic].sort((a, b) => pick(b) - pick(a))[0]!;
  const link = (name: string) => html`<a href="#${anchors.of(name) ?? ''}">${name}</a>`;
  const refusedBy = (s: WithTraffic) => s.traffic!.operations.reduce((a, o) => a + o.rpcErrors, 0);
  const failedBy = (s: WithTraffic) => s.traffic!.operations.reduce((a, o) => a + o.failed, 0);
  const failedWhere =
    failed > 0 ? html`; most in ${link(most(failedBy).name)} (${count(failedBy(most(failedBy)))})` : null;
  // Failures inside scenarios that injected faults (a cut proxy, a reset, a killed agent, an
  // attack) and passed were provoked on purpose and judged by their checks: shown, never red.
  // Red is for the others (a capacity step the agent could not carry is not provoked).
  const provokedIn = (s: WithTraffic) => s.verdict === 'passed' && (s.faultEvents?.length ?? 0) > 0;
  const provoked = withTraffic.filter(provokedIn).reduce((a, s) => a + failedBy(s), 0);
  const provokedText = provoked > 0 ? html`; ${count(provoked)} provoked by the faults of scenarios that passed` : null;
  const refusedWhere =
    refused > 0
      ? html`. ${count(refused)} refused by the agent (JSON-RPC or HTTP errors, most provoked on purpose), most in ${link(most(refusedBy).name)} (${count(refusedBy(most(refusedBy)))})`
      : null;
  return tile(
    'errors',
    'failed requests',
    percent(failed, sum.requests),
    html`${count(failed)} of ${count(sum.requests)} got no usable reply${failedWhere}${provokedText}${refusedWhere}`,
    failed > provoked ? 'bad' : failed > 0 ? 'provoked' : '',
  );
}

/** A capacity tile per capacity finding, linked to its scenario, or one saying it was not measured. */
function capacityTiles(run: RunResult, anchors: HeadlineAnchors): SafeHtml[] {
  const findings = run.scenarios.map(capacityFinding).filter((f) => f !== undefined);
  if (findings.length === 0)
    return [tile('capacity', 'capacity', 'not measured', 'no capacity scenario in this run', 'none')];
  return findings.map((f) => {
    const { value, detail } = capacityText(f);
    const anchor = anchors.of(f.scenario);
    const label = findings.length > 1 || f.scenario !== 'capacity' ? `capacity (${f.scenario})` : 'capacity';
    const cls = f.kind === 'broke' && f.capacity === 0 ? 'bad' : '';
    return tile('capacity', label, anchor ? html`<a href="#${anchor}">${value}</a>` : value, detail, cls);
  });
}

function thresholdsTile(run: RunResult): SafeHtml {
  const thresholds = run.thresholds ?? [];
  if (thresholds.length === 0)
    return tile('thresholds', 'thresholds', 'none given', html`<code>--threshold</code> sets them`, 'none');
  const { held, broken, 'not judged': undecided } = thresholdTally(thresholds);
  return tile(
    'thresholds',
    'thresholds',
    broken ? `${broken} broken` : undecided ? `${undecided} not judged` : 'all held',
    `${held} held · ${broken} broken${undecided ? ` · ${undecided} not judged` : ''}`,
    broken ? 'bad' : undecided ? 'none' : '',
  );
}

function baselineTile(baseline: BaselineComparison): SafeHtml {
  const n = 'comparison' in baseline ? baseline.comparison.regressions.length : undefined;
  if (n === undefined)
    return tile('baseline', 'against baseline', 'not compared', 'error' in baseline ? baseline.error : '', 'none');
  return tile(
    'baseline',
    'against baseline',
    html`<a href="#baseline">${n}</a> <span class="unit">regression${n === 1 ? '' : 's'}</span>`,
    html`baseline <code>${baseline.baseline.runId}</code>`,
    n ? 'bad' : '',
  );
}

export function headlineFigures(
  run: RunResult,
  verdictLabel: (v: Verdict) => string,
  anchors: HeadlineAnchors,
  baseline?: BaselineComparison,
): SafeHtml {
  const counts = VERDICTS.map((v) => [v, run.scenarios.filter((s) => s.verdict === v).length] as const).filter(
    ([, n]) => n > 0,
  );
  const verdict = tile(
    'verdict',
    'verdict',
    html`<span class="badge big ${run.verdict}">${verdictLabel(run.verdict)}</span>`,
    counts.map(([v, n]) => html`<span class="count ${v}">${n} ${v}</span> `),
    run.verdict,
  );
  const tiles = [
    verdict,
    ...trafficTiles(run, anchors),
    ...capacityTiles(run, anchors),
    thresholdsTile(run),
    ...(baseline ? [baselineTile(baseline)] : []),
  ];
  return html`<section id="headline" class="tiles">${tiles}</section>`;
}
