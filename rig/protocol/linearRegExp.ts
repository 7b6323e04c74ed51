// Ajv's `pattern` and `patternProperties` run through RE2 semantics (re2js): matching is linear in
// the input, so a catastrophic-backtracking pattern in an untrusted schema cannot go exponential.
// Patterns RE2 cannot express (lookaround, backreferences) fail at compile time with a reason.
// Ajv caches compiled patterns by `String(rx)`: the object must stringify to its own pattern, or
// every pattern of an Ajv instance silently becomes the first one it compiled (a meta-schema's).
//
// Linear is not cheap: re2js's NFA costs about (string length × program size) steps, and a small
// pattern can compile to a large program ("(a|aa){0,1000}$" is 7,003 instructions, so a long
// string takes minutes: docs/benchmarks.md, "Figures behind bounds in the code"). So every match
// is charged, BEFORE it runs, against the pattern work budget of the validation in progress (see
// meteredPatterns): a match that would overdraw it throws PatternWorkExceeded instead of running.
import { RE2JS } from 're2js';

interface RegExpEngine {
  (pattern: string, flags: string): { test: (s: string) => boolean };
  code: string;
}

/** A pattern match refused because its estimated cost overdraws the validation's budget. */
export class PatternWorkExceeded extends Error {
  override name = 'PatternWorkExceeded';
  constructor(
    readonly pattern: string,
    readonly inputLength: number,
    readonly programSize: number,
    readonly budget: number,
  ) {
    const shown = pattern.length > 60 ? `${pattern.slice(0, 57)}...` : pattern;
    super(
      `matching pattern ${JSON.stringify(shown)} (${programSize} instructions) against ${inputLength} characters ` +
        `would overdraw the validation's pattern work budget of ${budget} character-instructions`,
    );
  }
}

/** RE2 program size of a pattern (instructions), or Infinity when RE2 cannot compile it. */
export function patternProgramSize(pattern: string): number {
  try {
    return RE2JS.compile(pattern).programSize();
  } catch {
    return Infinity;
  }
}

let meter: { left: number; budget: number } | undefined;

/**
 * Runs `fn` (a synchronous validation) with `budget` character × instruction units for all the
 * pattern matches it makes; outside any meter (schema compilation, which runs under the compile
 * watchdog), matches are not charged.
 */
export function meteredPatterns<T>(budget: number, fn: () => T): T {
  const outer = meter;
  meter = { left: budget, budget };
  try {
    return fn();
  } finally {
    meter = outer;
  }
}

function linearRegExp(pattern: string, flags: string): { test: (s: string) => boolean; toString(): string } {
  const compiled = RE2JS.compile(pattern);
  const size = Math.max(1, compiled.programSize());
  return {
    test: (s: string) => {
      if (meter !== undefined) {
        const cost = (s.length + 1) * size;
        if (cost > meter.left) throw new PatternWorkExceeded(pattern, s.length, size, meter.budget);
        meter.left -= cost;
      }
      return compiled.test(s);
    },
    toString: () => `/${pattern}/${flags}`,
  };
}

export const linearRegExpEngine: RegExpEngine = Object.assign(linearRegExp, {
  code: 'linearRegExp (re2js)',
});
