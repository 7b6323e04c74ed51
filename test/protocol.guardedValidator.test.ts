// The guarded validator's bounds hold on their own: watchdog budget for compile and validate,
// subschema and payload depth without recursion, and the content-keyed cache.
import { describe, expect, it, vi } from 'vitest';
import { GuardedValidator, SchemaRejectedError } from '../rig/protocol/guardedValidator.ts';
import { nestingDepth, schemaDepth } from '../rig/protocol/jsonNesting.ts';
import { promptEnvelopeSchema } from '../rig/protocol/hitlPrompt.ts';

describe('nesting measures', () => {
  it('count containers and subschemas, and stop past the limit', () => {
    expect(nestingDepth(1)).toBe(0);
    expect(nestingDepth({})).toBe(1);
    expect(nestingDepth({ a: [[]] })).toBe(3);
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(nestingDepth(deep, 32)).toBe(33);
    expect(schemaDepth({ type: 'object' })).toBe(1);
    expect(schemaDepth({ type: 'object', properties: { a: { items: { type: 'string' } } } })).toBe(3);
    expect(schemaDepth({ anyOf: [{ not: { type: 'null' } }], $defs: { x: {} } })).toBe(3);
    // `properties` named like keywords are names, not subschemas.
    expect(schemaDepth({ properties: { items: { enum: [{ not: 1 }] } } })).toBe(2);
  });
});

describe('GuardedValidator', () => {
  it(
    'validates the published envelope schema (format: date-time) ' +
      'without the watchdog, which a busy machine can time out',
    () => {
      const v = new GuardedValidator();
      const watched = vi.spyOn(
        GuardedValidator.prototype as unknown as { withinBudget: () => unknown },
        'withinBudget',
      );
      try {
        const envelope = v.compile(promptEnvelopeSchema);
        watched.mockClear();
        expect(
          envelope.validate({
            prompt_id: 'f7d4b1c0-9b25-4e8c-a4ce-3d6a51e8a772',
            prompt: 'ok?',
            response_schema: { type: 'object' },
            deadline: 'soon',
          }),
        ).toEqual([{ path: '/deadline', keyword: 'format', message: 'must match format "date-time"' }]);
        expect(watched).not.toHaveBeenCalled();
        // A format whose check is not known to be linear still runs under the watchdog.
        v.compile({ type: 'object', properties: { e: { type: 'string', format: 'email' } } }).validate({ e: 'a@b.c' });
        expect(watched).toHaveBeenCalled();
      } finally {
        watched.mockRestore();
      }
    },
  );

  it('caches compiled validators by schema content', () => {
    const v = new GuardedValidator();
    const a = v.compile({ type: 'object', required: ['x'] });
    const b = v.compile({ type: 'object', required: ['x'] });
    expect(a).toBe(b);
    expect(v.cachedSchemas).toBe(1);
    expect(a.validate({})).toEqual([{ path: '/x', keyword: 'required', message: "must have required property 'x'" }]);
  });

  it('interrupts a compile that overruns the budget and stays usable', () => {
    const v = new GuardedValidator({ compileBudgetMs: 5 });
    const properties = Object.fromEntries(
      Array.from({ length: 3000 }, (_, i) => [`p${i}`, { type: 'string', minLength: 1, maxLength: 9 }]),
    );
    expect(() => v.compile({ type: 'object', properties })).toThrow(/compiling response_schema took longer than 5 ms/);
    // Interrupted mid-compile, the validator starts a fresh Ajv and keeps working.
    let usable = false;
    for (let i = 0; i < 50 && !usable; i++) {
      try {
        usable = v.compile({ type: 'object', required: [`r${i}`] }).validate({ [`r${i}`]: 1 }).length === 0;
      } catch {
        // The first compiles of a fresh Ajv may themselves overrun 5 ms on a busy machine.
      }
    }
    expect(usable).toBe(true);
    const roomy = new GuardedValidator({ compileBudgetMs: 60_000 });
    expect(roomy.compile({ type: 'object', properties }).validate({ p1: 'ok' })).toEqual([]);
  });

  it('interrupts a validation that overruns the budget with a timeout entry', () => {
    const v = new GuardedValidator({ budgetMs: 20 });
    const schema = { type: 'object', properties: { xs: { type: 'array', uniqueItems: true } } };
    // uniqueItems over objects is quadratic: 20k distinct objects is ~2e8 deep comparisons.
    const xs = Array.from({ length: 20_000 }, (_, i) => ({ i }));
    expect(v.compile(schema).validate({ xs })).toEqual([
      { path: '', keyword: 'timeout', message: 'validation took longer than 20 ms' },
    ]);
  });

  it('refuses schemas deeper than the bound and payloads deeper than the bound', () => {
    const v = new GuardedValidator();
    let schema: Record<string, unknown> = { type: 'object' };
    for (let i = 0; i < 32; i++) schema = { type: 'object', properties: { n: schema } };
    expect(() => v.compile(schema)).toThrow(SchemaRejectedError);
    const open = v.compile({ type: 'object' });
    let payload: unknown = {};
    for (let i = 1; i < 33; i++) payload = { n: payload };
    expect(open.validate(payload)[0].keyword).toBe('maxDepth');
    expect(new GuardedValidator({ maxDepth: Infinity }).compile({ type: 'object' }).validate(payload)).toEqual([]);
  });

  it('rejects what is not a usable draft 2020-12 schema, and unresolvable refs', () => {
    const v = new GuardedValidator();
    expect(() => v.compile({ type: 'no-such-type' })).toThrow(/not a usable JSON Schema/);
    expect(() => v.compile({ $ref: 'https://example.com/remote.json' })).toThrow(/not a usable JSON Schema/);
    expect(() => v.compile([] as unknown as object)).toThrow(/must be a JSON object/);
  });

  it('reports JSON Pointer paths, escaping ~ and /', () => {
    const v = new GuardedValidator();
    const c = v.compile({
      type: 'object',
      additionalProperties: false,
      properties: { 'a/b': { type: 'object', required: ['c~d'] } },
    });
    expect(c.validate({ 'a/b': {}, z: 1 })).toEqual(
      expect.arrayContaining([
        { path: '/z', keyword: 'additionalProperties', message: 'must NOT have additional properties' },
        { path: '/a~1b/c~0d', keyword: 'required', message: "must have required property 'c~d'" },
      ]),
    );
  });
});

describe('recursive schemas', () => {
  it('resolves $ref "#" in a schema without $id (a tree)', () => {
    const tree = new GuardedValidator().compile({
      type: 'object',
      properties: { child: { $ref: '#' } },
      additionalProperties: false,
    });
    expect(tree.validate({ child: { child: {} } })).toEqual([]);
    expect(tree.validate({ child: { other: 1 } })[0]).toMatchObject({
      path: '/child/other',
      keyword: 'additionalProperties',
    });
  });
});
