// The pure half of bench/run.ts: read the rows a benchmark printed, hold them against the rows it
// was expected to print, and lay them out as one table. A row that was expected but not printed,
// or printed by a benchmark that then failed, can never read as met: a false pass is worse than a
// crash.
import { isMet, ROWS_PREFIX, type BenchGoal, type BenchRow } from './benchRows.ts';

/** A row of the table a benchmark must print; its goal is the one that counts. */
export interface ExpectedRow {
  id: string;
  label: string;
  unit: string;
  goal?: BenchGoal;
}

export interface BenchmarkSpec {
  name: string;
  /** Path from the repository root, run as `node --import tsx <script>`. */
  script: string;
  rows: ExpectedRow[];
  timeoutMs: number;
}

/** How a benchmark's process ended, and what it printed on stdout. */
export interface BenchmarkOutcome {
  exitCode: number | null;
  signal: string | null;
  timedOutAfterMs?: number;
  /** Could not be started at all (spawn error). */
  startError?: string;
  stdout: string;
}

export type Met = 'yes' | 'NO' | '—';

export interface JudgedRow extends BenchRow {
  benchmark: string;
  met: Met;
  measured: boolean;
}

export interface JudgedBenchmark {
  name: string;
  /** Why the benchmark's figures cannot all be trusted (crash, timeout, no or bad rows line). */
  failure?: string;
  rows: JudgedRow[];
}

const isGoal = (g: unknown): g is BenchGoal =>
  typeof g === 'object' &&
  g !== null &&
  ((g as BenchGoal).op === '>=' || (g as BenchGoal).op === '<=') &&
  Number.isFinite((g as BenchGoal).value);

function asRow(raw: unknown): BenchRow | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'a row is not an object';
  const r = raw as Record<string, unknown>;
  if (typeof r.id !== 'string' || r.id === '') return 'a row has no id';
  if (typeof r.label !== 'string') return `row ${r.id} has no label`;
  if (r.value !== null && typeof r.value !== 'number') return `row ${r.id}: value must be a number or null`;
  if (typeof r.unit !== 'string') return `row ${r.id} has no unit`;
  if (r.goal !== undefined && !isGoal(r.goal)) return `row ${r.id}: goal must be {op: ">=" | "<=", value: number}`;
  if (r.detail !== undefined && typeof r.detail !== 'string') return `row ${r.id}: detail must be a string`;
  if (r.invalid !== undefined && typeof r.invalid !== 'string') return `row ${r.id}: invalid must be a string`;
  return r as unknown as BenchRow;
}

/** The rows of the last `BENCH_ROWS` line of a benchmark's stdout, or why there are none. */
export function parseRows(stdout: string): { rows: BenchRow[] } | { error: string } {
  const line = stdout
    .split(/\r?\n/)
    .reverse()
    .find((l) => l.startsWith(ROWS_PREFIX));
  if (line === undefined) return { error: 'printed no BENCH_ROWS line' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(line.slice(ROWS_PREFIX.length));
  } catch {
    return { error: 'its BENCH_ROWS line is not JSON' };
  }
  if (!Array.isArray(parsed)) return { error: 'its BENCH_ROWS line is not an array' };
  const rows: BenchRow[] = [];
  for (const raw of parsed) {
    const row = asRow(raw);
    if (typeof row === 'string') return { error: `its BENCH_ROWS line is malformed: ${row}` };
    rows.push(row);
  }
  return { rows };
}

function failureOf(outcome: BenchmarkOutcome): string | undefined {
  if (outcome.startError) return `could not start: ${outcome.startError}`;
  if (outcome.timedOutAfterMs !== undefined) return `timed out after ${Math.round(outcome.timedOutAfterMs / 1000)} s`;
  if (outcome.signal) return `killed by ${outcome.signal}`;
  if (outcome.exitCode !== 0) return `exited with code ${outcome.exitCode}`;
  return undefined;
}

const sameGoal = (a?: BenchGoal, b?: BenchGoal) => a?.op === b?.op && a?.value === b?.value;

const judged = (benchmark: string, row: BenchRow, measured: boolean): JudgedRow => {
  const met = isMet(row);
  return { ...row, benchmark, measured, met: !measured ? 'NO' : met === undefined ? '—' : met ? 'yes' : 'NO' };
};

/**
 * Every expected row (in the spec's order, with the spec's goal), then any row the benchmark
 * printed beyond them (with its own goal). A benchmark that failed keeps the figures it printed,
 * but they are marked invalid, so none of them counts as met.
 */
