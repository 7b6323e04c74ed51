// "None of these n went wrong" as one check (ctx.expectNone): the wording every scenario used to
// write by hand, so a reader of results.json sees the same shape of detail in every scenario.
import type { CheckOptions } from '../../results/checkResult.ts';

export interface ExpectNoneOptions extends CheckOptions {
  /** The detail when nothing went wrong (default "n/n"). */
  passed?: string;
  /** What went wrong, said after "k of n" ('lost': "8 of 8 lost; e.g. …"). */
  wrong?: string;
}

/** How many problems a failed check names: enough to see the pattern, short enough for one line. */
const SAMPLES = 3;

/** The detail of an `expectNone` check: "n/n" (or `passed`), else "k of n[ wrong]; e.g. a; b; c". */
export function noneDetail(
  problems: readonly string[],
  total: number,
  words: Pick<ExpectNoneOptions, 'passed' | 'wrong'> = {},
): string {
  if (problems.length === 0) return words.passed ?? `${total}/${total}`;
  const wrong = words.wrong ? ` ${words.wrong}` : '';
  return `${problems.length} of ${total}${wrong}; e.g. ${problems.slice(0, SAMPLES).join('; ')}`;
}
