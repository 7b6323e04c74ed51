// report.html's workers table for a merged shard set: one row per worker beside the total, then
// how the set started. Every cell goes through `html` (hosts and paths are the workers' own words).
import type { RunResult } from '../../results/runResult.ts';
import { html, type HtmlValue } from './safeHtml.ts';
import { startLine, WORKER_COLUMNS, workerCells } from '../merge/shardRows.ts';

/** Columns holding figures, right-aligned. */
const FIGURES = new Set([3, 4, 5, 6, 7]);

export function workersSection(run: RunResult): HtmlValue {
  const set = run.shards;
  if (!set) return null;
  const cells = workerCells(set);
  const row = (r: string[], i: number) =>
    html`<tr${i === cells.length - 1 ? html` class="total"` : null}>${r.map((c, j) => (FIGURES.has(j) ? html`<td class="num">${c}</td>` : html`<td>${c}</td>`))}</tr>`;
  const paths = set.workers.map((w) => html`<li>worker ${w.index}: <code>${w.path}</code></li>`);
  return html`<section id="workers"><h2>Workers</h2>
<table class="workers"><thead><tr>${WORKER_COLUMNS.map((c) => html`<th>${c}</th>`)}</tr></thead><tbody>${cells.map(row)}</tbody></table>
<p>${startLine(set)}</p><ul class="worker-paths">${paths}</ul></section>`;
}
