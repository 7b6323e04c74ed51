// The pure half of the benchmark runner (bench/benchTable.ts): no load is generated here. What
// matters most: nothing the runner cannot vouch for reads as met.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS } from '../bench/benchCatalogue.ts';
import { isMet, ROWS_PREFIX, type BenchRow } from '../bench/benchRows.ts';
import {
  exitCodeOf,
  formatGoal,
  formatTable,
  formatValue,
  judgeBenchmark,
  parseRows,
  summarize,
  summaryLine,
  type BenchmarkOutcome,
  type ExpectedRow,
} from '../bench/benchTable.ts';

const expected: ExpectedRow[] = [
  { id: 'a.ratio', label: 'ratio to the peer', unit: 'x', goal: { op: '>=', value: 2 } },
  { id: 'a.p99', label: 'p99', unit: 'ms', goal: { op: '<=', value: 5 } },
  { id: 'a.info', label: 'informational', unit: 'req/s' },
];
const spec = { name: 'a', rows: expected };
const rowsLine = (rows: BenchRow[]) => `${ROWS_PREFIX}${JSON.stringify(rows)}`;
const ran = (stdout: string, exitCode: number | null = 0, extra: Partial<BenchmarkOutcome> = {}): BenchmarkOutcome => ({
  exitCode,
  signal: null,
  stdout,
  ...extra,
});
const good: BenchRow[] = [
  { id: 'a.ratio', label: 'ratio to the peer', value: 2.5, unit: 'x', goal: { op: '>=', value: 2 } },
  { id: 'a.p99', label: 'p99', value: 7.25, unit: 'ms', goal: { op: '<=', value: 5 } },
  { id: 'a.info', label: 'informational', value: 1234.4, unit: 'req/s' },
];
const byId = <T extends { id: string }>(rows: T[], id: string): T => rows.find((r) => r.id === id)!;

describe('parseRows', () => {
  it('takes the last BENCH_ROWS line among other output', () => {
    const stdout = ['warming up', rowsLine([{ ...good[0], value: 1 }]), 'more', rowsLine(good), ''].join('\n');
    expect(parseRows(stdout)).toEqual({ rows: good });
  });
  it('says why when there is no line, no JSON, no array or a malformed row', () => {
    expect(parseRows('just text\n')).toEqual({ error: 'printed no BENCH_ROWS line' });
    expect(parseRows(`${ROWS_PREFIX}[{"id":`)).toEqual({ error: 'its BENCH_ROWS line is not JSON' });
    expect(parseRows(`${ROWS_PREFIX}{}`)).toEqual({ error: 'its BENCH_ROWS line is not an array' });
    expect('error' in parseRows(rowsLine([{ ...good[0], value: '2.5' as unknown as number }]))).toBe(true);
    expect('error' in parseRows(rowsLine([{ ...good[0], goal: { op: '>', value: 2 } as never }]))).toBe(true);
    expect('error' in parseRows(`${ROWS_PREFIX}[{"label":"x","value":1,"unit":"x"}]`)).toBe(true);
  });
});

describe('isMet', () => {
  it('never counts a missing or invalid figure, whatever its value', () => {
    expect(isMet({ ...good[0], value: null })).toBe(false);
    expect(isMet({ ...good[0], value: Number.NaN })).toBe(false);
    expect(isMet({ ...good[0], invalid: '3 non-2xx' })).toBe(false);
    expect(isMet(good[0])).toBe(true);
    expect(isMet(good[1])).toBe(false);
    expect(isMet(good[2])).toBeUndefined();
  });
});

describe('judgeBenchmark', () => {
  it('judges every expected row of a clean run against its goal', () => {
    const judged = judgeBenchmark(spec, ran(rowsLine(good)));
    expect(judged.failure).toBeUndefined();
    expect(judged.rows.map((r) => [r.id, r.met, r.measured])).toEqual([
      ['a.ratio', 'yes', true],
      ['a.p99', 'NO', true],
      ['a.info', '—', true],
    ]);
  });

  it('shows every expected row of a crashed benchmark as NOT MEASURED and NO', () => {
    const judged = judgeBenchmark(spec, ran('Error: boom\n', 1));
    expect(judged.failure).toBe('exited with code 1; printed no BENCH_ROWS line');
    expect(judged.rows.map((r) => [r.id, r.value, r.met, r.measured])).toEqual([
      ['a.ratio', null, 'NO', false],
      ['a.p99', null, 'NO', false],
      ['a.info', null, 'NO', false],
    ]);
    expect(formatTable([judged])).toContain('NOT MEASURED');
  });

  it('shows an expected row a clean run did not print as NOT MEASURED, and keeps rows it did not expect', () => {
    const extra: BenchRow = { id: 'a.extra', label: 'extra', value: 1, unit: 'x', goal: { op: '>=', value: 0.5 } };
    const judged = judgeBenchmark(spec, ran(rowsLine([good[0], extra])));
    expect(byId(judged.rows, 'a.p99')).toMatchObject({
      value: null,
      met: 'NO',
      measured: false,
      detail: 'the benchmark did not print this row',
    });
    expect(byId(judged.rows, 'a.extra')).toMatchObject({ met: 'yes', measured: true });
    expect(summarize([judged])).toMatchObject({ goals: 3, met: 2, notMeasured: 2, goalsNotMeasured: 1 });
    expect(exitCodeOf(summarize([judged]), false)).toBe(4);
  });

  it('applies the catalogue goal, not a looser one the benchmark declared', () => {
    const judged = judgeBenchmark(spec, ran(rowsLine([{ ...good[0], value: 1.5, goal: { op: '>=', value: 1 } }])));
    const row = byId(judged.rows, 'a.ratio');
    expect(row.goal).toEqual({ op: '>=', value: 2 });
    expect(row.met).toBe('NO');
    expect(row.detail).toContain('declared goal ≥ 1×');
  });

  it('never passes a row whose run saw errors, nor the rows of a benchmark that failed after printing them', () => {
    const invalid = judgeBenchmark(spec, ran(rowsLine([{ ...good[0], invalid: 'ref: 12 non-2xx' }, good[1], good[2]])));
    expect(byId(invalid.rows, 'a.ratio')).toMatchObject({ value: 2.5, met: 'NO', measured: true });
    const late = judgeBenchmark(spec, ran(rowsLine(good), null, { signal: 'SIGSEGV' }));
    expect(late.failure).toBe('killed by SIGSEGV');
    expect(late.rows.map((r) => r.met)).toEqual(['NO', 'NO', '—']);
    expect(late.rows.every((r) => r.invalid?.includes('killed by SIGSEGV'))).toBe(true);
    const timedOut = judgeBenchmark(spec, ran('', null, { signal: 'SIGTERM', timedOutAfterMs: 300_000 }));
    expect(timedOut.failure).toBe('timed out after 300 s; printed no BENCH_ROWS line');
    expect(summarize([invalid, late, timedOut])).toMatchObject({ goals: 6, met: 0, notMeasured: 3, invalid: 4 });
  });
});

