// The end-of-run summary on a terminal (k6's end-of-test summary is the model): plain text in 100
// columns, no Markdown. A headline block (the run's verdict, scenarios by verdict, capacity, round
// trips and requests, error %, thresholds), one aligned line per scenario (verdict, name, time, the
// sample count and percentiles of its headline latency, a percentile left out when too few samples
// carry it, sampleSize.ts), then the failed checks, the notes, the thresholds and the result files.
// summary.md (summaryMarkdown.ts) stays the Markdown version. Whatever an agent said goes through
// printableLine (terminalText.ts); colour, when asked for, only marks verdict words.
import { runToxics, targetWire } from '../targetWire.ts';
import { attackTax, isDosResult } from '../dosResults.ts';
import { progressMode } from './progressOutput.ts';
import {
  checkFailed,
  checkNotJudged,
  VERDICTS,
  type MetricResult,
  type RunResult,
  type Verdict,
} from '../../results/runResult.ts';
import { checkWarned, warningsCount, warningsNote, warningText, type CheckResult } from '../../results/checkResult.ts';
import { percentileShown } from '../sampleSize.ts';
import { polledText, thresholdState, type ThresholdState } from '../thresholds/thresholdEvaluation.ts';
import { headlineMetric, labelsOf } from '../scenarioHeadline.ts';
import { fit, fitTail, length, padEnd, padStart, wrap } from './terminalColumns.ts';
import { capacityLine, thresholdsLine, trafficLines, verdictNote } from './terminalHeadline.ts';

// The thresholds section's first column: held, broken, or not judged (the rig's limit).
import { count, microsAsMillis, ratio, seconds } from '../../figures.ts';
import { printableLine } from './terminalText.ts';
import { partialNote } from '../merge/shardRows.ts';
import { workerLines } from './terminalWorkers.ts';
import { healthNote } from '../rigHealthText.ts';

/** A threshold's word in the summary (padded to the widest shown) and the verdict whose colour it takes. */
const THRESHOLD_WORDS: Record<ThresholdState, string> = { held: 'held', broken: 'BROKEN', 'not judged': 'NOT JUDGED' };
const THRESHOLD_PAINT: Record<ThresholdState, Verdict> = { held: 'passed', broken: 'failed', 'not judged': 'skipped' };

export interface TerminalSummaryOptions {
  /** The files the run wrote, printed last. */
  files?: string[];
  /** Columns to fit (default 100). */
  width?: number;
  /** ANSI colour on verdict words (see summaryColor). */
  color?: boolean;
}

/** Colour only on a terminal, outside CI, and when NO_COLOR is not set (no-color.org). */
export function summaryColor(isTTY: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  return progressMode(isTTY, env) === 'bar' && !env.NO_COLOR;
}

/** 100 columns, or a narrower terminal's width (not under 72, what the scenario table needs). */
export function summaryWidth(stream: { isTTY?: boolean; columns?: number }): number {
  return stream.isTTY && stream.columns ? Math.max(72, Math.min(100, stream.columns)) : 100;
}

const LABEL: Record<Verdict, string> = {
  passed: 'PASS',
  failed: 'FAIL',
  errored: 'ERROR',
  skipped: 'SKIP',
  interrupted: 'STOPPED',
  'not-run': 'NOT RUN',
  inconclusive: 'UNSURE',
};
const HEADLINE: Record<Verdict, string> = {
  passed: 'PASSED',
  failed: 'FAILED',
  errored: 'FAILED',
  skipped: 'NOTHING TESTED',
  interrupted: 'INTERRUPTED',
  'not-run': 'INTERRUPTED',
  inconclusive: 'NOT JUDGED',
};
const COLOUR: Record<Verdict, number> = {
  passed: 32,
  failed: 31,
  errored: 31,
  skipped: 33,
  interrupted: 35,
  'not-run': 35,
  inconclusive: 33,
};

const PERCENTILES = [50, 95, 99] as const;
const DASH = '–';
/** Width of the headline block's labels. */
const LABEL_WIDTH = 12;

/** The fewest samples percentile `p` needs (sampleSize.ts), for the footnote. */
function samplesNeeded(p: number): number {
  for (let n = 1; n <= 1_000_000; n++) if (percentileShown(n, p)) return n;
  return Infinity;
}

