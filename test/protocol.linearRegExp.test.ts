// Regression: Ajv caches compiled patterns by String(rx); the RE2 wrapper once stringified to
// "[object Object]", so every `pattern` silently became the meta-schema's first one and matched
// almost anything. Each pattern must be enforced as written, and stay linear-time.
import { describe, expect, it } from 'vitest';
import { GuardedValidator } from '../rig/protocol/guardedValidator.ts';

describe('GuardedValidator patterns (RE2)', () => {
  it('enforces each pattern of a schema as written, not the first one Ajv compiled', () => {
    const validator = new GuardedValidator();
    const schema = {
      type: 'object',
      properties: { code: { type: 'string', pattern: '^[a-z]{3}-\\d{2}$' }, tag: { type: 'string', pattern: '^#' } },
    };
    const compiled = validator.compile(schema);
    expect(compiled.validate({ code: 'abc-12', tag: '#x' })).toEqual([]);
    expect(compiled.validate({ code: 'zz' }).map((e) => e.keyword)).toEqual(['pattern']);
    expect(compiled.validate({ tag: 'x' }).map((e) => e.path)).toEqual(['/tag']);
  });

  it('keeps patterns unanchored (search semantics) like ECMAScript RegExp.test', () => {
    const compiled = new GuardedValidator().compile({
      type: 'object',
      properties: { s: { type: 'string', pattern: 'b' } },
    });
    expect(compiled.validate({ s: 'abc' })).toEqual([]);
    expect(compiled.validate({ s: 'xyz' })).toHaveLength(1);
  });
});
