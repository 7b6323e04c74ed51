// The end-of-run summary on a terminal (k6's end-of-test summary is the model): plain text in 100
// columns, no Markdown. A headline block (the run's verdict, scenarios by verdict, capacity, round
// trips and requests, error %, thresholds), one aligned line per scenario (verdict, name, time, the
// sample count and percentiles of its headline latency, a percentile left out when too few samples
// carry it, sampleSize.ts), then the failed checks, the notes, the thresholds and the result files.
// summary.md (summaryMarkdown.ts) stays the Markdown version. Whatever an agent said goes through
// printableLine (terminalText.ts); colour, when asked for, only marks verdict words.
import { targetWire } from '../targetWire.ts';
import { attackTax, isDosResult } from '../dosResults.ts';
import { progressMode } from './progressOutput.ts';
import { checkFailed, checkNotJudged, VERDICTS, type RunResult, type Verdict } from '../../results/runResult.ts';
import { checkWarned, warningsCount, warningsNote, warningText, type CheckResult } from '../../results/checkResult.ts';
import { percentileShown } from '../sampleSize.ts';
import { polledText, thresholdState, type ThresholdState } from '../thresholds/thresholdEvaluation.ts';
import { headlineMetric, labelsOf } from '../scenarioHeadline.ts';
import { fit, fitTail, length, padEnd, padStart, wrap } from './terminalColumns.ts';
import { capacityLine, thresholdsLine, trafficLines, verdictNote } from './terminalHeadline.ts';

// The thresholds section's first column: held, broken, or not judged (the rig's limit).
import { count, microsAsMillis, ratio, seconds } from '../../results/figures.ts';
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

