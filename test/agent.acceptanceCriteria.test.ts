// readCriteria: a closed, typed, bounded object; artifactSchema guarded like a hitl response_schema
// (size, subschema depth, compile budget, RE2-only patterns) plus raw JSON depth and local-only $ref.
import { describe, expect, it, vi } from 'vitest';
import { MAX_SCHEMA_JSON_DEPTH, readCriteria, type GateCriteria } from '../rig/agent/acceptanceCriteria.ts';
import { A2AError } from '../rig/protocol/errorCodes.ts';
import { GuardedValidator } from '../rig/protocol/guardedValidator.ts';
import { COMPILE_BUDGET_MS, MAX_RESPONSE_SCHEMA_BYTES } from '../rig/protocol/hitlPrompt.ts';
import {
  ACCEPTANCE_CRITERIA_INVALID,
  ACCEPTANCE_URI,
  DEFAULT_ACCEPTANCE_TIMEOUT_S,
  DEFAULT_MAX_REJECTIONS,
  MAX_ACCEPTANCE_TIMEOUT_S,
  MAX_ARTIFACT_NAME_CHARS,
  MAX_DESCRIPTION_CHARS,
  MAX_REJECTIONS_CAP,
  MAX_REQUIRED_ARTIFACTS,
} from '../rig/protocol/acceptance.ts';
import { COSTLY_PATTERN, wideOneOfSchema } from './support/hostileSchemas.ts';

const validator = new GuardedValidator();
const DEFAULTS: GateCriteria = {
  requiredArtifacts: [],
  evaluator: 'client',
  acceptanceTimeoutSeconds: DEFAULT_ACCEPTANCE_TIMEOUT_S,
  maxRejections: DEFAULT_MAX_REJECTIONS,
};

function refusal(raw: unknown, v = validator): string {
  try {
    readCriteria(raw, v);
  } catch (err) {
    expect(err).toBeInstanceOf(A2AError);
    const e = err as A2AError;
    expect(e.code).toBe(ACCEPTANCE_CRITERIA_INVALID);
    expect(e.message).toBe('acceptance_criteria_invalid');
    const data = e.data as { extension: string; reason: string };
    expect(data.extension).toBe(ACCEPTANCE_URI);
    expect(data.reason).not.toMatch(/[\r\n]/);
    expect(data.reason.length).toBeLessThanOrEqual(400);
    return data.reason;
  }
  throw new Error(`accepted ${JSON.stringify(raw).slice(0, 200)}`);
}

function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'object' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { n: schema } };
  return schema;
}