describe('exitCodeOf', () => {
  it('is 4 for a failed benchmark or an unmeasured goal, 0 for missed goals unless strict', () => {
    const missedGoal = summarize([judgeBenchmark(spec, ran(rowsLine(good)))]);
    expect(exitCodeOf(missedGoal, false)).toBe(0);
    expect(exitCodeOf(missedGoal, true)).toBe(1);
    const allMet = summarize([judgeBenchmark(spec, ran(rowsLine([good[0], { ...good[1], value: 4 }, good[2]])))]);
    expect(exitCodeOf(allMet, true)).toBe(0);
    // An informational row a clean run could not measure (a peer not installed) is reported, not fatal.
    const noPeer = summarize([
      judgeBenchmark(spec, ran(rowsLine([good[0], { ...good[1], value: 4 }, { ...good[2], value: null }]))),
    ]);
    expect(noPeer).toMatchObject({ notMeasured: 1, goalsNotMeasured: 0 });
    expect(exitCodeOf(noPeer, true)).toBe(0);
    expect(exitCodeOf(summarize([judgeBenchmark(spec, ran(rowsLine(good), 1))]), false)).toBe(4);
  });
});

describe('the table', () => {
  it('aligns its columns and says how many goals were met', () => {
    const judged = [
      judgeBenchmark(spec, ran(rowsLine(good))),
      judgeBenchmark(
        { name: 'b', rows: [{ id: 'b.x', label: 'b', unit: 'x', goal: { op: '>=', value: 0.9 } }] },
        ran('', 1),
      ),
    ];
    const lines = formatTable(judged).split('\n');
    expect(lines).toHaveLength(2 + 4);
    const measuredAt = lines[0].indexOf('measured');
    const metAt = lines[0].indexOf('met');
    for (const line of lines.slice(2)) {
      expect(line[measuredAt - 1]).toBe(' ');
      expect(line.slice(metAt).split(/\s+/)[0]).toMatch(/^(yes|NO|—)$/);
    }
    expect(lines[2]).toMatch(/ratio to the peer\s+2\.50×\s+≥ 2×\s+yes/);
    expect(lines[3]).toMatch(/p99\s+7\.25 ms\s+≤ 5 ms\s+NO/);
    expect(lines[4]).toMatch(/informational\s+1,234 req\/s\s+—\s+—/);
    expect(lines[5]).toMatch(/NOT MEASURED\s+≥ 0\.9×\s+NO/);
    expect(summaryLine(summarize(judged))).toBe(
      '1 of 3 goals met; 1 row NOT MEASURED; failed: b (exited with code 1; printed no BENCH_ROWS line)',
    );
  });

  it('formats figures by unit', () => {
    expect(formatValue(0.4123, 'x')).toBe('0.41×');
    expect(formatValue(48.04, 'ms')).toBe('48.0 ms');
    expect(formatValue(3012.6, 'answers/s')).toBe('3,013 answers/s');
    expect(formatValue(0, 'req/s')).toBe('0 req/s');
    expect(formatValue(12.345, 'req/s')).toBe('12.3 req/s');
    expect(formatValue(null, 'ms')).toBe('NOT MEASURED');
    expect(formatGoal({ op: '>=', value: 3000 }, 'answers/s')).toBe('≥ 3,000 answers/s');
    expect(formatGoal(undefined, 'x')).toBe('—');
  });
});

describe('the catalogue', () => {
  it('names scripts that exist and row ids that are unique', () => {
    const ids = BENCHMARKS.flatMap((b) => b.rows.map((r) => r.id));
    expect(new Set(ids).size).toBe(ids.length);
    for (const b of BENCHMARKS) expect(existsSync(new URL(`../${b.script}`, import.meta.url)), b.script).toBe(true);
    expect(BENCHMARKS.map((b) => b.name)).toEqual([
      'sdkComparison',
      'agent',
      'generator',
      'capacityCost',
      'generatorWorkers',
      'gate',
      'abGate',
      'dosTax',
      'scheduleCost',
      'startup',
      'attackWorkers',
    ]);
  });
});
