// The baseline comparison in report.html (`--baseline DIR` on `run` and `report`): the rows
// `a2a-rig compare` computes (compareRuns.ts, with its default tolerances): the regressions in view,
// the rows that held or were not compared folded below, so the page says what the gate
// would say. Runs that share no scenario are said so, not thrown.
import { UserError } from '../../protocol/userError.ts';
import {
  compareRuns,
  comparisonVerdict,
  DEFAULT_COMPARE_OPTIONS,
  ratioText,
  resultText,
  type CompareRow,
  type Comparison,
  type CompareOptions,
} from '../compare/compareRuns.ts';
import { forestPlot } from './forestPlot.ts';
import type { RunResult } from '../../results/runResult.ts';
import { html, type SafeHtml } from './safeHtml.ts';

export type BaselineComparison =
  { comparison: Comparison; baseline: RunResult } | { error: string; baseline: RunResult };

/**
 * compareRuns with the defaults of `a2a-rig compare`; a UserError (no shared scenario) becomes the
 * section's message.
 */
export function compareWithBaseline(
  baseline: RunResult,
  current: RunResult,
  options: CompareOptions = DEFAULT_COMPARE_OPTIONS,
): BaselineComparison {
  try {
    return { comparison: compareRuns(baseline, current, options), baseline };
  } catch (err) {
    if (err instanceof UserError) return { error: err.message, baseline };
    throw err;
  }
}

const ORDER: Record<CompareRow['result'], number> = {
  regression: 0,
  inconclusive: 1,
  'not compared': 2,
  improvement: 3,
  'no change': 4,
  ok: 5,
};

const CLASS: Record<CompareRow['result'], string> = {
  regression: 'regression',
  inconclusive: 'skipped',
  'not compared': 'skipped',
  improvement: 'ok',
  'no change': 'ok',
  ok: 'ok',
};

function row(r: CompareRow): SafeHtml {
  const cls = CLASS[r.result];
  return html`<tr class="${cls}"><td>${r.scenario}</td><td>${r.measure}</td><td class="num">${r.baseline}</td><td class="num">${r.current}</td><td class="num">${ratioText(r)}</td><td class="num">${r.allowed}</td><td><span class="result ${cls}">${resultText(r)}</span>${r.note ? html` <span class="n">${r.note}</span>` : null}</td></tr>`;
}

function table(rows: CompareRow[]): SafeHtml {
  return html`<table class="baseline"><thead><tr><th>scenario</th><th>measure</th><th>baseline</th><th>current</th><th>ratio [95 % CI]</th><th>allowed</th><th>result</th></tr></thead><tbody>${rows.map(row)}</tbody></table>`;
}

const tally = (rows: CompareRow[]) =>
  (['inconclusive', 'not compared', 'improvement', 'no change', 'ok'] as const)
    .map((k) => [k, rows.filter((r) => r.result === k).length] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(' · ');

export function baselineSection(b: BaselineComparison): SafeHtml {
  const head = html`<p class="n">Baseline <code>${b.baseline.runId}</code> (${b.baseline.profile}, ${b.baseline.rig.platform}, ${b.baseline.startedAt}); tolerances as <code>a2a-rig compare</code>'s defaults.</p>`;
  if ('error' in b)
    return html`<section id="baseline"><h2>Against the baseline</h2>${head}<p class="reason">Not compared: ${b.error}.</p></section>`;
  const { rows, regressions, notes } = b.comparison;
  const rest = rows.filter((r) => r.result !== 'regression').sort((x, y) => ORDER[x.result] - ORDER[y.result]);
  return html`<section id="baseline"><h2>Against the baseline: ${regressions.length ? html`<span class="bad">${regressions.length} regression${regressions.length > 1 ? 's' : ''}</span>` : comparisonVerdict(b.comparison)}</h2>${head}
${notes.length ? html`<ul class="notes">${notes.map((n) => html`<li>${n}</li>`)}</ul>` : null}
${forestPlot(rows)}
${regressions.length ? table(regressions) : null}
${rest.length ? html`<details class="baseline-rest"><summary>${tally(rest)}</summary>${table(rest)}</details>` : null}
${rows.length ? null : html`<p>Nothing to compare.</p>`}</section>`;
}
