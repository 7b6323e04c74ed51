// Before a run starts: every threshold must name something the selected scenarios can record (their
// `records` declarations) or a built-in (`checks.rate`), with the right kind of stat for it. A
// typo or a metric no scenario records is a usage error naming it, so it never passes as "0".
import { UserError } from '../../protocol/userError.ts';
import { CHECKS_NAME, type Threshold } from './thresholdExpression.ts';
import {
  baseName,
  didYouMean,
  labelKeys,
  parseDeclaredName,
  type RecordedMeasures,
} from '../../results/metricNames.ts';

export interface DeclaringScenario {
  name: string;
  records: RecordedMeasures;
}

const LATENCY_KINDS = new Set(['percentile', 'min', 'max', 'mean', 'samples']);

function problem(t: Threshold, scenarios: DeclaringScenario[]): string | undefined {
  const scoped = t.scenario === undefined ? scenarios : scenarios.filter((s) => s.name === t.scenario);
  if (scoped.length === 0 && t.scenario !== undefined) {
    const hint = didYouMean(
      t.scenario,
      scenarios.map((s) => s.name),
    );
    return `scenario ${t.scenario} is not selected in this run${hint ? ` (did you mean ${hint}?)` : ''}`;
  }
  if (t.stat.kind === 'checkRate') return undefined;
  const where = t.scenario === undefined ? 'no scenario of this run records a' : `scenario ${t.scenario} records no`;
  const latencies = scoped.flatMap((s) => s.records.latencies.map(parseDeclaredName));
  const counters = scoped.flatMap((s) => Object.keys(s.records.counters).map(parseDeclaredName));
  const base = baseName(t.name);
  const wantsLatency = LATENCY_KINDS.has(t.stat.kind);
  const [mine, other] = wantsLatency ? [latencies, counters] : [counters, latencies];
  const declared = mine.filter((d) => d.base === base);
  if (declared.length === 0) {
    if (other.some((d) => d.base === base))
      return wantsLatency
        ? `${base} is a counter: drop the .stat or use .rate`
        : `${base} is a latency metric: add a stat such as .p95`;
    const known = [...new Set(mine.map((d) => d.base))];
    const hint = didYouMean(base, [...known, ...other.map((d) => d.base), CHECKS_NAME]);
    const listed = known.length ? `; known: ${known.slice(0, 12).join(', ')}${known.length > 12 ? ', …' : ''}` : '';
    const kind = wantsLatency ? 'latency metric' : 'counter';
    return `${where} ${kind} ${base}${hint ? ` (did you mean ${hint}?)` : listed}`;
  }
  const named = labelKeys(t.name);
  if (named.length === 0) return undefined;
  const fits = declared.some((d) => d.labels.length === named.length && named.every((k) => d.labels.includes(k)));
  if (!fits) {
    const labels = [...new Set(declared.flatMap((d) => d.labels))].join(',') || 'nothing';
    return `${base} is labelled {${labels}}, not {${named.join(',')}}`;
  }
  return undefined;
}

/** Throws a one-line UserError for the first threshold that names nothing the run can record. */
export function checkThresholdNames(thresholds: Threshold[], scenarios: DeclaringScenario[]): void {
  for (const t of thresholds) {
    const why = problem(t, scenarios);
    if (why) throw new UserError(`threshold "${t.expression}" names nothing this run can record: ${why}`);
  }
}
