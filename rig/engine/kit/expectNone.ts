// "None of these n went wrong" as one check (ctx.expectNone): the wording every scenario used to
// write by hand, so a reader of results.json sees the same shape of detail in every scenario.
import type { CheckOptions } from '../../results/checkResult.ts';

export interface ExpectNoneOptions extends CheckOptions {
  /** The detail when nothing went wrong (default "n/n"). */
  passed?: string;
}

/** How many problems a failed check names: enough to see the pattern, short enough for one line. */
const SAMPLES = 3;

/** The detail of an `expectNone` check: "n/n" (or `passed`), else "k of n; e.g. a; b; c". */
export function noneDetail(problems: readonly string[], total: number, passed?: string): string {
  if (problems.length === 0) return passed ?? `${total}/${total}`;
  return `${problems.length} of ${total}; e.g. ${problems.slice(0, SAMPLES).join('; ')}`;
}
