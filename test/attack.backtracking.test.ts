// The inputs pattern-backtracking sends (rig/attack/backtrackingInput.ts): found at any depth of a
// response_schema, and built so the repeated run matches the pattern's ambiguous group while the
// last character makes the whole match fail (what forces a backtracking engine through 2^N splits).
import { describe, expect, it } from 'vitest';
import { backtrackingInput, findPatterns } from '../rig/attack/backtrackingInput.ts';

const EVIL = ['^(a+)+$', '^(a|aa)+$', '^(\\w+\\s?)*$', '^x-(\\d+)*y$', '^([a-z0-9]+[-.]?)+@example\\.com$'];

describe('backtracking inputs', () => {
  it('finds patterns at any depth, with the property path when only properties lead there', () => {
    const schema = {
      type: 'object',
      properties: {
        code: { type: 'string', pattern: '^(a+)+$' },
        inner: { type: 'object', properties: { id: { pattern: '^(x|xx)+$' } } },
        list: { type: 'array', items: { pattern: 'b+' } },
      },
    };
    expect(findPatterns(schema)).toEqual([
      { pattern: '^(a+)+$', propertyPath: ['code'] },
      { pattern: '^(x|xx)+$', propertyPath: ['inner', 'id'] },
      { pattern: 'b+', propertyPath: undefined },
    ]);
    expect(findPatterns({ type: 'object' })).toEqual([]);
  });

  it.each(EVIL)('%s: the run matches without the last character, and the whole input fails', (pattern) => {
    const input = backtrackingInput(pattern, 12)!;
    expect(input).toBeDefined();
    const re = new RegExp(pattern);
    expect(re.test(input)).toBe(false);
    // Without the failing character (and with whatever the pattern needs after the group) it would match:
    // the run really is the group repeated, so the engine has to try every split of it.
    const run = input.slice(0, -1);
    const tail = pattern.endsWith('y$') ? 'y' : pattern.endsWith('example\\.com$') ? '@example.com' : '';
    expect(re.test(run + tail)).toBe(true);
    expect(input.length).toBeGreaterThanOrEqual(13);
  });

  it('gives nothing for a pattern without a repeated ambiguous group', () => {
    expect(backtrackingInput('^[a-z]+$', 20)).toBeUndefined();
    expect(backtrackingInput('^\\d{3}-\\d{4}$', 20)).toBeUndefined();
  });
});
