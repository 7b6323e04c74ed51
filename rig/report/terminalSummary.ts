// The end-of-run summary on a terminal (k6's end-of-test summary is the model): plain text in 100
// columns, no Markdown. A headline block (the run's verdict, scenarios by verdict, capacity, round
// trips and requests, error %, thresholds), one aligned line per scenario (verdict, name, time, the
// sample count and percentiles of its headline latency, a percentile left out when too few samples
// carry it, sampleSize.ts), then the failed checks, the notes, the thresholds and the result files.
// summary.md (summaryMarkdown.ts) stays the Markdown version. Whatever an agent said goes through
// printableLine (terminalText.ts); colour, when asked for, only marks verdict words.
import { sumTraffic, trafficOf } from './trafficTotals.ts';
import { geometricRates } from '../load/arrivalSchedule.ts';
import { attackTax, isDosResult } from './dosResults.ts';
import { baseName } from '../results/metricNames.ts';
import { progressMode } from './progressOutput.ts';
import {
  nothingTested,
  VERDICTS,
  type MetricResult,
  type RunResult,
  type ScenarioResult,
  type SeriesPoint,
  type Verdict,
} from '../results/runResult.ts';
import { percentileShown } from './sampleSize.ts';
import { printableLine } from './terminalText.ts';

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

/** The capacity scenario's curve (scenarios/capacity.ts): one point per offered rate, in the order run. */
export const CAPACITY_SERIES = 'round_trip_p95_ms_vs_rate_per_s';

const LABEL: Record<Verdict, string> = {
  passed: 'PASS',
  failed: 'FAIL',
  errored: 'ERROR',
  skipped: 'SKIP',
  interrupted: 'STOPPED',
  'not-run': 'NOT RUN',
};
const HEADLINE: Record<Verdict, string> = {
  passed: 'PASSED',
  failed: 'FAILED',
  errored: 'FAILED',
  skipped: 'NOTHING TESTED',
  interrupted: 'INTERRUPTED',
  'not-run': 'INTERRUPTED',
};
const COLOUR: Record<Verdict, number> = {
  passed: 32,
  failed: 31,
  errored: 31,
  skipped: 33,
  interrupted: 35,
  'not-run': 35,
};

const PERCENTILES = [50, 95, 99] as const;
const DASH = '–';
/** Width of the headline block's labels. */
const LABEL_WIDTH = 12;

// ── text in columns ─────────────────────────────────────────────────────────────────────────────

const length = (s: string) => [...s].length;

/** `s` cut to `width` characters, the last one an ellipsis when anything was cut. */
export function fit(s: string, width: number): string {
  const chars = [...s];
  if (chars.length <= width) return s;
  return width <= 0 ? '' : `${chars.slice(0, width - 1).join('')}…`;
}

const padEnd = (s: string, width: number) => s + ' '.repeat(Math.max(0, width - length(s)));
const padStart = (s: string, width: number) => ' '.repeat(Math.max(0, width - length(s))) + s;

/**
 * `text` in lines of at most `width` characters: the first after `first`, the others after `rest`
 * (both indents), broken at spaces, a word longer than a whole line broken where the line ends; at
 * most `maxLines` lines, the last ending in "…" when text was left out.
 */
export function wrap(text: string, width: number, first: string, rest: string, maxLines = 4): string[] {
  const room = Math.max(1, width - length(rest));
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(/ +/).filter((w) => w !== '')) {
    const candidate = empty ? line + word : `${line} ${word}`;
    if (length(candidate) <= width) {
      line = candidate;
      empty = false;
      continue;
    }
    if (!empty && length(word) <= room) {
      lines.push(line);
      line = rest + word;
      continue;
    }
    // Too long for any line: fill this one, go on in the next ones.
    let chars = [...(empty ? word : ` ${word}`)];
    while (chars.length > 0) {
      const free = width - length(line);
      if (free <= 0) {
        lines.push(line);
        line = rest;
        continue;
      }
      line += chars.slice(0, free).join('');
      chars = chars.slice(free);
    }
    empty = false;
  }
  if (!empty) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = fit(`${kept[maxLines - 1]!}…`, width);
  return kept;
}

// ── numbers ─────────────────────────────────────────────────────────────────────────────────────

const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** Milliseconds with the digits that mean something: 0.42, 8.31, 42.1, 421, 4,210. */
export function millis(ms: number): string {
  if (ms < 10) return ms.toFixed(2);
  if (ms < 100) return ms.toFixed(1);
  return count(ms);
}