/** A metric's name in `width` columns: whole, else its labels' values only (`legit_round_trip{during}`), else cut. */
function metricName(key: string, width: number): string {
  if (length(key) <= width) return key;
  const brace = key.indexOf('{');
  const short = brace < 0 ? key : `${key.slice(0, brace)}{${Object.values(labelsOf(key)).join(',')}}`;
  return fit(short, Math.max(0, width));
}

/** Where an error was thrown: the first frame's `file:line:col` (results.json keeps the whole stack). */
function thrownAt(stack: string): string | undefined {
  const frame = stack
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.startsWith('at '));
  if (!frame) return undefined;
  return /\(([^()]+:\d+:\d+)\)$/.exec(frame)?.[1] ?? frame.slice(3);
}
// ── the summary ─────────────────────────────────────────────────────────────────────────────────

/** What every section is written with: the width, the verdict colours, and the lines so far. */
interface Writer {
  width: number;
  color: boolean;
  out: string[];
  paint: (verdict: Verdict, text: string) => string;
}

const clean = (text: string) => printableLine(text);

/** A headline row: its label, then `text` wrapped under the text column. */
function headline(w: Writer, label: string, text: string, maxLines = 2): void {
  w.out.push(...wrap(clean(text), w.width, `  ${padEnd(label, LABEL_WIDTH)}`, ' '.repeat(2 + LABEL_WIDTH), maxLines));
}

const section = (w: Writer, title: string) => w.out.push('', title);

/** The title (the verdict painted), then the PARTIAL line and the note when the verdict alone would mislead. */
function titleBlock(w: Writer, run: RunResult): void {
  const verdictWord = HEADLINE[run.verdict] ?? run.verdict;
  const scenarioCount = `${run.scenarios.length} scenario${run.scenarios.length === 1 ? '' : 's'}`;
  const ran = `${scenarioCount} in ${seconds(run.durationMs)}`;
  const title = clean(`a2a-rig ${verdictWord} · profile ${run.profile} · ${ran} · run ${run.runId}`);
  // Wrapped, not cut: the run id is there to be copied.
  const titleLines = wrap(title, w.width, '', '  ', 3);
  const first = titleLines[0]!;
  if (first.startsWith(`a2a-rig ${verdictWord}`))
    titleLines[0] = `a2a-rig ${w.paint(run.verdict, verdictWord)}${first.slice(`a2a-rig ${verdictWord}`.length)}`;
  w.out.push(...titleLines);
  // A merge of fewer workers than the run had says so before anything else, whatever its verdict.
  const partial = partialNote(run);
  if (partial) w.out.push(...wrap(clean(partial), w.width, '', '  ', 4));
  const note = verdictNote(run);
  if (note) w.out.push(...wrap(clean(note), w.width, '', '', 3));
  w.out.push('');
}

/** The headline block: agent, endpoint, faults, scenarios by verdict, warnings, capacity, traffic, thresholds. */
function headlineBlock(w: Writer, run: RunResult): void {
  const target = run.target;
  const agentName = `${target.agentName ?? 'unknown agent'}${target.agentVersion ? ` ${target.agentVersion}` : ''}`;
  const agentFaults = target.agentFaults.length ? `; faults: ${target.agentFaults.join(', ')}` : '';
  headline(w, 'agent', `${agentName} at ${target.url} (${targetWire(target)}, ${target.kind}${agentFaults})`);
  if (target.endpointNote) headline(w, 'endpoint', target.endpointNote, 3);
  const proxy = run.proxy ? `${run.proxy.backend}${run.proxy.version ? ` ${run.proxy.version}` : ''}` : 'none';
  const toxics = run.toxics?.length ? ` · run toxics: ${runToxics(run)}` : '';
  headline(w, 'faults', `backend ${proxy}${toxics}`);

  const counts = new Map<Verdict, number>();
  for (const s of run.scenarios) counts.set(s.verdict, (counts.get(s.verdict) ?? 0) + 1);
  const byVerdict = VERDICTS.filter((v) => counts.has(v)).map((v) => `${counts.get(v)} ${v}`);
  headline(w, 'scenarios', byVerdict.join(' · ') || 'none');
  const traffic = trafficLines(run);
  const rows: [string, string | undefined][] = [
    ['warnings', warningsNote(run)],
    ['capacity', capacityLine(run)],
    ['traffic', traffic.traffic],
    ['errors', traffic.errors],
    ['thresholds', thresholdsLine(run)],
  ];
  for (const [label, text] of rows) if (text) headline(w, label, text);
}

