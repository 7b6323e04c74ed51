// The answer synthesizer remembers outcomes by schema content and hands each caller a copy (parsed
// back from the outcome's JSON text, on the load's round-trip path). A remembered outcome must be
// the one of that schema, never of another one met before; a caller's changes must not reach the
// next caller; and an outcome JSON would change (a -0 const) is copied exactly.
import { describe, expect, it } from 'vitest';
import { AnswerSynthesizer } from '../rig/client/answerSynthesizer.ts';

const schemaA = {
  type: 'object',
  additionalProperties: false,
  required: ['approved'],
  properties: { approved: { type: 'boolean' } },
};
// The same shape, another property and type: a cache keyed loosely (by shape, by size) would mix them up.
const schemaB = {
  type: 'object',
  additionalProperties: false,
  required: ['score'],
  properties: { score: { type: 'integer', minimum: 3 } },
};

describe('the synthesizer remembers outcomes by schema', () => {
  it('a remembered outcome is the one of its own schema, equal to a fresh synthesis', () => {
    const synthesizer = new AnswerSynthesizer();
    for (let round = 0; round < 3; round++) {
      for (const schema of [schemaA, schemaB]) {
        expect(synthesizer.synthesize(schema)).toEqual(new AnswerSynthesizer().synthesize(schema));
      }
    }
    const [a, b] = [synthesizer.synthesize(schemaA), synthesizer.synthesize(schemaB)];
    expect(a.ok && a.answers.valid).toEqual({ approved: false });
    expect(b.ok && b.answers.valid).toEqual({ score: 3 });
  });

  it("hands out copies: one caller's changes never reach the next", () => {
    const synthesizer = new AnswerSynthesizer();
    const first = synthesizer.synthesize(schemaA);
    if (!first.ok) throw new Error(first.reason);
    first.answers.valid.approved = 'changed';
    first.answers.invalid.length = 0;
    const second = synthesizer.synthesize(schemaA);
    expect(second).toEqual(new AnswerSynthesizer().synthesize(schemaA));
    expect(second.ok && second.answers.valid).toEqual({ approved: false });
  });

  it('copies an outcome that JSON would change (-0) exactly, remembered or not', () => {
    const synthesizer = new AnswerSynthesizer();
    const schema = { type: 'object', required: ['n'], properties: { n: { const: -0 } } };
    for (let i = 0; i < 2; i++) {
      const s = synthesizer.synthesize(schema);
      if (!s.ok) throw new Error(s.reason);
      expect(Object.is(s.answers.valid.n, -0)).toBe(true);
    }
  });

  it("validAnswer hands out the same synthesis's valid payload alone, a copy, and the same refusal", () => {
    const synthesizer = new AnswerSynthesizer();
    for (const schema of [schemaA, schemaB]) {
      const whole = new AnswerSynthesizer().synthesize(schema);
      for (let i = 0; i < 2; i++) {
        const answer = synthesizer.validAnswer(schema);
        if (!answer.ok || !whole.ok) throw new Error('no synthesis');
        expect(answer.valid).toEqual(whole.answers.valid);
        answer.valid.changed = true;
      }
    }
    // Remembered once for both ways of asking.
    expect(synthesizer.synthesize(schemaA)).toEqual(new AnswerSynthesizer().synthesize(schemaA));
    const minusZero = synthesizer.validAnswer({ type: 'object', required: ['n'], properties: { n: { const: -0 } } });
    expect(minusZero.ok && Object.is(minusZero.valid.n, -0)).toBe(true);
    const refused = { type: 'string' };
    expect(synthesizer.validAnswer(refused)).toEqual(new AnswerSynthesizer().synthesize(refused));
    expect(synthesizer.validAnswer(refused).ok).toBe(false);
  });
});
