// summary.md, ready for a CI step summary (the terminal gets terminalSummary.ts). Agent-supplied
// strings are escaped for Markdown/HTML (spec S-1: data, never markup), and their control and bidi
// characters shown as `\uXXXX` (terminalText.ts): this text is printed on the terminal too.
import { runToxics, targetWire } from './targetWire.ts';
import {
  checkFailed,
  checkNotJudged,
  notJudgedNote,
  nothingTested,
  type RunResult,
  type Verdict,
} from '../results/runResult.ts';
import { printable } from './terminal/terminalText.ts';
import { attackRows, attackTax, isDosResult, outcomeColumns } from './dosResults.ts';
import type { CheckResult, ScenarioResult } from '../results/runResult.ts';
import { checkWarned, warningsCount, warningsNote, warningText } from '../results/checkResult.ts';
import { partialNote, startLine, WORKER_COLUMNS, workerCells } from './merge/shardRows.ts';
import { healthNote } from './rigHealthText.ts';
import { rigSaturation } from '../metrics/rigHealth.ts';
import { thresholdState, type ThresholdState } from './thresholds/thresholdEvaluation.ts';
import { count, microsAsMillis as ms, ratio, seconds } from '../figures.ts';
import { VERDICT_LABEL } from './html/verdictBadge.ts';

const MARKDOWN_STATE: Record<ThresholdState, string> = { held: 'PASS', broken: 'BROKEN', 'not judged': 'NOT JUDGED' };

const HEADLINE: Record<Verdict, string> = {
  passed: 'passed',
  failed: 'FAILED',
  skipped: 'NOTHING TESTED',
  errored: 'FAILED',
  interrupted: 'INTERRUPTED',
  'not-run': 'INTERRUPTED',
  inconclusive: 'NOT JUDGED',
};

/** The line under the title when the verdict alone would mislead: nothing tested, or stopped early. */
function headlineNote(run: RunResult): string[] {
  if (run.verdict === 'interrupted') {
    const notRun = run.scenarios.filter((s) => s.verdict === 'not-run').length;
    const notRunText = notRun ? `; ${notRun} scenario${notRun === 1 ? ' was' : 's were'} not run` : '';
    const by = markdownCell(run.interruptedBy ?? 'a signal');
    return ['', `**Interrupted by ${by}**: these are the results so far${notRunText}.`];
  }
  const notJudged = notJudgedNote(run);
  if (notJudged) return ['', `**${markdownCell(notJudged)}**`];
  const untested = run.verdict === 'skipped' ? nothingTested(run.scenarios) : undefined;
  if (untested) {
    const sentence = markdownCell(`${untested[0]!.toUpperCase()}${untested.slice(1)}`);
    return ['', `**${sentence}.** Skipped is not passed: \`a2a-rig run\`/\`conform\` exit with code 3.`];
  }
  const skipped = run.scenarios.filter((s) => s.verdict === 'skipped').length;
  return skipped > 0
    ? [
        '',
        `${skipped} of ${run.scenarios.length} scenarios skipped (see the note column); ` +
          '`--fail-on-skip` makes any skip fail the run.',
      ]
    : [];
}

/** Neutralises Markdown, HTML and terminal controls in a table cell (one line). */
export function markdownCell(text: string): string {
  return printable(text.replace(/\r?\n/g, ' '))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_{}[\]()#+!|~])/g, '\\$1');
}

/**
 * One line per DoS scenario: p99 during ÷ before over the whole attack phase (a figure, not the
 * gate), then each attack's own tax (its bursts ÷ the controls beside them, the gated one) and how
 * its requests ended.
 */