describe('readCriteria: fields', () => {
  it('gives the finite defaults when the criteria are absent or empty', () => {
    expect(readCriteria(undefined, validator)).toEqual(DEFAULTS);
    expect(readCriteria({}, validator)).toEqual(DEFAULTS);
  });

  it('reads every field within its bounds', () => {
    const schema = { type: 'object', required: ['score'], properties: { score: { type: 'number', minimum: 0 } } };
    expect(
      readCriteria(
        {
          description: 'a report with a score',
          artifactSchema: schema,
          requiredArtifacts: ['report', 'x'.repeat(MAX_ARTIFACT_NAME_CHARS)],
          evaluator: 'agent',
          acceptanceTimeoutSeconds: MAX_ACCEPTANCE_TIMEOUT_S,
          maxRejections: 0,
        },
        validator,
      ),
    ).toEqual({
      description: 'a report with a score',
      artifactSchema: schema,
      requiredArtifacts: ['report', 'x'.repeat(MAX_ARTIFACT_NAME_CHARS)],
      evaluator: 'agent',
      acceptanceTimeoutSeconds: MAX_ACCEPTANCE_TIMEOUT_S,
      maxRejections: 0,
    });
    expect(
      readCriteria({ evaluator: 'human', acceptanceTimeoutSeconds: 1, maxRejections: MAX_REJECTIONS_CAP }, validator),
    ).toMatchObject({
      evaluator: 'human',
      acceptanceTimeoutSeconds: 1,
      maxRejections: MAX_REJECTIONS_CAP,
    });
  });

  it('refuses what is not an object, and unknown fields', () => {
    for (const raw of [null, 'client', 3, [], [{ evaluator: 'client' }]])
      expect(refusal(raw)).toMatch(/criteria must be a JSON object/);
    expect(refusal({ evaluator: 'client', maxRejection: 2 })).toMatch(/unknown field "maxRejection"/);
  });

  it('refuses an unknown evaluator', () => {
    expect(refusal({ evaluator: 'robot' })).toMatch(/criteria\.evaluator "robot" is not one of client, agent, human/);
    expect(refusal({ evaluator: 'Client' })).toMatch(/criteria\.evaluator/);
    expect(refusal({ evaluator: null })).toMatch(/criteria\.evaluator/);
  });

  it('refuses negative, non-integer, non-number and out-of-range numbers', () => {
    expect(refusal({ maxRejections: -1 })).toMatch(/criteria\.maxRejections is -1; it must be between 0 and 10/);
    expect(refusal({ maxRejections: MAX_REJECTIONS_CAP + 1 })).toMatch(/criteria\.maxRejections is 11/);
    expect(refusal({ maxRejections: 1.5 })).toMatch(/criteria\.maxRejections must be an integer/);
    expect(refusal({ maxRejections: '3' })).toMatch(/criteria\.maxRejections must be an integer, not "3"/);
    expect(refusal({ acceptanceTimeoutSeconds: 0 })).toMatch(
      /criteria\.acceptanceTimeoutSeconds is 0; it must be between 1 and 604800/,
    );
    expect(refusal({ acceptanceTimeoutSeconds: -5 })).toMatch(/acceptanceTimeoutSeconds/);
    expect(refusal({ acceptanceTimeoutSeconds: MAX_ACCEPTANCE_TIMEOUT_S + 1 })).toMatch(/acceptanceTimeoutSeconds/);
    expect(refusal({ acceptanceTimeoutSeconds: Number.MAX_SAFE_INTEGER * 4 })).toMatch(/acceptanceTimeoutSeconds/);
    expect(refusal({ acceptanceTimeoutSeconds: null })).toMatch(/acceptanceTimeoutSeconds must be an integer/);
  });

  it('bounds requiredArtifacts and description', () => {
    expect(refusal({ requiredArtifacts: 'report' })).toMatch(/criteria\.requiredArtifacts must be an array/);
    expect(refusal({ requiredArtifacts: ['a', ''] })).toMatch(
      /criteria\.requiredArtifacts\[1\] must be a non-empty string/,
    );
    expect(refusal({ requiredArtifacts: [7] })).toMatch(/criteria\.requiredArtifacts\[0\]/);
    expect(refusal({ requiredArtifacts: ['x'.repeat(MAX_ARTIFACT_NAME_CHARS + 1)] })).toMatch(
      /requiredArtifacts\[0\] has 257 characters/,
    );
    const many = Array.from({ length: MAX_REQUIRED_ARTIFACTS + 1 }, (_, i) => `a${i}`);
    expect(readCriteria({ requiredArtifacts: many.slice(1) }, validator).requiredArtifacts).toHaveLength(
      MAX_REQUIRED_ARTIFACTS,
    );
    expect(refusal({ requiredArtifacts: many })).toMatch(/requiredArtifacts has 65 names; at most 64/);
    expect(readCriteria({ description: 'd'.repeat(MAX_DESCRIPTION_CHARS) }, validator).description).toHaveLength(
      MAX_DESCRIPTION_CHARS,
    );
    expect(refusal({ description: 'd'.repeat(MAX_DESCRIPTION_CHARS + 1) })).toMatch(
      /criteria\.description has 4097 characters/,
    );
    expect(refusal({ description: { text: 'x' } })).toMatch(/criteria\.description must be a string/);
  });
});

