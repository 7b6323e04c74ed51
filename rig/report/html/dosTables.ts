// The DoS scenarios' two tables in report.html (fields: rig/report/dosResults.ts): the legitimate
// traffic per phase (before / during / after the attack: n, p50, p95, p99 and p99 ÷ before, whose
// `during` row is the attack tax), and per attack how each hostile request ended and how fast the
// refusals came. Nothing for a scenario without these fields.
import { attackRows, outcomeColumns, phaseRows } from '../dosResults.ts';
import type { ScenarioResult } from '../../results/runResult.ts';
import { html, type HtmlValue } from './safeHtml.ts';
import { count, microsAsMillis as msText, ratio as ratioText } from '../../figures.ts';

/** Outcomes that mean a mitigation is missing or the agent failed. */
const BAD_OUTCOMES = new Set(['accepted', 'server-error']);

function phaseTable(s: ScenarioResult): HtmlValue {
  const rows = phaseRows(s);
  if (rows.length === 0) return null;
  return html`<h4>Legitimate traffic by phase (ms)</h4><table class="dos phases"><thead><tr><th>metric</th><th>phase</th><th>n</th><th>p50</th><th>p95</th><th>p99</th><th title="the attack tax on the during row">p99 ÷ before</th></tr></thead><tbody>${rows.map(
    (r) =>
      html`<tr data-metric="${r.metric}" data-phase="${r.phase}"><td>${r.metric}</td><td>${r.phase}</td><td class="num">${count(r.m.count)}</td><td class="num">${msText(r.m.p50)}</td><td class="num">${msText(r.m.p95)}</td><td class="num">${msText(r.m.p99)}</td><td class="num">${
        r.ratio === undefined
          ? ''
          : r.phase === 'during'
            ? html`<strong>${ratioText(r.ratio)}</strong> tax`
            : ratioText(r.ratio)
      }</td></tr>`,
  )}</tbody></table>`;
}

function attackTable(s: ScenarioResult): HtmlValue {
  const rows = attackRows(s);
  if (rows.length === 0) return null;
  const kinds = outcomeColumns(rows);
  return html`<h4>Attacks: how each hostile request ended</h4><table class="dos attacks"><thead><tr><th>attack</th><th title="legitimate p99 while this attack alone ran ÷ p99 before">tax</th>${kinds.map((k) => html`<th>${k}</th>`)}<th>total</th><th>refusal n</th><th>refusal p50 ms</th><th>refusal p99 ms</th></tr></thead><tbody>${rows.map(
    (r) => {
      const total = Object.values(r.outcomes).reduce((a, b) => a + b, 0);
      return html`<tr data-attack="${r.attack}"><td><code>${r.attack}</code></td><td class="num">${r.tax === undefined ? '' : ratioText(r.tax)}</td>${kinds.map(
        (k) => {
          const n = r.outcomes[k] ?? 0;
          return html`<td class="num${n > 0 && BAD_OUTCOMES.has(k) ? ' bad' : ''}">${count(n)}</td>`;
        },
      )}<td class="num">${count(total)}</td><td class="num">${r.refusal ? count(r.refusal.count) : ''}</td><td class="num">${r.refusal ? msText(r.refusal.p50) : ''}</td><td class="num">${r.refusal ? msText(r.refusal.p99) : ''}</td></tr>`;
    },
  )}</tbody></table>`;
}

export function dosTables(s: ScenarioResult): HtmlValue {
  const tables = [phaseTable(s), attackTable(s)].filter((t) => t !== null);
  return tables.length ? html`<div class="dos-tables">${tables}</div>` : null;
}
