// readCriteria's artifactSchema, guarded like a hitl response_schema (size, subschema depth, compile
// budget, RE2-only patterns) plus raw JSON depth and local-only $ref; and none of it with skipValidation.
import { describe, expect, it, vi } from 'vitest';
import { MAX_SCHEMA_JSON_DEPTH, readCriteria } from '../rig/agent/acceptanceCriteria.ts';
import { GuardedValidator } from '../rig/protocol/guardedValidator.ts';
import { COMPILE_BUDGET_MS, MAX_RESPONSE_SCHEMA_BYTES } from '../rig/protocol/hitlPrompt.ts';
import { DEFAULT_CRITERIA, refusal, validator } from './support/criteriaRefusal.ts';
import { COSTLY_PATTERN, wideOneOfSchema } from './support/hostileSchemas.ts';
import { cpuTimed } from './support/cpuTimed.ts';

function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'object' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { n: schema } };
  return schema;
}

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

  it(
    'refuses subschemas nested deeper than 32, ' + 'and pathological raw JSON nesting without overflowing the stack',
    () => {
      expect(readCriteria({ artifactSchema: nested(31) }, validator).artifactSchema).toBeDefined();
      expect(refusal({ artifactSchema: nested(32) })).toMatch(
        /criteria\.artifactSchema: artifactSchema nests subschemas deeper than 32 levels/,
      );
      expect(refusal({ artifactSchema: nested(40) })).toMatch(/deeper than 32/);
      const deepConst = JSON.parse(`{"const":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
      expect(refusal({ artifactSchema: deepConst })).toMatch(
        new RegExp(`nests JSON deeper than ${MAX_SCHEMA_JSON_DEPTH} levels`),
      );
    },
  );

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

  it(
    'never fetches a remote meta-schema, ' + "and one client's $id cannot poison another's schema or the meta-schema",
    () => {
      const v = new GuardedValidator();
      expect(refusal({ artifactSchema: { $schema: 'https://evil.example/meta', type: 'object' } }, v)).toMatch(
        /no schema with key or ref "https:\/\/evil\.example\/meta"/,
      );
      const claim = (type: string) => ({
        type: 'object',
        properties: { a: { $id: 'https://shared.example/a', type } },
      });
      const asString = readCriteria({ artifactSchema: claim('string') }, v).artifactSchema!;
      const asNumber = readCriteria({ artifactSchema: claim('number') }, v).artifactSchema!;
      expect(v.compile(asString).validate({ a: 1 })).toHaveLength(1);
      expect(v.compile(asNumber).validate({ a: 1 })).toEqual([]);
      readCriteria({ artifactSchema: { $id: 'https://json-schema.org/draft/2020-12/schema', type: 'string' } }, v);
      expect(refusal({ artifactSchema: { type: 'no-such-type' } }, v)).toMatch(/not a usable JSON Schema/);
    },
  );

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
    const { value, ms } = cpuTimed(() => refusal({ artifactSchema: hostile }, new GuardedValidator()));
    expect(value).toMatch(new RegExp(`compiling artifactSchema took longer than ${COMPILE_BUDGET_MS} ms`));
    // The watchdog cuts the compile at the budget (wall time, so CPU is within it); a fresh Ajv
    // (meta-schema compiled) follows.
    expect(ms).toBeLessThan(COMPILE_BUDGET_MS * 5);
  }, 30_000);

  it('refuses a 530-branch oneOf (and oneOfs summing past the bound) before compiling it', () => {
    const spy = vi.spyOn(validator, 'compile');
    try {
      const { value, ms } = cpuTimed(() => refusal({ artifactSchema: wideOneOfSchema(530) }));
      expect(value).toMatch(/criteria\.artifactSchema has 530 oneOf branches; at most 512/);
      expect(ms).toBeLessThan(100);
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

  it(
    'accepts legal but costly schemas within the bounds (a 512-branch oneOf, ' +
      'a 7,000-instruction pattern): their cost is bounded when artifacts are checked',
    () => {
      // Their compiles take a good part of the 1 s budget on a quiet box and can pass it on a loaded
      // one (docs/testing.md, "What the tests were written against"): this test is about what
      // readCriteria refuses on its own account, so the budget is roomy here.
      const roomy = new GuardedValidator({ compileBudgetMs: 60_000 });
      expect(readCriteria({ artifactSchema: wideOneOfSchema(512) }, roomy).artifactSchema).toBeDefined();
      expect(
        readCriteria({ artifactSchema: { type: 'string', pattern: COSTLY_PATTERN } }, roomy).artifactSchema,
      ).toBeDefined();
    },
    30_000,
  );
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
      ...DEFAULT_CRITERIA,
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
    expect(readCriteria('junk', v, { skipValidation: true })).toEqual(DEFAULT_CRITERIA);
    expect(readCriteria({ maxRejections: '3', evaluator: 'agent' }, v, { skipValidation: true })).toEqual({
      ...DEFAULT_CRITERIA,
      evaluator: 'agent',
    });
    expect(spy).not.toHaveBeenCalled();
  });
});
