// Decision authority: the principal of a request, the named deciders, and who may decide.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_DECIDERS, decidersOf, mayDecide, principalOf } from '../rig/agent/decisionAuthority.ts';
import { A2AError } from '../rig/protocol/errorCodes.ts';
import {
  ACCEPTANCE_CRITERIA_INVALID,
  ACCEPTANCE_DECISION_UNAUTHORIZED,
  ACCEPTANCE_URI,
  ANONYMOUS_PRINCIPAL,
  DECIDERS_KEY,
} from '../rig/protocol/acceptance.ts';

const sha = (t: string) => createHash('sha256').update(t).digest('hex');

function codeOf(fn: () => unknown): { code: number; reason: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(A2AError);
    const data = (err as A2AError).data as { extension: string; reason: string };
    expect(data.extension).toBe(ACCEPTANCE_URI);
    return { code: (err as A2AError).code, reason: data.reason };
  }
  throw new Error('did not throw');
}

describe('principalOf', () => {
  it('is the SHA-256 hex of the bearer token, whatever the scheme case', () => {
    expect(principalOf('Bearer alice-token')).toBe(sha('alice-token'));
    expect(principalOf('bearer alice-token')).toBe(sha('alice-token'));
    expect(principalOf(['Bearer abc.def~+/=='])).toBe(sha('abc.def~+/=='));
    expect(principalOf('Bearer a')).not.toBe(principalOf('Bearer b'));
  });

  it('is anonymous without an Authorization header', () => {
    expect(principalOf(undefined)).toBe(ANONYMOUS_PRINCIPAL);
  });

  it('refuses a malformed header instead of downgrading it to anonymous', () => {
    for (const h of [
      '',
      'Bearer',
      'Bearer ',
      'Basic dXNlcjpwYXNz',
      'Bearer two words',
      'Bearer tok\u00e9n',
      'token',
      ['Bearer a', 'Bearer b'],
      [],
      `Bearer ${'a'.repeat(5000)}`,
    ]) {
      expect(codeOf(() => principalOf(h)).code).toBe(ACCEPTANCE_DECISION_UNAUTHORIZED);
    }
  });
});

describe('decidersOf', () => {
  it('reads the named digests, [] when none are named', () => {
    const a = sha('a');
    const b = sha('b');
    expect(decidersOf({ [DECIDERS_KEY]: [a, b, a] })).toEqual([a, b]);
    expect(decidersOf({ [DECIDERS_KEY]: [] })).toEqual([]);
    expect(decidersOf({})).toEqual([]);
    expect(decidersOf(undefined)).toEqual([]);
  });

  it('refuses a malformed list as invalid criteria', () => {
    const many = Array.from({ length: MAX_DECIDERS + 1 }, (_, i) => sha(String(i)));
    expect(decidersOf({ [DECIDERS_KEY]: many.slice(0, MAX_DECIDERS) })).toHaveLength(MAX_DECIDERS);
    for (const bad of [sha('a'), null, many, [sha('a').toUpperCase()], [sha('a').slice(1)], ['anonymous'], [1]]) {
      const { code, reason } = codeOf(() => decidersOf({ [DECIDERS_KEY]: bad }));
      expect(code).toBe(ACCEPTANCE_CRITERIA_INVALID);
      expect(reason).toContain(DECIDERS_KEY);
    }
  });
});

describe('mayDecide', () => {
  const alice = sha('alice');
  const bob = sha('bob');
  const eve = sha('eve');
  it('lets the creator and the named deciders decide, and no one else', () => {
    expect(mayDecide(alice, [], alice)).toBe(true);
    expect(mayDecide(alice, [bob], bob)).toBe(true);
    expect(mayDecide(alice, [bob], eve)).toBe(false);
    expect(mayDecide(alice, [bob], ANONYMOUS_PRINCIPAL)).toBe(false);
  });
  it('lets only the anonymous principal decide an anonymously created task', () => {
    expect(mayDecide(ANONYMOUS_PRINCIPAL, [], ANONYMOUS_PRINCIPAL)).toBe(true);
    expect(mayDecide(ANONYMOUS_PRINCIPAL, [], alice)).toBe(false);
    expect(mayDecide(ANONYMOUS_PRINCIPAL, [bob], bob)).toBe(true);
  });
});
