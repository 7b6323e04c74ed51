// Issue 14 item 4, the `backtracking-patterns` fault at its root: GuardedValidator's nativePatterns
// compiles `pattern` with V8's backtracking RegExp, where `^(a+)+$` against 'a'×28+'!' costs
// seconds (2^28 ways to split the a's); the linear engine answers the same validation at once.
import { describe, expect, it } from 'vitest';
import { GuardedValidator } from '../rig/protocol/guardedValidator.ts';
import { cpuTimed } from './support/cpuTimed.ts';

const SCHEMA = { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } };
const HOSTILE = { s: `${'a'.repeat(28)}!` };

/** One validation of HOSTILE, after a matching one: V8 interprets a fresh RegExp's first match and
 * compiles it to native code after, so the warm-up measures the native (faster) backtracker. */
function timedValidation(validator: GuardedValidator) {
  const compiled = validator.compile(SCHEMA);
  expect(compiled.validate({ s: 'aaa' })).toEqual([]);
  const { value: errors, ms } = cpuTimed(() => compiled.validate(HOSTILE));
  return { ms, errors };
}

describe('pattern engines', () => {
  it('linear (the default): ^(a+)+$ against a×28+! is refused in well under 100 ms', () => {
    const { ms, errors } = timedValidation(new GuardedValidator());
    expect(errors).toEqual([{ path: '/s', keyword: 'pattern', message: 'must match pattern "^(a+)+$"' }]);
    expect(ms).toBeLessThan(100);
  });

  it('native (backtracking-patterns): the same single validation takes hundreds of ms at least', () => {
    const { ms, errors } = timedValidation(new GuardedValidator({ nativePatterns: true }));
    expect(errors).toEqual([{ path: '/s', keyword: 'pattern', message: 'must match pattern "^(a+)+$"' }]);
    expect(ms).toBeGreaterThanOrEqual(300);
  }, 60_000);
});
