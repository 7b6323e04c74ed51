// What an A/B run leaves in its directory, beside each round's own run directory (rounds/NN-side):
// ab.json (the sides, the settings, every round's rows as the intervals narrowed, why it stopped,
// the exit), comparison.md (the final paired comparison, as `compare` prints it, plus the rounds)
// and ab.html (the final forest plot, then one per gated row with a line per round: how its
// interval narrowed until it cleared or sat inside its band).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { comparisonMarkdown } from '../report/compare/compareMarkdown.ts';
import { comparisonVerdict, ratioText, type CompareOptions, type CompareRow } from '../report/compare/compareRuns.ts';
import { forestPlot } from '../report/html/forestPlot.ts';
import { REPORT_STYLE } from '../report/html/reportStyle.ts';
import { html, SafeHtml } from '../report/html/safeHtml.ts';
import { markdownCell } from '../report/summaryMarkdown.ts';
import { seconds } from '../figures.ts';
import type { RoundRecord, RoundsOutcome, RoundsSettings, Side, StopReason } from './abRounds.ts';

export const AB_SCHEMA = 'a2a-rig/ab@1';

export interface SideSpec {
  /** The agent's URL, or undefined for the embedded reference agent each run starts. */
  target?: string;
  /** The shell command that starts the side's agent, when given. */
  command?: string;
  /** Extra `run` flags for this side alone. */
  args: string[];
}

export interface AbRecordInput {
  sides: Record<Side, SideSpec>;
  runArgs: string[];
  settings: RoundsSettings;
  outcome: RoundsOutcome;
  dirs: Record<Side, string[]>;
  exit: number;
}

const STOP_TEXT: Record<StopReason, string> = {
  resolved: 'every gated row decided',
  budget: 'the time budget ended with rows undecided',
  'max rounds': 'the round limit was reached with rows undecided',
  interrupted: 'interrupted by a signal',
};

export const stopText = (stop: StopReason) => STOP_TEXT[stop];

const rowKey = (r: CompareRow) => `${r.scenario} ${r.measure}`;

const rowRecord = (r: CompareRow) => ({
  scenario: r.scenario,
  measure: r.measure,
  result: r.result,
  ratio: r.ratio,
  ...(r.interval ? { lo: r.interval.lo, hi: r.interval.hi } : {}),
  ...(r.tolerance !== undefined ? { tolerance: r.tolerance } : {}),
  ...(r.note ? { note: r.note } : {}),
});

/** One line per round for stderr: where the gate stands after it. */
export function roundLine(record: RoundRecord): string {
  const { rows, notJudged } = record.comparison;
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.result, (counts.get(r.result) ?? 0) + 1);
  const tally = [...counts].map(([k, n]) => `${n} ${k}`).join(', ');
  const open = notJudged
    .slice(0, 2)
    .map((r) => `${rowKey(r)} ${ratioText(r)}`)
    .join('; ');
  const order = record.order.map((s) => (s === 'baseline' ? 'A' : 'B')).join('');
  return (
    `round ${record.round} (${order}, ${seconds(record.durationMs)}): ${tally}` +
    (open ? ` — undecided: ${open}${notJudged.length > 2 ? ', …' : ''}` : '')
  );
}

function roundsMarkdown(rounds: RoundRecord[]): string[] {
  const keys =
    rounds
      .at(-1)
      ?.comparison.rows.filter((r) => r.interval)
      .map(rowKey) ?? [];
  if (keys.length === 0) return [];
  const cell = (record: RoundRecord, key: string) => {
    const r = record.comparison.rows.find((x) => rowKey(x) === key);
    return r ? `${ratioText(r)} ${r.result}` : '—';
  };
  return [
    '',
    '## Rounds (paired intervals after each round)',
    '',
    `| round | ${keys.map(markdownCell).join(' | ')} |`,
    `|---|${keys.map(() => '---|').join('')}`,
    ...rounds.map((rec) => `| ${rec.round} | ${keys.map((k) => markdownCell(cell(rec, k))).join(' | ')} |`),
  ];
}

/** The final comparison as compare prints it, the stop, and the rounds. */
export function abMarkdown(input: AbRecordInput, compare: CompareOptions): string {
  const { outcome } = input;
  const last = outcome.rounds.at(-1);
  if (!last) return `# a2a-rig ab — no round completed (${stopText(outcome.stop)})\n`;
  const { runs } = outcome;
  const head = comparisonMarkdown(last.comparison, runs.baseline, runs.candidate, { ...compare, paired: true });
  const stop = `Stopped after ${last.round} round${last.round > 1 ? 's' : ''}: ${stopText(outcome.stop)}.`;
  return `${head.trimEnd()}\n\n${stop}\n${roundsMarkdown(outcome.rounds).join('\n')}\n`;
}

/** The gated rows with an interval, each as a line per round (labelled "round k"). */
function narrowing(rounds: RoundRecord[]): Array<{ key: string; rows: CompareRow[] }> {
  const keys =
    rounds
      .at(-1)
      ?.comparison.rows.filter((r) => r.interval)
      .map(rowKey) ?? [];
  return keys.map((key) => ({
    key,
    rows: rounds.flatMap((rec) =>
      rec.comparison.rows
        .filter((r) => rowKey(r) === key)
        .map((r) => ({ ...r, scenario: 'round', measure: String(rec.round) })),
    ),
  }));
}

export function abHtml(input: AbRecordInput): string {
  const last = input.outcome.rounds.at(-1);
  const verdict = last ? comparisonVerdict(last.comparison) : 'no round completed';
  const stop = html`<p>${stopText(input.outcome.stop)}.</p>`;
  const perRow = narrowing(input.outcome.rounds).map(
    ({ key, rows }) => html`<section><h3>${key}, round by round</h3>${forestPlot(rows)}</section>`,
  );
  const body = last
    ? html`<section><h2>After ${last.round} rounds: ${verdict}</h2>${stop}${forestPlot(last.comparison.rows)}</section>
${perRow}`
    : stop;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>a2a-rig ab — ${verdict}</title>
<style>${new SafeHtml(REPORT_STYLE)}</style></head>
<body><header><h1>a2a-rig ab — ${verdict}</h1></header><main>${body}</main></body></html>
`.toString();
}

/** Writes ab.json, comparison.md and ab.html into the A/B directory. */
export function writeAbResults(dir: string, input: AbRecordInput, compare: CompareOptions): void {
  const { outcome, settings } = input;
  const record = {
    schema: AB_SCHEMA,
    sides: input.sides,
    runArgs: input.runArgs,
    settings: {
      budgetMs: settings.budgetMs,
      minRounds: settings.minRounds,
      maxRounds: settings.maxRounds,
      tolerances: compare.tolerances,
      confidence: compare.confidence,
    },
    stop: outcome.stop,
    exit: input.exit,
    rounds: outcome.rounds.map((rec, i) => ({
      round: rec.round,
      order: rec.order,
      durationMs: Math.round(rec.durationMs),
      dirs: { baseline: input.dirs.baseline[i], candidate: input.dirs.candidate[i] },
      rows: rec.comparison.rows.map(rowRecord),
    })),
  };
  writeFileSync(join(dir, 'ab.json'), `${JSON.stringify(record, null, 2)}\n`);
  writeFileSync(join(dir, 'comparison.md'), abMarkdown(input, compare));
  writeFileSync(join(dir, 'ab.html'), abHtml(input));
}