const micros = (us: number) => millis(us / 1000);
/** "12.3 s"; from 1,000 s on "16m 40s", so the time column keeps its width. */
function seconds(ms: number): string {
  const s = ms / 1000;
  if (s < 1000) return `${s.toFixed(1)} s`;
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)}m ${String(whole % 60).padStart(2, '0')}s`;
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

function percent(part: number, whole: number): string {
  if (whole === 0) return '0 %';
  const p = (part * 100) / whole;
  if (p === 0) return '0 %';
  if (p < 0.01) return '< 0.01 %';
  return `${p < 10 ? p.toFixed(2) : p.toFixed(1)} %`;
}

/** The fewest samples percentile `p` needs (sampleSize.ts), for the footnote. */
function samplesNeeded(p: number): number {
  for (let n = 1; n <= 1_000_000; n++) if (percentileShown(n, p)) return n;
  return Infinity;
}

// ── what each scenario headlines ────────────────────────────────────────────────────────────────

function labelsOf(key: string): Record<string, string> {
  const brace = key.indexOf('{');
  if (brace < 0) return {};
  return Object.fromEntries(
    key
      .slice(brace + 1, -1)
      .split(',')
      .map((pair) => pair.split('=') as [string, string]),
  );
}

/**
 * The latency a scenario's line shows: of its first declared latency (its `records`, else the first
 * recorded) that has samples; of a labelled one, the series at the capacity found (capacity), the
 * attack phase (DoS), else the one with the most samples.
 */
export function headlineMetric(s: ScenarioResult): { key: string; metric: MetricResult } | undefined {
  const keys = Object.keys(s.metrics);
  const families = [...new Set([...(s.records?.latencies ?? []).map(baseName), ...keys.map(baseName)])];
  for (const family of families) {
    const members = keys.filter((k) => baseName(k) === family && s.metrics[k]!.count > 0);
    if (members.length === 0) continue;
    const capacity = s.counters.capacity_per_s;
    const chosen =
      (capacity ? members.find((k) => labelsOf(k).rate === String(capacity)) : undefined) ??
      members.find((k) => labelsOf(k).phase === 'during') ??
      members.reduce((best, k) => (s.metrics[k]!.count > s.metrics[best]!.count ? k : best));
    return { key: chosen, metric: s.metrics[chosen]! };
  }
  const first = keys[0];
  return first === undefined ? undefined : { key: first, metric: s.metrics[first]! };
}

// ── the headline block ──────────────────────────────────────────────────────────────────────────

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The profile's top offered rate, from capacity's own parameters; undefined when they are not there. */
function topRate(params: Record<string, unknown>): number | undefined {
  const [start, growth, max] = [num(params.startRate), num(params.growth), num(params.maxRate)];
  if (start === undefined || growth === undefined || max === undefined) return undefined;
  try {
    return geometricRates(start, growth, max).at(-1);
  } catch {
    return undefined;
  }
}

/** "p95 12.3 ms", marked when the step's samples are too few to carry a p95. */
function stepP95(s: ScenarioResult, point: SeriesPoint): string {
  const n = Object.entries(s.metrics).find(
    ([k]) => baseName(k) === 'round_trip' && labelsOf(k).rate === String(point.x),
  )?.[1]?.count;
  const value = `p95 ${millis(point.y)} ms`;
  return n !== undefined && !percentileShown(n, 95) ? `${value} (n=${n}: too few for a p95)` : value;
}

/** Why a step broke its SLO, from its point's fields. */
function breach(s: ScenarioResult, point: SeriesPoint): string {
  const parts = [stepP95(s, point)];
  const arrivals = num(point.arrivals);
  const of = arrivals !== undefined ? ` of ${count(arrivals)}` : '';
  for (const field of ['errors', 'dropped'] as const) {
    const n = num(point[field]);
    if (n) parts.push(`${count(n)}${of} ${field === 'errors' ? 'failed' : 'dropped'}`);
  }
  return parts.join(', ');
}

/**
 * The capacity line: the highest offered rate that held the SLO; "cap reached" when the profile's
 * top step held, since the capacity is then above anything tried; undefined without a capacity
 * scenario in the run.
 */
export function capacityLine(run: RunResult): string | undefined {
  const s = run.scenarios.find((x) => x.series?.[CAPACITY_SERIES]) ?? run.scenarios.find((x) => x.name === 'capacity');
  if (!s) return undefined;
  const points = s.series?.[CAPACITY_SERIES] ?? [];
  if (points.length === 0) return `not measured (capacity ${s.verdict}${s.reason ? `: ${s.reason}` : ''})`;
  const what = s.params.roundTrip === 'acceptance' ? 'acceptance round trips/s' : 'round trips/s';
  const slo = num(s.params.sloP95Ms) !== undefined ? ` (p95 ≤ ${s.params.sloP95Ms} ms)` : '';
  const held = points.filter((p) => p.sustainable === true);
  const best = held.length ? held.reduce((a, b) => (b.x > a.x ? b : a)) : undefined;
  const broke = points.find((p) => p.sustainable === false);
  if (broke) {
    const end = `the SLO${slo} broke at ${broke.x}/s: ${breach(s, broke)}`;
    return best ? `${best.x} ${what}, ${stepP95(s, best)}; ${end}` : `none: ${end}`;
  }
  if (!best) return `not measured (capacity ${s.verdict}${s.reason ? `: ${s.reason}` : ''})`;
  const top = topRate(s.params);
  if (top !== undefined && best.x >= top) {
    return `cap reached: top offered rate ${best.x}/s held; capacity is above it (${stepP95(s, best)}; raise --param ${s.name}.maxRate)`;
  }
  return `≥ ${best.x} ${what}, ${stepP95(s, best)}: the search stopped before the profile's top rate${top !== undefined ? ` (${top}/s)` : ''}`;
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

