// What a scenario can record, and the names a threshold can use for it. One grammar for both, so
// every name a scenario declares can be named in a threshold, and a threshold naming anything else
// is refused before a run starts (a typo never costs a run).
//
// A metric name is `[A-Za-z_][\w-]*`. A metric recorded once per value of a parameter carries
// labels, k6-style: `round_trip{rate=40}` (capacity's round trip at 40/s). A scenario declares the
// label keys (`round_trip{rate}`); a threshold names either one labelled series
// (`round_trip{rate=40}.p95<500`) or the base name, which takes every series of it together.

/** What a counter means, so that `compare` knows its direction instead of guessing from its name. */
export type CounterKind =
  /** A count of events; it grows with the run's size, so it is gated by thresholds only, never compared. */
  | 'tally'
  /** A rate per second: higher is better (compared with the throughput tolerance). */
  | 'throughput'
  /**
   * The rate at which a limit broke; 0 means it never broke within the range tried, which is the
   * best value, not a rate of 0. Higher is better, never is best.
   */
  | 'limit-or-never'
  /**
   * A value the run measured against a gate (a ratio, MB, seconds: the DoS scenarios' attack tax,
   * memory growth, recovery time); lower is better. Gated by thresholds (`dos-slow:attack_tax<3`),
   * not compared between runs (its gate is its bound); a merge keeps the worst (largest) part.
   */
  | 'measure';

/**
 * What a declared counter is and which way is better, so that compare, thresholds and merge read
 * the declaration instead of each deciding it again. (A latency, `records.latencies`, is always a
 * histogram, lower is better: compared by its percentiles, merged by adding histograms.)
 */
export interface MeasureMeaning {
  /** k6's words: a count of events (Counter), a rate per second, or a gauge (a value measured, not added up). */
  kind: 'counter' | 'rate' | 'gauge';
  /** Which way is better; `none` for a count that follows the run's size. */
  direction: 'lower-is-better' | 'higher-is-better' | 'none';
  /** `compare` judges it against the baseline (a count follows the run's size; a gauge is judged by its own gate). */
  compared: boolean;
  /** Several runs' parts (`merge`, an unscoped threshold) add up, or the worst part stands for them all. */
  combined: 'sum' | 'worst';
  /** 0 reads "never" (the limit never broke within the range tried), the best value rather than a rate of 0. */
  zeroIsNever?: true;
}

export const COUNTER_MEANINGS: Readonly<Record<CounterKind, MeasureMeaning>> = {
  tally: { kind: 'counter', direction: 'none', compared: false, combined: 'sum' },
  throughput: { kind: 'rate', direction: 'higher-is-better', compared: true, combined: 'sum' },
  'limit-or-never': { kind: 'rate', direction: 'higher-is-better', compared: true, combined: 'sum', zeroIsNever: true },
  measure: { kind: 'gauge', direction: 'lower-is-better', compared: false, combined: 'worst' },
};

export const COUNTER_KINDS = Object.keys(COUNTER_MEANINGS) as readonly CounterKind[];

/** Every latency and counter a scenario can record (ScenarioDefinition.records; results.json `records`). */
export interface RecordedMeasures {
  /** Latency histograms (µs; lower is better), e.g. `resume_latency`, `round_trip{rate}`. */
  latencies: string[];
  /** Counters by declared name, with what each means. */
  counters: Record<string, CounterKind>;
}