/** The scenario table's columns: fixed offsets, names as wide as the terminal allows. */
interface Columns {
  nameWidth: number;
  indent: string;
}

const COLS = { verdict: 7, time: 7, n: 7, stat: 6 };

function row(
  w: Writer,
  c: Columns,
  cells: { verdict: string; name: string; time: string; n: string },
  stats: string[],
  metric: string,
): string {
  const statCells = stats.map((p) => ` ${padStart(p, COLS.stat)}`).join('');
  const left =
    `  ${padEnd(cells.verdict, COLS.verdict)} ${padEnd(fit(cells.name, c.nameWidth), c.nameWidth)}` +
    ` ${padStart(cells.time, COLS.time)} ${padStart(cells.n, COLS.n)}${statCells}`;
  return `${left}  ${metricName(metric, w.width - length(left) - 2)}`.trimEnd();
}

/** Under a scenario's row: why it did not pass, warnings, polling, where it threw, its tax, the rig's load. */
function scenarioNotes(
  w: Writer,
  indent: string,
  s: RunResult['scenarios'][number],
  polled: MetricResult['polled'],
  n: number,
): void {
  const { out, width } = w;
  if (s.verdict !== 'passed' && s.reason) out.push(...wrap(`↳ ${clean(s.reason)}`, width, indent, `${indent}  `, 2));
  if (s.verdict === 'passed' && s.warnings) out.push(`${indent}↳ passed with ${warningsCount(s.warnings)} (below)`);
  if (polled) out.push(...wrap(`↳ ${polledText(polled, n)}`, width, indent, `${indent}  `, 2));
  if (s.verdict === 'errored' && s.stack) {
    const where = thrownAt(s.stack);
    if (where) out.push(`${indent}  thrown at ${fitTail(clean(where), width - indent.length - 12)}`);
  }
  const tax = isDosResult(s) ? attackTax(s) : undefined;
  if (tax) {
    const p99s = `p99 ${microsAsMillis(tax.during.p99)} ms during, ${microsAsMillis(tax.before.p99)} ms before`;
    // A figure, not the gate: the gated tax is per attack, its bursts ÷ the controls beside them.
    out.push(fit(`${indent}p99 during ÷ before ${ratio(tax.tax)} (${clean(tax.metric)} ${p99s})`, width));
  }
  // Right under the latencies it qualifies: when the rig was the limit, they are partly its own.
  const health = healthNote(s);
  if (health) out.push(...wrap(clean(`rig: ${health}`), width, indent, `${indent}  `, 4));
}

/** A scenario's row and the lines under it; true when a percentile was left out for too few samples. */
function scenarioRow(w: Writer, c: Columns, s: RunResult['scenarios'][number]): boolean {
  const head = headlineMetric(s);
  const m = head?.metric;
  let hidden = false;
  const stats = [
    ...PERCENTILES.map((p) => {
      if (!m || m.count === 0) return DASH;
      if (!percentileShown(m.count, p)) {
        hidden = true;
        return DASH;
      }
      return microsAsMillis(m[`p${p}`]);
    }),
    m && m.count > 0 ? microsAsMillis(m.max) : DASH,
  ];
  const label = LABEL[s.verdict] ?? s.verdict;
  const cells = { verdict: label, name: clean(s.name), time: seconds(s.durationMs), n: m ? count(m.count) : DASH };
  const line = row(w, c, cells, stats, head ? clean(head.key) + (m?.polled ? ' (polled)' : '') : '');
  // Colour after alignment: the escape takes no column.
  w.out.push(w.color ? line.replace(label, w.paint(s.verdict, label)) : line);
  scenarioNotes(w, c.indent, s, m?.polled, m?.count ?? 0);
  return hidden;
}