function dosLine(s: ScenarioResult): string {
  const tax = attackTax(s);
  const p99s = tax ? `p99 ${ms(tax.during.p99)} ms during, ${ms(tax.before.p99)} ms before` : '';
  const taxText = tax
    ? `p99 during ÷ before ${ratio(tax.tax)} (${markdownCell(tax.metric)} ${p99s})`
    : 'tax not measured';
  const rows = attackRows(s);
  const kinds = outcomeColumns(rows);
  const attacks = rows.map((r) => {
    const outcomes = kinds.filter((k) => r.outcomes[k]).map((k) => `${markdownCell(k)} ${r.outcomes[k]}`);
    const refusal =
      r.refusal && r.refusal.count > 0 ? `, refusal p50/p99 ${ms(r.refusal.p50)}/${ms(r.refusal.p99)} ms` : '';
    const tax = r.tax === undefined ? '' : `tax ${ratio(r.tax)}, `;
    return `${markdownCell(r.attack)}: ${tax}${outcomes.join(', ') || 'no outcome'}${refusal}`;
  });
  // `notes` (what the scenario could not judge) is dos-engine's results field; read defensively.
  const notes = (s as ScenarioResult & { notes?: unknown }).notes;
  const notJudged =
    Array.isArray(notes) && notes.length
      ? ` · not judged: ${notes.map((n) => markdownCell(String(n))).join('; ')}`
      : '';
  const attackText = attacks.length ? ` · ${attacks.join(' · ')}` : '';
  const verdict = VERDICT_LABEL[s.verdict] ?? markdownCell(s.verdict);
  return `- **${markdownCell(s.name)}** ${verdict} · ${taxText}${attackText}${notJudged}`;
}

/**
 * `text` as a fenced code block, its fence longer than any run of backticks inside, so nothing in it
 * can close the block.
 */
function codeBlock(text: string): string[] {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [fence, ...text.replace(/\r\n?/g, '\n').split('\n'), fence];
}

/** The title, the notes under it, the line on the agent and the run, and the scenario table's head. */
function head(run: RunResult): string[] {
  const target = run.target;
  const faults = target.agentFaults.length ? `, faults: ${target.agentFaults.join(', ')}` : '';
  const agent =
    `${markdownCell(target.agentName ?? 'unknown')} at ${markdownCell(target.url)} ` +
    `(${targetWire(target)}, ${target.kind}${faults})`;
  const backend = run.proxy
    ? markdownCell(`${run.proxy.backend}${run.proxy.version ? ` ${run.proxy.version}` : ''}`)
    : 'none';
  const toxics = run.toxics?.length ? ` · run toxics: ${markdownCell(runToxics(run))}` : '';
  const duration = seconds(run.durationMs);
  return [
    `# a2a-rig ${HEADLINE[run.verdict] ?? run.verdict} — profile \`${run.profile}\``,
    ...headlineNote(run),
    ...(partialNote(run) ? ['', `**${markdownCell(partialNote(run)!)}**`] : []),
    '',
    `Agent: ${agent} · fault backend: ${backend}${toxics} · ${duration} · run \`${run.runId}\``,
    ...(run.target.endpointNote ? ['', `**Endpoint:** ${markdownCell(run.target.endpointNote)}`] : []),
    ...(warningsNote(run) ? ['', `**Warnings:** ${markdownCell(warningsNote(run)!)} (listed below)`] : []),
    '',
    '| scenario | verdict | checks | latency (p50 / p95 / p99 ms) | note |',
    '|---|---|---|---|---|',
  ];
}

/** A scenario's row: verdict, checks passed, its latencies (marked when the rig was the limit), why. */
function scenarioRow(s: ScenarioResult): string {
  const passed = s.checks.filter((c) => c.ok).length;
  const latency = Object.entries(s.metrics)
    .map(([name, m]) => `${markdownCell(name)}: ${ms(m.p50)} / ${ms(m.p95)} / ${ms(m.p99)} (n=${count(m.count)})`)
    .join('<br>');
  const warned = s.warnings ? `<br>${warningsCount(s.warnings)}` : '';
  const verdict = (VERDICT_LABEL[s.verdict] ?? markdownCell(s.verdict)) + warned;
  // A latency measured while the rig was the limit says so where it is read (details below).
  const saturated = latency && rigSaturation(s.health) ? '<br>**load generator saturated**' : '';
  return (
    `| ${markdownCell(s.name)} | ${verdict} | ${passed}/${s.checks.length} | ${latency || '—'}${saturated} | ` +
    `${markdownCell(s.reason ?? '')} |`
  );
}

