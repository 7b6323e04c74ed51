// The agent evaluator's self-check: JSON parts against artifactSchema, required names present,
// every validation bounded, fail closed.
import { describe, expect, it } from 'vitest';
import {
  CHECK_BUDGET_MS,
  MAX_REPORTED_FAILURES,
  NOT_MET_KEY,
  checkArtifacts,
  notMetStatus,
} from '../rig/agent/artifactSelfCheck.ts';
import { ACCEPTANCE_URI } from '../rig/protocol/acceptance.ts';
import { readCriteria, type GateCriteria } from '../rig/agent/acceptanceCriteria.ts';
import { GuardedValidator } from '../rig/protocol/guardedValidator.ts';
import { VALIDATION_BUDGET_MS } from '../rig/protocol/hitlPrompt.ts';
import type { Artifact } from '../rig/protocol/a2aTypes.ts';
import { COSTLY_PATTERN, wideOneOfSchema } from './support/hostileSchemas.ts';
import { cpuTimed } from './support/cpuTimed.ts';

const validator = new GuardedValidator();
const scoreSchema = { type: 'object', required: ['score'], properties: { score: { type: 'number', minimum: 0 } } };

function criteria(fields: Record<string, unknown>, v = validator): GateCriteria {
  return readCriteria({ evaluator: 'agent', ...fields }, v);
}

function artifact(name: string | undefined, ...parts: Artifact['parts']): Artifact {
  return { artifactId: `id-${name ?? 'anon'}`, ...(name === undefined ? {} : { name }), parts };
}

describe('checkArtifacts', () => {
  it('is met when every JSON part validates and every required name is present', () => {
    const c = criteria({ artifactSchema: scoreSchema, requiredArtifacts: ['report', 'summary'] });
    const artifacts = [
      artifact(
        'report',
        { data: { score: 3 } },
        { text: 'prose is not checked' },
        { url: 'https://example.com/f.bin', mediaType: 'application/json' },
      ),
      artifact('summary', { text: '{"score": 0}', mediaType: 'application/json; charset=utf-8' }),
    ];
    expect(checkArtifacts(artifacts, c, validator)).toEqual({ met: true });
    expect(checkArtifacts([], criteria({}), validator)).toEqual({ met: true });
  });

  it('names every missing required artifact', () => {
    const c = criteria({ requiredArtifacts: ['report', 'summary', 'extra'] });
    const verdict = checkArtifacts(
      [artifact('report', { text: 'x' }), artifact(undefined, { text: 'y' })],
      c,
      validator,
    );
    expect(verdict).toEqual({
      met: false,
      failures: ['required artifact "summary" is missing', 'required artifact "extra" is missing'],
    });
  });

  it('reports each JSON part that does not match the schema, with its artifact, part and path', () => {
    const c = criteria({ artifactSchema: scoreSchema });
    const verdict = checkArtifacts(
      [
        artifact('report', { text: 'intro' }, { data: { score: -1 } }),
        artifact(
          'other',
          { data: { note: 'no score' } },
          { text: '{"score": "high"}', mediaType: 'application/vnd.x+json' },
        ),
      ],
      c,
      validator,
    );
    expect(verdict.met).toBe(false);
    const failures = (verdict as { failures: string[] }).failures;
    expect(failures).toHaveLength(3);
    expect(failures[0]).toBe('artifact "report" (id-report) part 1 does not match artifactSchema: /score must be >= 0');
    expect(failures[1]).toMatch(
      /^artifact "other" \(id-other\) part 0 does not match artifactSchema: \/score must have required property/,
    );
    expect(failures[2]).toMatch(/^artifact "other" \(id-other\) part 1 .*\/score must be number/);
  });

  it('counts JSON text that does not parse as a failure, and ignores non-JSON text', () => {
    const c = criteria({ artifactSchema: { type: 'object' } });
    const verdict = checkArtifacts(
      [artifact('a', { text: '{oops', mediaType: 'application/json' }, { text: '{oops', mediaType: 'text/plain' })],
      c,
      validator,
    );
    expect(verdict).toEqual({
      met: false,
      failures: [
        expect.stringMatching(/^artifact "a" \(id-a\) part 0 is application\/json text that does not parse as JSON/),
      ],
    });
  });

  it('fails closed when the schema cannot be compiled (criteria that skipped validation)', () => {
    const c = readCriteria({ evaluator: 'agent', artifactSchema: { type: 'no-such-type' } }, validator, {
      skipValidation: true,
    });
    const verdict = checkArtifacts([artifact('a', { data: {} })], c, validator);
    expect(verdict).toEqual({
      met: false,
      failures: [expect.stringMatching(/artifactSchema is not a usable JSON Schema/)],
    });
  });

  it('lists at most MAX_REPORTED_FAILURES failures, counting the rest', () => {
    const c = criteria({ requiredArtifacts: Array.from({ length: 30 }, (_, i) => `n${i}`) });
    const verdict = checkArtifacts([], c, validator) as { met: false; failures: string[] };
    expect(verdict.failures).toHaveLength(MAX_REPORTED_FAILURES);
    expect(verdict.failures.at(-1)).toBe('... and 11 more failures');
  });
});

