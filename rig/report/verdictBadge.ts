// A verdict in report.html: its word (PASS, FAIL, …) and the coloured badge that shows it.
import type { Verdict } from '../results/runResult.ts';
import { html, type SafeHtml } from './safeHtml.ts';

export const VERDICT_LABEL: Record<Verdict, string> = {
  passed: 'PASS',
  failed: 'FAIL',
  skipped: 'SKIP',
  errored: 'ERROR',
  interrupted: 'INTERRUPTED',
  'not-run': 'NOT RUN',
  inconclusive: 'NOT JUDGED',
};

export function badge(verdict: Verdict): SafeHtml {
  return html`<span class="badge ${verdict}">${VERDICT_LABEL[verdict] ?? verdict}</span>`;
}
