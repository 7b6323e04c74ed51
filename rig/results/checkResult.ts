// A scenario's checks and the verdict they make. Each check holds one rule at a level: MUST (the
// spec's or A2A's normative MUST: a failure fails the scenario), SHOULD (a recommendation) or
// `example` (the shape of the spec's contract example, which no MUST requires): a failed SHOULD or
// example check is a warning — the scenario passes with it, listed and counted, unless the run
// is `--strict`. A check states no level unless it is below MUST, so results written before
// levels existed read as they always did. The rig's own measurements (an SLO, a DoS gate, a
// capacity verdict) are bounds the user or the rig set, not a spec's rule: they stay MUST and
// fail as they always have.

/**
 * What of a scenario's result judging its warnings reads and writes (ScenarioResult, runResult.ts,
 * which imports this module: named by shape here so the import goes one way).
 */
interface JudgedScenario {
  checks: CheckResult[];
  verdict: string;
  reason?: string;
  warnings?: number;
}

/** What a run's result says of its warnings (RunResult's `warnings` and `strict`). */
interface RunWarnings {
  warnings?: number;
  strict?: true;
}

export const CHECK_LEVELS = ['MUST', 'SHOULD', 'example'] as const;
export type CheckLevel = (typeof CHECK_LEVELS)[number];

export interface CheckResult {
  name: string;
  /** False for a failed check, a warning and one not judged: a reader that knows no `level` never sees a pass. */
  ok: boolean;
  detail?: string;
  /** false: the check could not be judged either way (the detail says why); absent: it was judged. */
  judged?: false;
  /** The level of the rule the check holds; absent: MUST. Only MUST fails the scenario (see above). */
  level?: Exclude<CheckLevel, 'MUST'>;
}

/** What `ctx.check` takes beside name, ok and detail. */
export interface CheckOptions {
  /** The level of the rule the check holds (default MUST). */
  level?: CheckLevel;
}

export const levelOf = (c: CheckResult): CheckLevel => c.level ?? 'MUST';
/** A MUST check judged and failed (not one left unjudged, not a warning). */
export const checkFailed = (c: CheckResult) => !c.ok && c.judged !== false && levelOf(c) === 'MUST';
/** A SHOULD or example-shape check judged and failed: a warning. */
export const checkWarned = (c: CheckResult) => !c.ok && c.judged !== false && levelOf(c) !== 'MUST';
/** A check that could be judged neither way. */
export const checkNotJudged = (c: CheckResult) => c.judged === false;

/** How a report names a warning's level: `SHOULD`, `example shape`. */
export const levelText = (c: CheckResult): string => (c.level === 'example' ? 'example shape' : levelOf(c));

/** The level `ctx.check` was given, checked: a scenario author's typo errors the scenario, saying which. */
export function checkedLevel(name: string, options: CheckOptions | undefined): CheckResult['level'] {
  const level = options?.level ?? 'MUST';
  if (!(CHECK_LEVELS as readonly unknown[]).includes(level))
    throw new Error(`check "${name}": level ${JSON.stringify(level)} is not one of ${CHECK_LEVELS.join(', ')}`);
  return level === 'MUST' ? undefined : level;
}

const describe = (c: CheckResult) => `${c.name}${c.detail ? `: ${c.detail}` : ''}`;

/**
 * A finished scenario's verdict from its checks: errored with none, failed when a MUST failed
 * (which beats one not judged: a guarantee broke whatever else is unsure), inconclusive when one
 * was not judged, else passed, warnings or not (see judgeWarnings). The reason is the first such check.
 */
export function verdictOfChecks(checks: readonly CheckResult[]): {
  verdict: 'errored' | 'passed' | 'failed' | 'inconclusive';
  reason?: string;
} {
  if (checks.length === 0) return { verdict: 'errored', reason: 'the scenario made no checks' };
  const first = checks.find(checkFailed) ?? checks.find(checkNotJudged);
  if (!first) return { verdict: 'passed' };
  return { verdict: checkFailed(first) ? 'failed' : 'inconclusive', reason: describe(first) };
}

/**
 * A finished scenario with its warnings counted. Under `--strict` a warning is a failure: a
 * scenario that passed or was inconclusive with one fails, the first warning its reason (a failure
 * beats a check not judged, as in verdictOfChecks). An errored or interrupted scenario keeps its verdict.
 */
export function judgeWarnings<S extends JudgedScenario>(result: S, strict: boolean): S {
  const warned = result.checks.filter(checkWarned);
  if (warned.length === 0) return result;
  const counted = { ...result, warnings: warned.length };
  if (!strict || (result.verdict !== 'passed' && result.verdict !== 'inconclusive')) return counted;
  const reason = `${levelText(warned[0]!)} check failed under --strict: ${describe(warned[0]!)}`;
  return { ...counted, verdict: 'failed' as S['verdict'], reason };
}

/** What a run's result says of its warnings: their sum, and that `--strict` judged them. */
export function runWarnings(results: readonly { warnings?: number }[], strict: boolean): RunWarnings {
  const warnings = results.reduce((sum, s) => sum + (s.warnings ?? 0), 0);
  return { ...(warnings > 0 ? { warnings } : {}), ...(strict ? { strict: true } : {}) };
}

/** A warning as every report lists it: `example shape · name: detail`. */
export const warningText = (c: CheckResult): string => `${levelText(c)} · ${describe(c)}`;

/** `1 warning`, `3 warnings`. */
export const warningsCount = (n: number): string => `${n} warning${n === 1 ? '' : 's'}`;

/** The sentence every report says of a run's warnings, or undefined when it had none. */
export function warningsNote(run: RunWarnings): string | undefined {
  if (!run.warnings) return undefined;
  const what = `${warningsCount(run.warnings)} (a failed SHOULD or contract-example-shape check)`;
  return run.strict
    ? `${what}: --strict failed each scenario that had one`
    : `${what}: the scenarios pass with them; --strict fails them`;
}
