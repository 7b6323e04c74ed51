// Ajv's `pattern` and `patternProperties` run through RE2 semantics (re2js): matching is linear in
// the input, so a catastrophic-backtracking pattern in an untrusted schema costs nothing special.
// Patterns RE2 cannot express (lookaround, backreferences) fail at compile time with a reason.
// Ajv caches compiled patterns by `String(rx)`: the object must stringify to its own pattern, or
// every pattern of an Ajv instance silently becomes the first one it compiled (a meta-schema's).
import { RE2JS } from 're2js';

interface RegExpEngine {
  (pattern: string, flags: string): { test: (s: string) => boolean };
  code: string;
}

function linearRegExp(pattern: string, flags: string): { test: (s: string) => boolean; toString(): string } {
  const compiled = RE2JS.compile(pattern);
  return { test: (s: string) => compiled.test(s), toString: () => `/${pattern}/${flags}` };
}

export const linearRegExpEngine: RegExpEngine = Object.assign(linearRegExp, {
  code: 'linearRegExp (re2js)',
});