export function judgeBenchmark(spec: Pick<BenchmarkSpec, 'name' | 'rows'>, outcome: BenchmarkOutcome): JudgedBenchmark {
  const parsed = parseRows(outcome.stdout);
  const printed = 'rows' in parsed ? parsed.rows : [];
  const failures = [failureOf(outcome), 'error' in parsed ? parsed.error : undefined].filter(
    (f): f is string => f !== undefined,
  );
  const failure = failures.length ? failures.join('; ') : undefined;
  const taint = (row: BenchRow): BenchRow =>
    failure ? { ...row, invalid: [row.invalid, `the benchmark ${failure}`].filter(Boolean).join('; ') } : row;
  const rows: JudgedRow[] = [];
  for (const expected of spec.rows) {
    const row = printed.find((r) => r.id === expected.id);
    if (!row) {
      rows.push(
        judged(
          spec.name,
          {
            ...expected,
            value: null,
            detail: failure ? `the benchmark ${failure}` : 'the benchmark did not print this row',
          },
          false,
        ),
      );
      continue;
    }
    const declared = sameGoal(row.goal, expected.goal)
      ? ''
      : `the benchmark declared goal ${formatGoal(row.goal, row.unit)}, ${formatGoal(expected.goal, row.unit)} applies`;
    const detail = [row.detail, declared].filter(Boolean).join('; ');
    const { goal: _declaredGoal, ...rest } = row;
    rows.push(
      judged(
        spec.name,
        taint({ ...rest, ...(expected.goal ? { goal: expected.goal } : {}), ...(detail ? { detail } : {}) }),
        row.value !== null,
      ),
    );
  }
  const seen = new Set(spec.rows.map((r) => r.id));
  for (const row of printed) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    rows.push(judged(spec.name, taint(row), row.value !== null));
  }
  return { name: spec.name, ...(failure ? { failure } : {}), rows };
}

export interface TableSummary {
  goals: number;
  met: number;
  notMeasured: number;
  /** Rows with a goal that were not measured: the run cannot say whether the goal is met. */
  goalsNotMeasured: number;
  invalid: number;
  failedBenchmarks: string[];
}

export function summarize(benchmarks: JudgedBenchmark[]): TableSummary {
  const rows = benchmarks.flatMap((b) => b.rows);
  return {
    goals: rows.filter((r) => r.goal).length,
    met: rows.filter((r) => r.met === 'yes').length,
    notMeasured: rows.filter((r) => !r.measured).length,
    goalsNotMeasured: rows.filter((r) => !r.measured && r.goal).length,
    invalid: rows.filter((r) => r.measured && r.invalid).length,
    failedBenchmarks: benchmarks.filter((b) => b.failure).map((b) => `${b.name} (${b.failure})`),
  };
}

/**
 * 4 (the rig's "internal error") when a benchmark failed or a goal could not be measured: the
 * run is incomplete. A missed goal is a finding, not a failure of the tool: 0, or 1 with `strict`.
 * An informational row a clean benchmark could not measure (wrk not installed) is reported only.
 */
export function exitCodeOf(s: TableSummary, strict: boolean): 0 | 1 | 4 {
  if (s.failedBenchmarks.length > 0 || s.goalsNotMeasured > 0) return 4;
  return strict && s.met < s.goals ? 1 : 0;
}

export function summaryLine(s: TableSummary): string {
  const parts = [`${s.met} of ${s.goals} goals met`];
  if (s.notMeasured) parts.push(`${s.notMeasured} row${s.notMeasured === 1 ? '' : 's'} NOT MEASURED`);
  if (s.invalid) parts.push(`${s.invalid} row${s.invalid === 1 ? '' : 's'} invalid (errors during the run)`);
  if (s.failedBenchmarks.length) parts.push(`failed: ${s.failedBenchmarks.join(', ')}`);
  return parts.join('; ');
}

const grouped = (n: number) => Math.round(n).toLocaleString('en-US');

export function formatValue(value: number | null, unit: string): string {
  if (value === null || !Number.isFinite(value)) return 'NOT MEASURED';
  if (unit === 'x') return `${value.toFixed(2)}×`;
  if (unit === 'ms') return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
  return `${Math.abs(value) >= 100 || Number.isInteger(value) ? grouped(value) : value.toPrecision(3)} ${unit}`;
}

export function formatGoal(goal: BenchGoal | undefined, unit: string): string {
  if (!goal) return '—';
  const figure = unit === 'x' ? `${goal.value}×` : `${goal.value >= 1000 ? grouped(goal.value) : goal.value} ${unit}`;
  return `${goal.op === '>=' ? '≥' : '≤'} ${figure}`;
}

/** One aligned table: row, measured, goal, met, then the details (unpadded, last). */
export function formatTable(benchmarks: JudgedBenchmark[]): string {
  const header = ['row', 'measured', 'goal', 'met', 'detail'];
  const lines = benchmarks.flatMap((b) =>
    b.rows.map((r) => [
      r.label,
      r.value === null ? 'NOT MEASURED' : formatValue(r.value, r.unit),
      formatGoal(r.goal, r.unit),
      r.met,
      [r.invalid ? `INVALID: ${r.invalid}` : '', r.detail ?? ''].filter(Boolean).join(' — '),
    ]),
  );
  const widths = header.slice(0, 4).map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const render = (cells: string[]) =>
    cells
      .map((c, i) => (i < 4 ? c.padEnd(widths[i]) : c))
      .join('  ')
      .trimEnd();
  return [render(header), render(widths.map((w) => '-'.repeat(w)).concat('------')), ...lines.map(render)].join('\n');
}