/** `s` in `width` characters keeping its end (a path's file and line), an ellipsis first when cut. */
function fitTail(s: string, width: number): string {
  const chars = [...s];
  return chars.length <= width ? s : `…${chars.slice(chars.length - width + 1).join('')}`;
}

const isRoundTrip = (key: string) => /(^|_)round_trip$/.test(baseName(key));

/**
 * The traffic row (round trips timed; requests and bytes of the scenarios that recorded their
 * traffic) and the errors row (error % of those requests, and of what kind: a refusal a scenario
 * provokes on purpose, duplicate-flood's 409s, is said beside the failures, not counted as one). Either undefined when there is nothing to say.
 */
function trafficLines(run: RunResult): { traffic?: string; errors?: string } {
  const roundTrips = run.scenarios.reduce(
    (sum, s) =>
      sum +
      Object.entries(s.metrics)
        .filter(([k]) => isRoundTrip(k))
        .reduce((n, [, m]) => n + m.count, 0),
    0,
  );
  const recorded = run.scenarios.filter((s) => s.traffic);
  const parts: string[] = [];
  if (roundTrips > 0) parts.push(`${count(roundTrips)} round trips timed`);
  if (recorded.length === 0) {
    if (roundTrips > 0) parts.push('requests not recorded in these results');
    return parts.length ? { traffic: parts.join(' · ') } : {};
  }
  const t = sumTraffic(trafficOf(recorded));
  parts.push(`${count(t.requests)} requests`, `${bytes(t.bytesSent)} sent, ${bytes(t.bytesReceived)} received`);
  // Failed: no usable reply (a transport error, a timeout), what a red figure means. Refused: the
  // agent answered with an error, often because the scenario provoked it (duplicate-flood's 409s).
  const failed = t.failed;
  const most = (by: (s: (typeof recorded)[number]) => number) => recorded.reduce((a, b) => (by(b) > by(a) ? b : a));
  const refusedBy = (s: (typeof recorded)[number]) => sumTraffic([s.traffic!]).refused;
  const failedBy = (s: (typeof recorded)[number]) => sumTraffic([s.traffic!]).failed;
  let errors = `${percent(failed, t.requests)} failed (${count(failed)} of ${count(t.requests)} requests got no usable reply)`;
  if (failed > 0) errors += `, most in ${most(failedBy).name} (${count(failedBy(most(failedBy)))})`;
  if (t.refused > 0)
    errors += `; ${count(t.refused)} refused by the agent (most provoked on purpose), most in ${most(refusedBy).name} (${count(refusedBy(most(refusedBy)))})`;
  return { traffic: parts.join(' · '), errors };
}

function thresholdsLine(run: RunResult): string | undefined {
  const all = run.thresholds ?? [];
  if (all.length === 0) return undefined;
  const broken = all.filter((t) => !t.ok);
  const head = `${all.length - broken.length} held · ${broken.length} broken`;
  const first = broken[0];
  return first ? `${head}: ${first.expression} — ${first.detail}` : head;
}

