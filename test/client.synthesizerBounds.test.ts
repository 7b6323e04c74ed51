// The answer synthesizer's work is synchronous, so nothing but its own bounds can stop it: a
// 530-branch oneOf once hung the rig for minutes (pairwise branch checks, recompiling as the cache
// thrashed), and a pattern-constrained example of 60 KB took minutes to verify. Each is now refused
// quickly with "answers cannot be built: ..." (or a verification failure naming the pattern budget).
import { describe, expect, it } from 'vitest';
import { AnswerSynthesizer } from '../rig/client/answerSynthesizer.ts';
import { GuardedValidator } from '../rig/protocol/guardedValidator.ts';
import { costlyPatternSchema, wideOneOfSchema } from './support/hostileSchemas.ts';

function timed<T>(fn: () => T): { value: T; ms: number } {
  const t0 = performance.now();
  const value = fn();
  return { value, ms: performance.now() - t0 };
}

describe('AnswerSynthesizer bounds', () => {
  it('refuses an 11.6 KB oneOf of 530 branches at once, and says why', () => {
    const schema = wideOneOfSchema();
    expect(JSON.stringify(schema).length).toBeLessThan(12_000);
    const { value, ms } = timed(() => new AnswerSynthesizer().synthesize(schema));
    expect(value).toEqual({
      ok: false,
      reason: expect.stringMatching(/^answers cannot be built: a oneOf has 530 branches, over the synthesizer's 128/),
    });
    expect(ms).toBeLessThan(3_000);
  });

  it('stops at its time budget when the work within its shape bounds is still too much', () => {
    // 120 branches (under the width bound), each overlapping the catch-all: ~14,000 branch checks.
    const synthesizer = new AnswerSynthesizer(new GuardedValidator(), 50);
    const { value, ms } = timed(() => synthesizer.synthesize(wideOneOfSchema(120)));
    expect(value).toEqual({
      ok: false,
      reason: 'answers cannot be built: synthesis took longer than its 50 ms budget',
    });
    // One compile (≤ 1 s watchdog) may overrun the budget; a loaded 2-core box adds more.
    expect(ms).toBeLessThan(2_500);
  });

  it('remembers an outcome by schema content, so a load run pays for a hostile schema once', () => {
    const synthesizer = new AnswerSynthesizer(new GuardedValidator(), 50);
    const first = synthesizer.synthesize(wideOneOfSchema(120));
    const { value, ms } = timed(() => synthesizer.synthesize(wideOneOfSchema(120)));
    expect(value).toEqual(first);
    // A miss synthesizes again, which takes far longer than a cache hit; the bound leaves room for a
    // loaded box.
    expect(ms).toBeLessThan(250);
  });

  it('refuses a 60 KB example of a 7,000-instruction pattern without matching it', () => {
    const { value, ms } = timed(() => new AnswerSynthesizer().synthesize(costlyPatternSchema('a'.repeat(60_000))));
    expect(value.ok).toBe(false);
    expect(!value.ok && value.reason).toMatch(/pattern work budget/);
    expect(ms).toBeLessThan(3_000);
  });

  it('still builds answers for ordinary oneOf and wide anyOf schemas', () => {
    const synthesizer = new AnswerSynthesizer();
    const oneOf = synthesizer.synthesize({
      type: 'object',
      additionalProperties: false,
      required: ['choice'],
      properties: { choice: { oneOf: [{ const: 'yes' }, { const: 'no' }, { type: 'integer' }] } },
    });
    expect(oneOf.ok && oneOf.answers.valid).toEqual({ choice: 'yes' });
    const anyOf = synthesizer.synthesize({
      type: 'object',
      required: ['x'],
      properties: { x: { anyOf: Array.from({ length: 600 }, (_, i) => ({ const: i })) } },
    });
    expect(anyOf.ok && anyOf.answers.valid).toEqual({ x: 0 });
  });
});