describe('readCriteria: artifactSchema guards', () => {
  it('refuses a schema that is not an object or not a usable draft 2020-12 schema', () => {
    for (const s of [true, 'schema', [], null])
      expect(refusal({ artifactSchema: s })).toMatch(/criteria\.artifactSchema must be a JSON object/);
    expect(refusal({ artifactSchema: { type: 'no-such-type' } })).toMatch(
      /criteria\.artifactSchema: artifactSchema is not a usable JSON Schema/,
    );
  });

  it('refuses a schema over 64 KiB serialized before compiling it', () => {
    const spy = vi.spyOn(validator, 'compile');
    try {
      const enumOf = (bytes: number) => ({ type: 'string', enum: ['x'.repeat(bytes - 29)] });
      expect(JSON.stringify(enumOf(MAX_RESPONSE_SCHEMA_BYTES)).length).toBe(MAX_RESPONSE_SCHEMA_BYTES);
      expect(
        readCriteria({ artifactSchema: enumOf(MAX_RESPONSE_SCHEMA_BYTES) }, validator).artifactSchema,
      ).toBeDefined();
      spy.mockClear();
      expect(refusal({ artifactSchema: enumOf(MAX_RESPONSE_SCHEMA_BYTES + 1) })).toMatch(
        /criteria\.artifactSchema is 65537 bytes serialized; at most 65536/,
      );
      expect(refusal({ artifactSchema: enumOf(200_000) })).toMatch(/bytes serialized/);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses subschemas nested deeper than 32, and pathological raw JSON nesting without overflowing the stack', () => {
    expect(readCriteria({ artifactSchema: nested(31) }, validator).artifactSchema).toBeDefined();
    expect(refusal({ artifactSchema: nested(32) })).toMatch(
      /criteria\.artifactSchema: artifactSchema nests subschemas deeper than 32 levels/,
    );
    expect(refusal({ artifactSchema: nested(40) })).toMatch(/deeper than 32/);
    const deepConst = JSON.parse(`{"const":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    expect(refusal({ artifactSchema: deepConst })).toMatch(
      new RegExp(`nests JSON deeper than ${MAX_SCHEMA_JSON_DEPTH} levels`),
    );
  });

  it('refuses any $ref that is not a local "#..." pointer, and keeps local ones', () => {
    expect(refusal({ artifactSchema: { $ref: 'https://example.com/s.json' } })).toMatch(
      /\$ref "https:\/\/example\.com\/s\.json": only local/,
    );
    expect(refusal({ artifactSchema: { properties: { a: { $ref: 'other.json#/x' } } } })).toMatch(/only local/);
    expect(refusal({ artifactSchema: { items: { $dynamicRef: 'http://x/y#meta' } } })).toMatch(/\$dynamicRef/);
    expect(refusal({ artifactSchema: { allOf: [{ $ref: 7 }] } })).toMatch(/\$ref "7"/);
    const tree = {
      type: 'object',
      properties: { child: { $ref: '#' }, leaf: { $ref: '#/$defs/leaf' } },
      $defs: { leaf: { type: 'string' } },
    };
    expect(readCriteria({ artifactSchema: tree }, validator).artifactSchema).toEqual(tree);
  });

  it("never fetches a remote meta-schema, and one client's $id cannot poison another's schema or the meta-schema", () => {
    const v = new GuardedValidator();
    expect(refusal({ artifactSchema: { $schema: 'https://evil.example/meta', type: 'object' } }, v)).toMatch(
      /no schema with key or ref "https:\/\/evil\.example\/meta"/,
    );
    const claim = (type: string) => ({ type: 'object', properties: { a: { $id: 'https://shared.example/a', type } } });
    const asString = readCriteria({ artifactSchema: claim('string') }, v).artifactSchema!;
    const asNumber = readCriteria({ artifactSchema: claim('number') }, v).artifactSchema!;
    expect(v.compile(asString).validate({ a: 1 })).toHaveLength(1);
    expect(v.compile(asNumber).validate({ a: 1 })).toEqual([]);
    readCriteria({ artifactSchema: { $id: 'https://json-schema.org/draft/2020-12/schema', type: 'string' } }, v);
    expect(refusal({ artifactSchema: { type: 'no-such-type' } }, v)).toMatch(/not a usable JSON Schema/);
  });

  it('refuses patterns RE2 cannot run (lookaround, backreferences)', () => {
    expect(refusal({ artifactSchema: { type: 'string', pattern: '(?=a)b' } })).toMatch(
      /criteria\.artifactSchema: .*regexp/,
    );
    expect(refusal({ artifactSchema: { type: 'string', pattern: '(a)\\1' } })).toMatch(/regexp/);
  });

  it('refuses a schema whose compile overruns the budget, within the budget', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 1000 }, (_, i) => [
        `p${i}`,
        { type: 'string', pattern: `${COSTLY_PATTERN.slice(0, -1)}${i}$` },
      ]),
    );
    const hostile = { type: 'object', properties };
    expect(JSON.stringify(hostile).length).toBeLessThanOrEqual(MAX_RESPONSE_SCHEMA_BYTES);
    const started = performance.now();
    expect(refusal({ artifactSchema: hostile }, new GuardedValidator())).toMatch(
      new RegExp(`compiling artifactSchema took longer than ${COMPILE_BUDGET_MS} ms`),
    );
    // The watchdog cuts the compile at the budget; a fresh Ajv (meta-schema compiled) follows. Margin for a loaded box.
    expect(performance.now() - started).toBeLessThan(COMPILE_BUDGET_MS * 5);
  }, 30_000);

  it('refuses a 530-branch oneOf (and oneOfs summing past the bound) before compiling it', () => {
    const spy = vi.spyOn(validator, 'compile');
    try {
      const started = performance.now();
      expect(refusal({ artifactSchema: wideOneOfSchema(530) })).toMatch(
        /criteria\.artifactSchema has 530 oneOf branches; at most 512/,
      );
      expect(performance.now() - started).toBeLessThan(100);
      const nestedOneOfs = {
        oneOf: [
          { oneOf: wideOneOfSchema(300).oneOf },
          { type: 'object', properties: { a: { oneOf: wideOneOfSchema(300).oneOf } } },
        ],
      };
      expect(refusal({ artifactSchema: nestedOneOfs })).toMatch(/has 602 oneOf branches/);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
    // Flat combinators compile flat: a 1,000-branch anyOf is fine.
    const anyOf = { anyOf: wideOneOfSchema(1000).oneOf };
    expect(
      readCriteria({ artifactSchema: anyOf }, new GuardedValidator({ compileBudgetMs: 60_000 })).artifactSchema,
    ).toBe(anyOf);
  }, 30_000);

  it('accepts legal but costly schemas within the bounds (a 512-branch oneOf, a 7,000-instruction pattern): their cost is bounded when artifacts are checked', () => {
    // Their compiles (~0.5 s and ~0.2 s quiet) can pass the 1 s budget on a loaded box: this test is
    // about what readCriteria refuses on its own account, so the budget is roomy here.
    const roomy = new GuardedValidator({ compileBudgetMs: 60_000 });
    expect(readCriteria({ artifactSchema: wideOneOfSchema(512) }, roomy).artifactSchema).toBeDefined();
    expect(
      readCriteria({ artifactSchema: { type: 'string', pattern: COSTLY_PATTERN } }, roomy).artifactSchema,
    ).toBeDefined();
  }, 30_000);
});

describe('readCriteria with skipValidation (the acceptance-skips-criteria-validation fault)', () => {
  it('takes hostile and malformed criteria as they come, never compiling the schema', () => {
    const v = new GuardedValidator();
    const spy = vi.spyOn(v, 'compile');
    const big = { type: 'string', enum: ['x'.repeat(200_000)] };
    const read = readCriteria(
      {
        evaluator: 'robot',
        maxRejections: -1.7,
        acceptanceTimeoutSeconds: 1e12,
        artifactSchema: big,
        requiredArtifacts: ['', 3],
        extra: true,
      },
      v,
      { skipValidation: true },
    );
    expect(read).toEqual({
      ...DEFAULTS,
      maxRejections: -1,
      acceptanceTimeoutSeconds: 1e12,
      artifactSchema: big,
      requiredArtifacts: [''],
    });
    expect(readCriteria({ artifactSchema: nested(40) }, v, { skipValidation: true }).artifactSchema).toEqual(
      nested(40),
    );
    expect(
      readCriteria({ artifactSchema: { $ref: 'https://example.com/s.json' } }, v, { skipValidation: true })
        .artifactSchema,
    ).toBeDefined();
    expect(readCriteria('junk', v, { skipValidation: true })).toEqual(DEFAULTS);
    expect(readCriteria({ maxRejections: '3', evaluator: 'agent' }, v, { skipValidation: true })).toEqual({
      ...DEFAULTS,
      evaluator: 'agent',
    });
    expect(spy).not.toHaveBeenCalled();
  });
});