describe('checkArtifacts against hostile schemas', () => {
  it('refuses a costly pattern on a long string before running it (pattern work meter)', () => {
    const c = criteria({
      artifactSchema: { type: 'object', properties: { s: { type: 'string', pattern: COSTLY_PATTERN } } },
    });
    const { value, ms } = cpuTimed(() =>
      checkArtifacts([artifact('a', { data: { s: 'a'.repeat(50_000) } })], c, validator),
    );
    const verdict = value as { met: false; failures: string[] };
    expect(ms).toBeLessThan(VALIDATION_BUDGET_MS * 4);
    expect(verdict.failures[0]).toMatch(/overdraw the validation's pattern work budget/);
  });

  it('checks a 512-branch oneOf within the validation budget, its first call warmed on a throwaway value', () => {
    // Its compile can pass the 1 s compile budget on a loaded box; this test is about validation. The
    // criteria skip readCriteria's compile so that checkArtifacts compiles (and warms) it itself.
    // A 50 ms watchdog: V8's lazy compile of the first call would overrun it, a warmed call does not
    // (docs/testing.md, "What the tests were written against").
    const roomy = new GuardedValidator({ compileBudgetMs: 60_000, budgetMs: 50 });
    const c = readCriteria({ evaluator: 'agent', artifactSchema: wideOneOfSchema(512) }, roomy, {
      skipValidation: true,
    });
    const all = Object.fromEntries(Array.from({ length: 511 }, (_, i) => [`p${i}`, 1]));
    const verdict = checkArtifacts([artifact('a', { data: {} }, { data: all })], c, roomy) as {
      met: false;
      failures: string[];
    };
    // {} matches only the catch-all: valid. `all` matches every branch: not exactly one.
    expect(verdict.failures).toHaveLength(1);
    expect(verdict.failures[0]).toMatch(
      /part 1 does not match artifactSchema: \/ must match exactly one schema in oneOf/,
    );
  });

  it('stops a validation at the watchdog, and the whole check at CHECK_BUDGET_MS (fail closed)', () => {
    const c = criteria({
      artifactSchema: { type: 'object', properties: { xs: { type: 'array', uniqueItems: true } } },
    });
    // uniqueItems over 20k distinct objects is ~2e8 deep comparisons: far past the 250 ms watchdog.
    const xs = Array.from({ length: 20_000 }, (_, i) => ({ i }));
    const parts = Array.from({ length: 12 }, () => ({ data: { xs } }));
    const { value, ms: elapsed } = cpuTimed(() => checkArtifacts([artifact('big', ...parts)], c, validator));
    const verdict = value as { met: false; failures: string[] };
    expect(verdict.met).toBe(false);
    expect(verdict.failures[0]).toMatch(/validation took longer than 250 ms/);
    expect(verdict.failures.at(-1)).toMatch(
      new RegExp(`ran past ${CHECK_BUDGET_MS} ms; \\d+ JSON parts were not checked`),
    );
    // Without the overall budget the 12 parts would take at least 12 × 250 ms (each runs to the watchdog).
    expect(elapsed).toBeLessThan(parts.length * VALIDATION_BUDGET_MS);
  }, 30_000);
});

describe('notMetStatus', () => {
  it('carries -32041 acceptance_criteria_not_met with the failures as details, and a text saying why', () => {
    expect(NOT_MET_KEY).toBe(`${ACCEPTANCE_URI}/error`);
    expect(notMetStatus(['required artifact "a" is missing', 'x'])).toEqual({
      text: 'acceptance criteria not met: required artifact "a" is missing; x',
      metadata: {
        [NOT_MET_KEY]: {
          code: -32041,
          message: 'acceptance_criteria_not_met',
          details: ['required artifact "a" is missing', 'x'],
        },
      },
    });
  });
});
