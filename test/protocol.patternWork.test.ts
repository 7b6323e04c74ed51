// `pattern` is linear under RE2 but not cheap: "(a|aa){0,1000}$" compiles to ~7,000 instructions
// and re2js spends a fraction of a millisecond per character on it (docs/benchmarks.md, "Figures
// behind bounds in the code"), so a 60 KB string took minutes while the validator, which took
// patterns for linear, ran it without its watchdog. Pattern work is now estimated (string length ×
// program size) and charged before each match; a validation that would overdraw its budget is
// refused at once with a `pattern` error.
import { describe, expect, it } from 'vitest';
import { GuardedValidator, PATTERN_WORK_BUDGET } from '../rig/protocol/guardedValidator.ts';
import { promptEnvelopeSchema } from '../rig/protocol/hitlPrompt.ts';
import { cpuTimed as timed } from './support/cpuTimed.ts';

const HOSTILE = { type: 'object', properties: { s: { type: 'string', pattern: '(a|aa){0,1000}$' } } };

describe('pattern work budget', () => {
  it('refuses a 60 KB string against a 7,000-instruction pattern before matching it', () => {
    const compiled = new GuardedValidator().compile(HOSTILE);
    const { value, ms } = timed(() => compiled.validate({ s: 'a'.repeat(60_000) }));
    expect(value).toEqual([
      {
        path: '',
        keyword: 'pattern',
        message: expect.stringMatching(/would overdraw the validation's pattern work budget/),
      },
    ]);
    // Matching it would take minutes; refusing it takes a few ms of CPU.
    expect(ms).toBeLessThan(1_000);
  });

  it(
    'bounds the sum over many strings: ' + 'an array of strings each within budget is stopped when the total is not',
    () => {
      // 213 instructions: small enough to skip the watchdog, so only the work budget stands in the way.
      const schema = {
        type: 'object',
        properties: { xs: { type: 'array', items: { type: 'string', pattern: '(a|aa){0,30}$' } } },
      };
      const compiled = new GuardedValidator().compile(schema);
      // 100 × 100 chars × 213 instructions ≈ 2.1e6 units, twice the budget; each string alone is 2 % of it.
      const { value, ms } = timed(() => compiled.validate({ xs: Array.from({ length: 100 }, () => 'a'.repeat(100)) }));
      expect(value.map((e) => e.keyword)).toEqual(['pattern']);
      // Before it is refused, the validation spends at most its budget (well under a second).
      expect(ms).toBeLessThan(1_000);
    },
  );

  it('keeps legitimate patterns working on strings of several KB', () => {
    const v = new GuardedValidator();
    const email = v.compile({
      type: 'object',
      properties: { e: { type: 'string', pattern: '^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$' } },
    });
    expect(email.validate({ e: `${'a'.repeat(8_000)}@example.com` })).toEqual([]);
    expect(email.validate({ e: 'a'.repeat(8_000) }).map((e) => e.keyword)).toEqual(['pattern']);
    const uuid = v.compile({
      type: 'object',
      properties: {
        ids: {
          type: 'array',
          items: { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' },
        },
      },
    });
    expect(uuid.validate({ ids: Array.from({ length: 200 }, () => '00000000-0000-4000-8000-000000000000') })).toEqual(
      [],
    );
    // The envelope's own allowed_responders pattern, on a few KB of responders.
    const envelope = v.compile(promptEnvelopeSchema);
    const responders = Array.from({ length: 20 }, (_, i) => `user:${'x'.repeat(200)}${i}@example.com`);
    const errors = envelope.validate({
      prompt_id: 'f7d4b1c0-9b25-4e8c-a4ce-3d6a51e8a772',
      prompt: 'ok?',
      response_schema: { type: 'object' },
      allowed_responders: responders,
    });
    expect(errors.filter((e) => e.message.includes('work budget'))).toEqual([]);
  });

  it('is configurable per validator', () => {
    const tight = new GuardedValidator({ patternWorkBudget: 10 }).compile({
      type: 'object',
      properties: { s: { type: 'string', pattern: '^a+$' } },
    });
    expect(tight.validate({ s: 'a'.repeat(100) }).map((e) => e.keyword)).toEqual(['pattern']);
    expect(PATTERN_WORK_BUDGET).toBeGreaterThan(0);
  });
});

describe('pattern cost on this machine (benchmark, reported not asserted)', () => {
  it('measures re2js cost per character per instruction', () => {
    const v = new GuardedValidator({ patternWorkBudget: Infinity, budgetMs: 60_000 });
    for (const [pattern, length] of [
      ['(a|aa){0,1000}$', 1_000],
      ['(a|aa){0,100}$', 4_000],
      ['^[a-z]+$', 50_000],
    ] as const) {
      const compiled = v.compile({ type: 'object', properties: { s: { type: 'string', pattern } } });
      const { ms } = timed(() => compiled.validate({ s: 'a'.repeat(length) }));
      console.log(`${pattern} on ${length} chars: ${ms.toFixed(1)} ms (${((ms * 1000) / length).toFixed(2)} µs/char)`);
    }
  }, 30_000);
});

describe('patterns with big programs run under the watchdog', () => {
  it('stops a validation whose pattern work, within budget, still outlasts the time budget', async () => {
    const { vi } = await import('vitest');
    const watched = vi.spyOn(GuardedValidator.prototype as unknown as { withinBudget: () => unknown }, 'withinBudget');
    try {
      const v = new GuardedValidator();
      v.compile(HOSTILE).validate({ s: 'aaaa' });
      expect(watched).toHaveBeenCalled();
      const envelope = v.compile(promptEnvelopeSchema);
      watched.mockClear();
      envelope.validate({
        prompt_id: 'f7d4b1c0-9b25-4e8c-a4ce-3d6a51e8a772',
        prompt: 'ok?',
        response_schema: { type: 'object' },
        allowed_responders: ['user:a@example.com'],
      });
      expect(watched).not.toHaveBeenCalled();
    } finally {
      watched.mockRestore();
    }
  });
});
