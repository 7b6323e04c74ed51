// The one line every benchmark prints last, so bench/run.ts can gather the figures of several
// benchmarks (each in its own process) into one table: `BENCH_ROWS [...]` with the rows as JSON.
// A row without a goal is informational; a row whose value is missing never counts as met.

export interface BenchGoal {
  op: '>=' | '<=';
  value: number;
}

export interface BenchRow {
  /** Stable identifier, e.g. `agent.sendMessage.ratioToSdk`. */
  id: string;
  /** What a reader sees, e.g. `reference agent / @a2a-js/sdk agent, plain SendMessage`. */
  label: string;
  /** The figure measured in this run; null when it could not be measured (never met). */
  value: number | null;
  /** `x` for ratios, `req/s`, `ms`, ... */
  unit: string;
  goal?: BenchGoal;
  /** Short context: the raw figures a ratio came from, sample sizes, settings. */
  detail?: string;
  /**
   * Set when the run behind the figure saw errors (non-2xx, transport errors, wrong bodies,
   * failed or dropped iterations): the figure is shown but never counts as met. Says what went wrong.
   */
  invalid?: string;
}

export const ROWS_PREFIX = 'BENCH_ROWS ';

export function printRows(rows: BenchRow[]): void {
  console.log(ROWS_PREFIX + JSON.stringify(rows));
}

/** true/false against the goal; undefined for a row without one. A missing or invalid value is not met. */
export function isMet(row: BenchRow): boolean | undefined {
  if (!row.goal) return undefined;
  if (row.value === null || !Number.isFinite(row.value) || row.invalid) return false;
  return row.goal.op === '>=' ? row.value >= row.goal.value : row.value <= row.goal.value;
}
