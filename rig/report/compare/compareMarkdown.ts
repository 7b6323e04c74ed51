// The comparison as CI reads it: the Markdown table on stdout and the gate's exit code.
import { EXIT } from '../../exitCodes.ts';
import type { RunResult } from '../../results/runResult.ts';
import {
  comparisonVerdict,
  ratioText,
  resultText,
  type CompareOptions,
  type CompareRow,
  type Comparison,
} from './compareRuns.ts';
import { markdownCell } from '../summaryMarkdown.ts';
import { change } from '../../figures.ts';
import { printable } from '../terminal/terminalText.ts';

/** 1 on any regression; 3 when some row could not be judged (unless allowed); else 0. */
export function compareExit(comparison: Comparison, allowInconclusive: boolean): number {
  if (comparison.regressions.length > 0) return EXIT.failed;
  return comparison.notJudged.length > 0 && !allowInconclusive ? EXIT.notTested : EXIT.passed;
}

export function comparisonMarkdown(
  comparison: Comparison,
  baselineRuns: RunResult | RunResult[],
  currentRuns: RunResult | RunResult[],
  options: CompareOptions,
): string {
  const [baseline, current] = [[baselineRuns].flat(), [currentRuns].flat()];
  const { rows, notes } = comparison;
  const one = (r: RunResult) =>
    `\`${r.runId}\` (${markdownCell(r.profile)}, ${markdownCell(r.rig.platform)}, ${r.rig.cpus} cpus, ${r.startedAt})`;
  const run = (runs: RunResult[]) =>
    runs.length === 1 ? one(runs[0]!) : `${runs.length} runs: ${runs.map(one).join(', ')}`;
  const allowed =
    Object.entries(options.tolerances)
      .map(([k, v]) => `${k} ${change(v)}`)
      .join(', ') || 'nothing compared';
  const limits =
    `${Math.round(options.confidence * 100)} % intervals on current / baseline` +
    `${options.paired ? ', rounds paired' : ''}: a change counts when the whole interval is past its tolerance`;
  const resultCell = (r: CompareRow) =>
    `${r.result === 'regression' ? '**REGRESSION**' : resultText(r)}${r.note ? ` — ${markdownCell(r.note)}` : ''}`;
  const lines = [
    `# a2a-rig compare — ${comparisonVerdict(comparison)}`,
    '',
    `Baseline ${run(baseline)} · current ${run(current)}`,
    '',
    `Allowed: ${allowed} · ${limits}`,
    '',
    `| scenario | measure | baseline | current | ratio [${Math.round(options.confidence * 100)} % CI] | allowed | result |`,
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${markdownCell(r.scenario)} | ${markdownCell(r.measure)} | ${markdownCell(r.baseline)} | ` +
        `${markdownCell(r.current)} | ${ratioText(r)} | ${markdownCell(r.allowed)} | ` +
        `${resultCell(r)} |`,
    ),
  ];
  if (notes.length) lines.push('', ...notes.map((n) => `- ${markdownCell(n)}`));
  // Printed on the terminal: results.json files come from anywhere (terminalText.ts).
  return printable(`${lines.join('\n')}\n`);
}