export function terminalSummary(run: RunResult, options: TerminalSummaryOptions = {}): string {
  const width = options.width ?? 100;
  const paint = (verdict: Verdict, text: string) =>
    options.color ? `\u001b[${COLOUR[verdict] ?? 0}m${text}\u001b[0m` : text;
  const clean = (text: string) => printableLine(text);
  const out: string[] = [];
  /** A headline row: its label, then `text` wrapped under the text column. */
  const headline = (label: string, text: string, maxLines = 2) => {
    out.push(...wrap(clean(text), width, `  ${padEnd(label, LABEL_WIDTH)}`, ' '.repeat(2 + LABEL_WIDTH), maxLines));
  };
  const section = (title: string) => out.push('', title);

  const verdictWord = HEADLINE[run.verdict] ?? run.verdict;
  const scenarioCount = `${run.scenarios.length} scenario${run.scenarios.length === 1 ? '' : 's'}`;
  const ran = `${scenarioCount} in ${seconds(run.durationMs)}`;
  const title = clean(`a2a-rig ${verdictWord} · profile ${run.profile} · ${ran} · run ${run.runId}`);
  // Wrapped, not cut: the run id is there to be copied.
  const titleLines = wrap(title, width, '', '  ', 3);
  const first = titleLines[0]!;
  if (first.startsWith(`a2a-rig ${verdictWord}`))
    titleLines[0] = `a2a-rig ${paint(run.verdict, verdictWord)}${first.slice(`a2a-rig ${verdictWord}`.length)}`;
  out.push(...titleLines);
  // A merge of fewer workers than the run had says so before anything else, whatever its verdict.
  const partial = partialNote(run);
  if (partial) out.push(...wrap(clean(partial), width, '', '  ', 4));
  const note = verdictNote(run);
  if (note) out.push(...wrap(clean(note), width, '', '', 3));
  out.push('');

  const target = run.target;
  const agentName = `${target.agentName ?? 'unknown agent'}${target.agentVersion ? ` ${target.agentVersion}` : ''}`;
  const agentFaults = target.agentFaults.length ? `; faults: ${target.agentFaults.join(', ')}` : '';
  const agent = `${agentName} at ${target.url} (${targetWire(target)}, ${target.kind}${agentFaults})`;
  headline('agent', agent);
  if (target.endpointNote) headline('endpoint', target.endpointNote, 3);
  const proxy = run.proxy ? `${run.proxy.backend}${run.proxy.version ? ` ${run.proxy.version}` : ''}` : 'none';
  const toxics = run.toxics?.length
    ? ` · run toxics: ${run.toxics
        .map(
          (t) =>
            `${t.type} ${t.stream} ${Object.entries(t.attributes)
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')}`,
        )
        .join('; ')}`
    : '';
  headline('faults', `backend ${proxy}${toxics}`);

  const counts = new Map<Verdict, number>();
  for (const s of run.scenarios) counts.set(s.verdict, (counts.get(s.verdict) ?? 0) + 1);
  headline(
    'scenarios',
    VERDICTS.filter((v) => counts.has(v))
      .map((v) => `${counts.get(v)} ${v}`)
      .join(' · ') || 'none',
  );
  const warnings = warningsNote(run);
  if (warnings) headline('warnings', warnings);
  const capacity = capacityLine(run);
  if (capacity) headline('capacity', capacity);
  const traffic = trafficLines(run);
  if (traffic.traffic) headline('traffic', traffic.traffic);
  if (traffic.errors) headline('errors', traffic.errors);
  const thresholds = thresholdsLine(run);
  if (thresholds) headline('thresholds', thresholds);

  // One line per scenario, columns at fixed offsets; latencies in ms.
  // Names up to 24 columns, fewer on a narrow terminal so the latency's name keeps some room.
  const nameWidth = Math.min(
    Math.max(14, Math.min(24, width - 76)),
    Math.max(8, ...run.scenarios.map((s) => length(clean(s.name)))),
  );
  const cols = { verdict: 7, time: 7, n: 7, stat: 6 };
  const indent = ' '.repeat(2 + cols.verdict + 1);
  let hidden = false;
  const row = (verdict: string, name: string, time: string, n: string, stats: string[], metric: string) => {
    const statCells = stats.map((p) => ` ${padStart(p, cols.stat)}`).join('');
    const left =
      `  ${padEnd(verdict, cols.verdict)} ${padEnd(fit(name, nameWidth), nameWidth)}` +
      ` ${padStart(time, cols.time)} ${padStart(n, cols.n)}${statCells}`;
    return `${left}  ${metricName(metric, width - length(left) - 2)}`.trimEnd();
  };
  out.push('', row('', 'scenario', 'time', 'n', [...PERCENTILES.map((p) => `p${p}`), 'max'], 'latency (ms)'));
  for (const s of run.scenarios) {
    const head = headlineMetric(s);
    const m = head?.metric;
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
    const line = row(
      label,
      clean(s.name),
      seconds(s.durationMs),
      m ? count(m.count) : DASH,
      stats,
      head ? clean(head.key) + (m?.polled ? ' (polled)' : '') : '',
    );
    // Colour after alignment: the escape takes no column.
    out.push(options.color ? line.replace(label, paint(s.verdict, label)) : line);
    if (s.verdict !== 'passed' && s.reason) out.push(...wrap(`↳ ${clean(s.reason)}`, width, indent, `${indent}  `, 2));
    if (s.verdict === 'passed' && s.warnings) out.push(`${indent}↳ passed with ${warningsCount(s.warnings)} (below)`);
    if (m?.polled) out.push(...wrap(`↳ ${polledText(m.polled, m.count)}`, width, indent, `${indent}  `, 2));
    if (s.verdict === 'errored' && s.stack) {
      const where = thrownAt(s.stack);
      if (where) out.push(`${indent}  thrown at ${fitTail(clean(where), width - indent.length - 12)}`);
    }
    if (isDosResult(s)) {
      const tax = attackTax(s);
      if (tax) {
        const p99s = `p99 ${microsAsMillis(tax.during.p99)} ms during, ${microsAsMillis(tax.before.p99)} ms before`;
        // A figure, not the gate: the gated tax is per attack, its bursts ÷ the controls beside them.
        out.push(fit(`${indent}p99 during ÷ before ${ratio(tax.tax)} (${clean(tax.metric)} ${p99s})`, width));
      }
    }
    // Right under the latencies it qualifies: when the rig was the limit, they are partly its own.
    const health = healthNote(s);
    if (health) out.push(...wrap(clean(`rig: ${health}`), width, indent, `${indent}  `, 4));
  }
  if (hidden) {
    const rule = PERCENTILES.filter((p) => p !== 50)
      .map((p) => `p${p} needs n ≥ ${count(samplesNeeded(p))}`)
      .join(', ');
    out.push(
      ...wrap(
        `${DASH} too few samples to carry that percentile (${rule}; p50 n ≥ ${samplesNeeded(50)})`,
        width,
        `  `,
        '    ',
      ),
    );
  }

  if (run.shards) {
    section('workers');
    out.push(...workerLines(run.shards, width));
  }

  const plain = (c: CheckResult) => `${c.name}${c.detail ? `: ${c.detail}` : ''}`;
  for (const [title, which, text] of [
    ['failed checks', checkFailed, plain],
    ['warnings (SHOULD and contract-example shape: not failures unless --strict)', checkWarned, warningText],
    ['checks not judged', checkNotJudged, plain],
  ] as const) {
    const lines = run.scenarios.flatMap((s) => s.checks.filter(which).map((c) => `${s.name} · ${text(c)}`));
    if (lines.length > 0) section(title);
    for (const f of lines) out.push(...wrap(clean(f), width, '  ', '      '));
  }
  const notes = run.scenarios.flatMap((s) => (s.notes ?? []).map((n) => `${s.name} · ${n}`));
  if (notes.length > 0) {
    section('notes');
    for (const n of notes) out.push(...wrap(clean(n), width, '  ', '      '));
  }
  if (run.thresholds?.length) {
    section('thresholds');
    const exprWidth = Math.min(40, Math.max(...run.thresholds.map((t) => length(clean(t.expression)))));
    const wordWidth = Math.max(6, ...run.thresholds.map((t) => THRESHOLD_WORDS[thresholdState(t)].length));
    for (const t of run.thresholds) {
      const state = thresholdState(t);
      const word = THRESHOLD_WORDS[state].padEnd(wordWidth);
      const lead = `  ${word} ${padEnd(fit(clean(t.expression), exprWidth), exprWidth)}  `;
      const lines = wrap(clean(t.detail), width, lead, ' '.repeat(length(lead)), 2);
      if (options.color) lines[0] = lines[0]!.replace(word, paint(THRESHOLD_PAINT[state], word));
      out.push(...lines);
    }
  }
  if (options.files?.length) {
    section('results');
    // Paths are printed whole, to be copied, whatever the width.
    for (const f of options.files) out.push(`  ${clean(f)}`);
  }
  return `${out.join('\n')}\n`;
}
