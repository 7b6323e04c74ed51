// Threshold expressions in the spirit of k6's: `[scenario:]name[{label=value}][.stat] op value[unit]`,
// parsed before a run starts so a typo costs a line on stderr, not a minute of load (the names are
// then checked against what the selected scenarios declare, thresholdNames.ts). The grammar is one
// regular expression and a few rules, so it is written here rather than pulled in from a library.
import { readFileSync } from 'node:fs';
import { UserError } from '../../protocol/userError.ts';
import { LABELLED_NAME_SOURCE } from '../../results/metricNames.ts';

export type ThresholdOperator = '<' | '<=' | '>' | '>=' | '==';

/** What a threshold measures. Latency stats are compared in microseconds internally. */
export type ThresholdStat =
  | { kind: 'percentile'; percentile: number }
  | { kind: 'min' | 'max' | 'mean' }
  /** Number of samples in a latency metric. */
  | { kind: 'samples' }
  /** A counter's total. */
  | { kind: 'counter' }
  /** A counter's total per second of scenario time. */
  | { kind: 'counterRate' }
  /** Fraction (0..1) of checks that passed. */
  | { kind: 'checkRate' };

export interface Threshold {
  expression: string;
  /** Only this scenario; undefined = every scenario of the run, taken together. */
  scenario?: string;
  name: string;
  stat: ThresholdStat;
  op: ThresholdOperator;
  /** The bound in the unit the stat is measured in: µs for latency stats, plain numbers otherwise. */
  bound: number;
}

/** The pseudo-metric for checks: `checks.rate>=0.99`. */
export const CHECKS_NAME = 'checks';

// `[scenario:]metric[.stat] op number[unit]`; the metric's name may carry labels,
// `round_trip{rate=40}` (see metricNames.ts).
const SCOPE = `(?:([A-Za-z0-9][\\w.-]*):)?`;
const STAT = `(?:\\.(p\\(\\d+(?:\\.\\d+)?\\)|p\\d+(?:\\.\\d+)?|min|max|mean|avg|med|count|rate))?`;
const OPERATOR = `\\s*(<=|>=|==|<|>)\\s*`;
const BOUND = `(-?\\d+(?:\\.\\d+)?(?:e[+-]?\\d+)?)\\s*(us|µs|ms|s)?`;
const EXPRESSION = new RegExp(`^${SCOPE}(${LABELLED_NAME_SOURCE})${STAT}${OPERATOR}${BOUND}$`, 'i');

const MICROS_PER_UNIT: Record<string, number> = { us: 1, µs: 1, ms: 1000, s: 1_000_000 };

function bad(expression: string, why: string): UserError {
  return new UserError(
    `bad threshold "${expression}": ${why} (form: [scenario:]metric[{label=value}].p95<1000, values in ms)`,
  );
}

function parseStat(expression: string, name: string, text: string | undefined): ThresholdStat {
  if (name === CHECKS_NAME) {
    if (text?.toLowerCase() !== 'rate')
      throw bad(expression, `${CHECKS_NAME} takes only .rate (fraction of checks passed, 0..1)`);
    return { kind: 'checkRate' };
  }
  if (text === undefined) return { kind: 'counter' };
  const stat = text.toLowerCase();
  if (stat === 'rate') return { kind: 'counterRate' };
  if (stat === 'count') return { kind: 'samples' };
  if (stat === 'min' || stat === 'max' || stat === 'mean') return { kind: stat };
  if (stat === 'avg') return { kind: 'mean' };
  if (stat === 'med') return { kind: 'percentile', percentile: 50 };
  const percentile = Number(stat.replace(/^p\(?/, '').replace(/\)$/, ''));
  if (!(percentile > 0 && percentile <= 100))
    throw bad(expression, `percentile must be in (0, 100], got ${percentile}`);
  return { kind: 'percentile', percentile };
}

const isLatency = (stat: ThresholdStat): boolean =>
  stat.kind === 'percentile' || stat.kind === 'min' || stat.kind === 'max' || stat.kind === 'mean';

export function parseThreshold(raw: string): Threshold {
  const expression = raw.trim();
  const match = EXPRESSION.exec(expression);
  if (!match) throw bad(expression, 'not of the form [scenario:]name[.stat] <op> value');
  const [, scenario, name, statText, op, valueText, unit] = match as unknown as [
    string,
    string | undefined,
    string,
    string | undefined,
    ThresholdOperator,
    string,
    string | undefined,
  ];
  const stat = parseStat(expression, name, statText);
  const value = Number(valueText);
  if (!Number.isFinite(value)) throw bad(expression, `${valueText} is not a number`);
  if (!isLatency(stat) && unit)
    throw bad(expression, `a unit (${unit}) only applies to latency stats (p95, max, mean, ...)`);
  const bound = isLatency(stat) ? value * MICROS_PER_UNIT[(unit ?? 'ms').toLowerCase()]! : value;
  return { expression, ...(scenario ? { scenario } : {}), name, stat, op, bound };
}

/** Reads a thresholds file: one expression per line; blank lines and `#` comments are ignored. */
export function readThresholdsFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UserError(
      `cannot read --thresholds-file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line.length > 0);
}

/** Parses every expression from the flags and the file, failing on the first bad one. */
export function parseThresholds(expressions: string[], file?: string): Threshold[] {
  const all = [...expressions, ...(file ? readThresholdsFile(file) : [])];
  return all.map(parseThreshold);
}

export function compare(actual: number, op: ThresholdOperator, bound: number): boolean {
  switch (op) {
    case '<':
      return actual < bound;
    case '<=':
      return actual <= bound;
    case '>':
      return actual > bound;
    case '>=':
      return actual >= bound;
    case '==':
      return actual === bound;
  }
}