/** The DoS lines, the rig's own load, a forced merge, what was merged and its workers. */
function runSections(run: RunResult): string[] {
  const lines: string[] = [];
  const dos = run.scenarios.filter(isDosResult);
  if (dos.length > 0)
    lines.push(
      '',
      '## Attack tax (per attack: its bursts ÷ the control windows beside them) and attack outcomes',
      '',
      ...dos.map(dosLine),
    );
  const health = run.scenarios.flatMap((s) => {
    const note = healthNote(s);
    return note ? [`- **${markdownCell(s.name)}** · ${markdownCell(note)}`] : [];
  });
  if (health.length > 0) lines.push('', "## The rig's own load", '', ...health);
  if (run.mergeForced)
    lines.push('', `**Forced merge** of runs that differ: ${run.mergeForced.differences.map(markdownCell).join('; ')}`);
  if (run.mergedFrom)
    lines.push(
      '',
      `Merged from ${run.mergedFrom.length} runs: ` +
        run.mergedFrom.map((m) => `\`${markdownCell(m.runId)}\` (${m.verdict})`).join(', '),
    );
  if (run.shards) {
    const table = [WORKER_COLUMNS, WORKER_COLUMNS.map(() => '---'), ...workerCells(run.shards)];
    lines.push('', '## Workers', '', ...table.map((r) => `| ${r.map(markdownCell).join(' | ')} |`));
    lines.push('', markdownCell(startLine(run.shards)));
  }
  return lines;
}

/** The thresholds table, the failed, warned and unjudged checks, and the errors with their stacks. */
function checkSections(run: RunResult): string[] {
  const lines: string[] = [];
  if (run.thresholds?.length) {
    lines.push('', '## Thresholds', '', '| threshold | result | measured |', '|---|---|---|');
    for (const t of run.thresholds)
      lines.push(
        `| \`${t.expression.replace(/`/g, "'")}\` | ${MARKDOWN_STATE[thresholdState(t)]} | ${markdownCell(t.detail)} |`,
      );
  }
  const plain = (c: CheckResult) => `${c.name}${c.detail ? `: ${c.detail}` : ''}`;
  const checkLines = (which: (c: CheckResult) => boolean, text = plain) =>
    run.scenarios.flatMap((s) =>
      s.checks.filter(which).map((c) => `- **${markdownCell(s.name)}** · ${markdownCell(text(c))}`),
    );
  const failures = checkLines(checkFailed);
  if (failures.length > 0) lines.push('', '## Failed checks', '', ...failures);
  const warnings = checkLines(checkWarned, warningText);
  if (warnings.length > 0) lines.push('', '## Warnings (SHOULD and contract-example shape)', '', ...warnings);
  const notJudgedChecks = checkLines(checkNotJudged);
  if (notJudgedChecks.length > 0) lines.push('', '## Checks not judged', '', ...notJudgedChecks);
  const errored = run.scenarios.filter((s) => s.verdict === 'errored' && s.stack);
  if (errored.length > 0) {
    lines.push('', '## Errors');
    for (const s of errored)
      lines.push('', `**${markdownCell(s.name)}**: ${markdownCell(s.reason ?? 'errored')}`, '', ...codeBlock(s.stack!));
  }
  return lines;
}

export function summaryMarkdown(run: RunResult): string {
  const lines = [...head(run), ...run.scenarios.map(scenarioRow), ...runSections(run), ...checkSections(run)];
  // Again over the whole text: whatever reached it without a markdownCell (an expression) is shown too.
  return printable(`${lines.join('\n')}\n`);
}