/** One line per scenario, columns at fixed offsets, latencies in ms; a footnote when a percentile was left out. */
function scenarioTable(w: Writer, run: RunResult): void {
  // Names up to 24 columns, fewer on a narrow terminal so the latency's name keeps some room.
  const nameWidth = Math.min(
    Math.max(14, Math.min(24, w.width - 76)),
    Math.max(8, ...run.scenarios.map((s) => length(clean(s.name)))),
  );
  const c: Columns = { nameWidth, indent: ' '.repeat(2 + COLS.verdict + 1) };
  const header = { verdict: '', name: 'scenario', time: 'time', n: 'n' };
  w.out.push('', row(w, c, header, [...PERCENTILES.map((p) => `p${p}`), 'max'], 'latency (ms)'));
  let hidden = false;
  for (const s of run.scenarios) if (scenarioRow(w, c, s)) hidden = true;
  if (!hidden) return;
  const rule = PERCENTILES.filter((p) => p !== 50)
    .map((p) => `p${p} needs n ≥ ${count(samplesNeeded(p))}`)
    .join(', ');
  w.out.push(
    ...wrap(
      `${DASH} too few samples to carry that percentile (${rule}; p50 n ≥ ${samplesNeeded(50)})`,
      w.width,
      `  `,
      '    ',
    ),
  );
}

/** Failed checks, warnings, checks not judged, then the scenarios' notes: a section each, when any. */
function checkSections(w: Writer, run: RunResult): void {
  const plain = (c: CheckResult) => `${c.name}${c.detail ? `: ${c.detail}` : ''}`;
  for (const [title, which, text] of [
    ['failed checks', checkFailed, plain],
    ['warnings (SHOULD and contract-example shape: not failures unless --strict)', checkWarned, warningText],
    ['checks not judged', checkNotJudged, plain],
  ] as const) {
    const lines = run.scenarios.flatMap((s) => s.checks.filter(which).map((c) => `${s.name} · ${text(c)}`));
    if (lines.length > 0) section(w, title);
    for (const f of lines) w.out.push(...wrap(clean(f), w.width, '  ', '      '));
  }
  const notes = run.scenarios.flatMap((s) => (s.notes ?? []).map((n) => `${s.name} · ${n}`));
  if (notes.length > 0) {
    section(w, 'notes');
    for (const n of notes) w.out.push(...wrap(clean(n), w.width, '  ', '      '));
  }
}

/** Each threshold: its word (painted), its expression, what it measured. */
function thresholdSection(w: Writer, thresholds: NonNullable<RunResult['thresholds']>): void {
  section(w, 'thresholds');
  const exprWidth = Math.min(40, Math.max(...thresholds.map((t) => length(clean(t.expression)))));
  const wordWidth = Math.max(6, ...thresholds.map((t) => THRESHOLD_WORDS[thresholdState(t)].length));
  for (const t of thresholds) {
    const state = thresholdState(t);
    const word = THRESHOLD_WORDS[state].padEnd(wordWidth);
    const lead = `  ${word} ${padEnd(fit(clean(t.expression), exprWidth), exprWidth)}  `;
    const lines = wrap(clean(t.detail), w.width, lead, ' '.repeat(length(lead)), 2);
    if (w.color) lines[0] = lines[0]!.replace(word, w.paint(THRESHOLD_PAINT[state], word));
    w.out.push(...lines);
  }
}

export function terminalSummary(run: RunResult, options: TerminalSummaryOptions = {}): string {
  const color = options.color ?? false;
  const w: Writer = {
    width: options.width ?? 100,
    color,
    out: [],
    paint: (verdict, text) => (color ? `\u001b[${COLOUR[verdict] ?? 0}m${text}\u001b[0m` : text),
  };
  titleBlock(w, run);
  headlineBlock(w, run);
  scenarioTable(w, run);
  if (run.shards) {
    section(w, 'workers');
    w.out.push(...workerLines(run.shards, w.width));
  }
  checkSections(w, run);
  if (run.thresholds?.length) thresholdSection(w, run.thresholds);
  if (options.files?.length) {
    section(w, 'results');
    // Paths are printed whole, to be copied, whatever the width.
    for (const f of options.files) w.out.push(`  ${clean(f)}`);
  }
  return `${w.out.join('\n')}\n`;
}