export const METRIC_NAME_SOURCE = '[A-Za-z_][\\w-]*';
const LABEL_VALUE_SOURCE = '[\\w.-]+';
/** A name with optional labels, `name{k=v,k2=v2}`, as a threshold may write it. */
const LABEL_SOURCE = `${METRIC_NAME_SOURCE}=${LABEL_VALUE_SOURCE}`;
export const LABELLED_NAME_SOURCE = `${METRIC_NAME_SOURCE}(?:\\{${LABEL_SOURCE}(?:,${LABEL_SOURCE})*\\})?`;
const DECLARED = new RegExp(`^(${METRIC_NAME_SOURCE})(?:\\{(${METRIC_NAME_SOURCE}(?:,${METRIC_NAME_SOURCE})*)\\})?$`);
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_SOURCE}$`);

export interface DeclaredName {
  base: string;
  /** Label keys in declared order; empty for a plain metric. */
  labels: string[];
}

/** Parses a declaration (`round_trip{rate}`); throws naming it when the grammar cannot express it. */
export function parseDeclaredName(declared: string): DeclaredName {
  const m = DECLARED.exec(declared);
  if (!m) {
    const use = `use ${METRIC_NAME_SOURCE}, with label keys as name{key}`;
    throw new Error(`metric name "${declared}" cannot be named in a threshold: ${use}`);
  }
  return { base: m[1]!, labels: m[2] ? m[2].split(',') : [] };
}

/** The key a labelled series is recorded under: `round_trip{rate=40}` (labels in declared order). */
export function seriesKey(base: string, labels: Record<string, string | number> = {}): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return base;
  for (const [k, v] of entries)
    if (!LABEL_VALUE.test(String(v))) throw new Error(`label ${k}=${v} of ${base} is not ${LABEL_VALUE_SOURCE}`);
  return `${base}{${entries.map(([k, v]) => `${k}=${v}`).join(',')}}`;
}

/** The base name of a recorded key or a threshold's name: `round_trip{rate=40}` → `round_trip`. */
export function baseName(key: string): string {
  const brace = key.indexOf('{');
  return brace < 0 ? key : key.slice(0, brace);
}

/** Label keys of a recorded key or a threshold's name, in written order. */
export function labelKeys(key: string): string[] {
  const brace = key.indexOf('{');
  if (brace < 0) return [];
  return key
    .slice(brace + 1, -1)
    .split(',')
    .map((pair) => pair.split('=')[0]!);
}

/** Does the recorded key `key` belong to what a threshold names (`name` exactly, or every series of a base name)? */
export function keyMatches(key: string, name: string): boolean {
  return key === name || (!name.includes('{') && baseName(key) === name);
}

/** Checks a scenario's declaration: every name in the grammar, none declared twice. */
export function validateRecords(scenario: string, records: RecordedMeasures): void {
  const seen = new Set<string>();
  const all = [...records.latencies, ...Object.keys(records.counters)];
  for (const declared of all) {
    const { base } = parseDeclaredNameFor(scenario, declared);
    if (seen.has(base)) throw new Error(`scenario ${scenario} declares ${base} twice`);
    seen.add(base);
  }
  for (const [name, kind] of Object.entries(records.counters)) {
    if (!COUNTER_KINDS.includes(kind)) {
      const kinds = COUNTER_KINDS.join(', ');
      throw new Error(`scenario ${scenario}: counter ${name} has kind "${kind}", not one of ${kinds}`);
    }
  }
}

function parseDeclaredNameFor(scenario: string, declared: string): DeclaredName {
  try {
    return parseDeclaredName(declared);
  } catch (err) {
    throw new Error(`scenario ${scenario}: ${(err as Error).message}`, { cause: err });
  }
}

/** The kind a recorded counter key (`attack_tax{attack=slowloris}`) was declared with in `records`, if any. */
export function declaredCounterKind(records: RecordedMeasures | undefined, key: string): CounterKind | undefined {
  const base = baseName(key);
  const declared = Object.keys(records?.counters ?? {}).find((name) => parseDeclaredName(name).base === base);
  return declared === undefined ? undefined : records!.counters[declared];
}

/** The declaration that `key` (recorded or named) falls under, if any. */
export function declarationOf(key: string, declared: string[]): DeclaredName | undefined {
  const base = baseName(key);
  return declared.map(parseDeclaredName).find((d) => d.base === base);
}

/** Levenshtein distance, for "did you mean": small names, small lists. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, substitution);
    }
    row = next;
  }
  return row[b.length]!;
}

/** The closest of `known` to `name`, when close enough to be a typo. */
export function didYouMean(name: string, known: string[]): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const candidate of known) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase());
    if (!best || d < best.d) best = { name: candidate, d };
  }
  return best && best.d <= Math.max(2, Math.floor(name.length / 3)) ? best.name : undefined;
}