/** Under the title when the verdict alone would mislead: stopped early, nothing tested, some skipped. */
function verdictNote(run: RunResult): string | undefined {
  if (run.verdict === 'interrupted') {
    const notRun = run.scenarios.filter((s) => s.verdict === 'not-run').length;
    return `Interrupted by ${run.interruptedBy ?? 'a signal'}: these are the results so far${notRun ? `; ${notRun} scenario${notRun === 1 ? ' was' : 's were'} not run` : ''}.`;
  }
  const untested = run.verdict === 'skipped' ? nothingTested(run.scenarios) : undefined;
  if (untested)
    return `${untested[0]!.toUpperCase()}${untested.slice(1)}. Skipped is not passed: run and conform exit with code 3.`;
  const skipped = run.scenarios.filter((s) => s.verdict === 'skipped').length;
  return skipped > 0
    ? `${skipped} of ${run.scenarios.length} scenarios skipped (the reasons are below); --fail-on-skip makes any skip fail the run.`
    : undefined;
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
  const title = clean(
    `a2a-rig ${verdictWord} · profile ${run.profile} · ${run.scenarios.length} scenario${run.scenarios.length === 1 ? '' : 's'} in ${seconds(run.durationMs)} · run ${run.runId}`,
  );
  // Wrapped, not cut: the run id is there to be copied.
  const titleLines = wrap(title, width, '', '  ', 3);
  const first = titleLines[0]!;
  if (first.startsWith(`a2a-rig ${verdictWord}`))
    titleLines[0] = `a2a-rig ${paint(run.verdict, verdictWord)}${first.slice(`a2a-rig ${verdictWord}`.length)}`;
  out.push(...titleLines);
  const note = verdictNote(run);
  if (note) out.push(...wrap(clean(note), width, '', '', 3));
  out.push('');

  const target = run.target;
  const agent = `${target.agentName ?? 'unknown agent'}${target.agentVersion ? ` ${target.agentVersion}` : ''} at ${target.url} (A2A ${target.generation ?? '?'}, ${target.kind}${target.agentFaults.length ? `; faults: ${target.agentFaults.join(', ')}` : ''})`;
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
    const left = `  ${padEnd(verdict, cols.verdict)} ${padEnd(fit(name, nameWidth), nameWidth)} ${padStart(time, cols.time)} ${padStart(n, cols.n)}${stats.map((p) => ` ${padStart(p, cols.stat)}`).join('')}`;
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
        return micros(m[`p${p}`]);
      }),
      m && m.count > 0 ? micros(m.max) : DASH,
    ];
    const label = LABEL[s.verdict] ?? s.verdict;
    const line = row(
      label,
      clean(s.name),
      seconds(s.durationMs),
      m ? count(m.count) : DASH,
      stats,
      head ? clean(head.key) : '',
    );
    // Colour after alignment: the escape takes no column.
    out.push(options.color ? line.replace(label, paint(s.verdict, label)) : line);
    if (s.verdict !== 'passed' && s.reason) out.push(...wrap(`↳ ${clean(s.reason)}`, width, indent, `${indent}  `, 2));
    if (s.verdict === 'errored' && s.stack) {
      const where = thrownAt(s.stack);
      if (where) out.push(`${indent}  thrown at ${fitTail(clean(where), width - indent.length - 12)}`);
    }
    if (isDosResult(s)) {
      const tax = attackTax(s);
      if (tax)
        out.push(
          fit(
            `${indent}attack tax ${tax.tax.toFixed(2)}× (${clean(tax.metric)} p99 ${micros(tax.during.p99)} ms during, ${micros(tax.before.p99)} ms before)`,
            width,
          ),
        );
    }
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

  const failed = run.scenarios.flatMap((s) =>
    s.checks.filter((c) => !c.ok).map((c) => `${s.name} · ${c.name}${c.detail ? `: ${c.detail}` : ''}`),
  );
  if (failed.length > 0) {
    section('failed checks');
    for (const f of failed) out.push(...wrap(clean(f), width, '  ', '      '));
  }
  const notes = run.scenarios.flatMap((s) => (s.notes ?? []).map((n) => `${s.name} · ${n}`));
  if (notes.length > 0) {
    section('notes');
    for (const n of notes) out.push(...wrap(clean(n), width, '  ', '      '));
  }
  if (run.thresholds?.length) {
    section('thresholds');
    const exprWidth = Math.min(40, Math.max(...run.thresholds.map((t) => length(clean(t.expression)))));
    for (const t of run.thresholds) {
      const word = t.ok ? 'held  ' : 'BROKEN';
      const lead = `  ${word} ${padEnd(fit(clean(t.expression), exprWidth), exprWidth)}  `;
      const lines = wrap(clean(t.detail), width, lead, ' '.repeat(length(lead)), 2);
      if (options.color) lines[0] = lines[0]!.replace(word, paint(t.ok ? 'passed' : 'failed', word));
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
