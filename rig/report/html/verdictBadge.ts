// A verdict in report.html: its word (PASS, FAIL, …) and the coloured badge that shows it.
import type { ThresholdResult, Verdict } from '../../results/runResult.ts';
import { thresholdState } from '../thresholds/thresholdEvaluation.ts';
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

/** A threshold's badge: PASS, FAIL, or NOT JUDGED in the skipped colour (never green without a decision). */
export function thresholdBadge(t: ThresholdResult): SafeHtml {
  const state = thresholdState(t);
  if (state === 'not judged') return html`<span class="badge skipped">NOT JUDGED</span>`;
  return badge(state === 'held' ? 'passed' : 'failed');
}
