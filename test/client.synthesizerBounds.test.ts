// The answer synthesizer's work is synchronous, so nothing but its own bounds can stop it: a
// 530-branch oneOf once hung the rig for minutes (pairwise branch checks, recompiling as the cache
// thrashed), and a pattern-constrained example of 60 KB took minutes to verify. Each is now refused
// quickly with "answers cannot be built: ..." (or a verification failure naming the pattern budget).
import { describe, expect, it, vi } from 'vitest';
import { AnswerSynthesizer } from '../rig/client/answerSynthesizer.ts';
import { GuardedValidator } from '../rig/protocol/guardedValidator.ts';
import { costlyPatternSchema, wideOneOfSchema } from './support/hostileSchemas.ts';
import { cpuTimed as timed } from './support/cpuTimed.ts';

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
    // One compile (≤ 1 s watchdog) may overrun the budget; the budget is wall time, so CPU is within it.
    expect(ms).toBeLessThan(2_500);
  });

  it('remembers an outcome by schema content, so a load run pays for a hostile schema once', () => {
    const synthesizer = new AnswerSynthesizer(new GuardedValidator(), 50);
    const first = synthesizer.synthesize(wideOneOfSchema(120));
    // A miss compiles the schema again to build the answers; a hit never reaches the validator (no
    // clock needed to tell them apart).
    const compile = vi.spyOn(synthesizer.validator, 'compile');
    expect(synthesizer.synthesize(wideOneOfSchema(120))).toEqual(first);
    expect(compile).not.toHaveBeenCalled();
    synthesizer.synthesize(wideOneOfSchema(119));
    expect(compile).toHaveBeenCalled();
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
