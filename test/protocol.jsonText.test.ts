// jsonText (jsonNesting.ts) writes a value JSON.stringify overflows on, as the text it would write.
import { describe, expect, it } from 'vitest';
import { jsonText } from '../rig/protocol/jsonNesting.ts';

describe('jsonText', () => {
  it('writes what JSON.stringify writes, undefined members left out as it does', () => {
    const value = { a: [1, 'x"', null, undefined, { b: true, c: undefined }], 'k\n': -0.5, e: {}, f: [] };
    expect(jsonText(value)).toBe(JSON.stringify(value));
  });

  it('writes a 100,000-level value back to the text it was parsed from', () => {
    const text = '{"a":'.repeat(50_000) + '[1,{"b":[]}]' + '}'.repeat(50_000);
    const value: unknown = JSON.parse(text);
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(jsonText(value)).toBe(text);
  });
});
