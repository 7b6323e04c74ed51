// The answer synthesizer: for the reference agent's default schema and a spread of others, the valid
// payload validates and each invalid one fails in the way it claims (checked here independently
// with a fresh GuardedValidator); what it cannot synthesize it refuses with a reason, quickly.
import { describe, expect, it } from 'vitest';
import { DEFAULT_RESPONSE_SCHEMA } from '../rig/agent/script.ts';
import { GuardedValidator } from '../rig/protocol/guardedValidator.ts';
import { AnswerSynthesizer, UNKNOWN_PROPERTY, type InvalidKind } from '../rig/client/answerSynthesizer.ts';

const synthesizer = new AnswerSynthesizer();
const referee = new GuardedValidator();

/** Synthesizes, then checks every payload with an independent validator. */
function verified(schema: Record<string, unknown>) {
  const synthesis = synthesizer.synthesize(schema);
  if (!synthesis.ok) throw new Error(synthesis.reason);
  const compiled = referee.compile(schema);
  const { valid, invalid } = synthesis.answers;
  expect(compiled.validate(valid)).toEqual([]);
  for (const bad of invalid) {
    const errors = compiled.validate(bad.payload);
    expect(errors.length, `${bad.kind} must fail`).toBeGreaterThan(0);
    expect(errors).toEqual(bad.expectedErrors);
  }
  return synthesis.answers;
}

const ALL: InvalidKind[] = ['wrong-type', 'missing-required', 'unknown-property'];
const NO_UNKNOWN: InvalidKind[] = ['wrong-type', 'missing-required'];

describe('the reference agent default schema', () => {
  it('gives a minimal valid payload and all three invalid kinds', () => {
    const answers = verified(DEFAULT_RESPONSE_SCHEMA);
    expect(answers.valid).toEqual({ approved: false });
    expect(answers.invalid.map((i) => [i.kind, i.path, i.payload])).toEqual([
      ['wrong-type', '/approved', { approved: 'a2a-rig-wrong-type' }],
      ['missing-required', '/approved', {}],
      ['unknown-property', `/${UNKNOWN_PROPERTY}`, { approved: false, [UNKNOWN_PROPERTY]: true }],
    ]);
    expect(answers.notApplicable).toEqual([]);
  });

  it('is deterministic', () => {
    expect(synthesizer.synthesize(DEFAULT_RESPONSE_SCHEMA)).toEqual(synthesizer.synthesize(DEFAULT_RESPONSE_SCHEMA));
  });
});

describe.each<[string, Record<string, unknown>, unknown, InvalidKind[]]>([
  [
    'scalars with bounds, enum, const and formats',
    {
      type: 'object',
      additionalProperties: false,
      required: ['n', 's', 'e', 'c', 'u', 'd', 'x'],
      properties: {
        n: { type: 'integer', minimum: 3, maximum: 9 },
        s: { type: 'string', minLength: 5, maxLength: 6 },
        e: { enum: ['x', 'y'] },
        c: { const: 42 },
        u: { type: 'string', format: 'uuid' },
        d: { type: 'string', format: 'date-time' },
        x: { type: 'number', exclusiveMinimum: 5, exclusiveMaximum: 5.5 },
      },
    },
    { n: 3, s: 'aaaaa', e: 'x', c: 42, u: '00000000-0000-4000-8000-000000000000', d: '2020-01-01T00:00:00Z', x: 5.25 },
    ALL,
  ],
  [
    'multipleOf with a lower bound',
    { type: 'object', required: ['i'], properties: { i: { type: 'integer', multipleOf: 7, minimum: 1 } } },
    { i: 7 },
    NO_UNKNOWN,
  ],
  [
    'a fractional bound on an integer',
    { type: 'object', required: ['i'], properties: { i: { type: 'integer', minimum: 0.5 } } },
    { i: 1 },
    NO_UNKNOWN,
  ],
  [
    'nested closed objects',
    {
      type: 'object',
      additionalProperties: false,
      required: ['a'],
      properties: {
        a: {
          type: 'object',
          additionalProperties: false,
          required: ['b'],
          properties: { b: { type: 'string', minLength: 3 } },
        },
      },
    },
    { a: { b: 'aaa' } },
    ALL,
  ],
  [
    'arrays: minItems, prefixItems and contains',
    {
      type: 'object',
      required: ['list', 'pair', 'has'],
      properties: {
        list: { type: 'array', minItems: 2, items: { type: 'boolean' } },
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false, minItems: 2 },
        has: { type: 'array', contains: { const: 'x' } },
      },
    },
    { list: [false, false], pair: ['', 0], has: ['x'] },
    NO_UNKNOWN,
  ],
  [
    '$ref into $defs',
    {
      type: 'object',
      required: ['r'],
      $defs: { pos: { type: 'integer', minimum: 1 } },
      properties: { r: { $ref: '#/$defs/pos' } },
    },
    { r: 1 },
    NO_UNKNOWN,
  ],
  [
    'a recursive $ref that an optional branch ends',
    {
      type: 'object',
      required: ['node'],
      $defs: {
        node: {
          type: 'object',
          required: ['next'],
          properties: { next: { anyOf: [{ type: 'null' }, { $ref: '#/$defs/node' }] } },
        },
      },
      properties: { node: { $ref: '#/$defs/node' } },
    },
    { node: { next: null } },
    NO_UNKNOWN,
  ],
  [
    'anyOf takes the first branch that fits',
    {
      type: 'object',
      required: ['x'],
      properties: { x: { anyOf: [{ type: 'string', minLength: 2 }, { type: 'null' }] } },
    },
    { x: 'aa' },
    NO_UNKNOWN,
  ],
  [
    'oneOf with overlapping branches finds an exclusive instance',
    { type: 'object', required: ['x'], properties: { x: { oneOf: [{ type: 'integer' }, { type: 'number' }] } } },
    { x: 0.5 },
    NO_UNKNOWN,
  ],
  [
    'allOf merges its branches',
    {
      type: 'object',
      required: ['x'],
      properties: {
        x: {
          allOf: [
            { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
            { required: ['b'], properties: { b: { type: 'integer' } } },
          ],
        },
      },
    },
    { x: { a: '', b: 0 } },
    NO_UNKNOWN,
  ],
  [
    'type lists take the first type',
    { type: 'object', required: ['t'], properties: { t: { type: ['string', 'null'] } } },
    { t: '' },
    NO_UNKNOWN,
  ],
  [
    'a pattern with an example uses the example',
    {
      type: 'object',
      required: ['p'],
      properties: { p: { type: 'string', pattern: '^[a-z]{3}-\\d{2}$', examples: ['abc-12'] } },
    },
    { p: 'abc-12' },
    NO_UNKNOWN,
  ],
  [
    'dependentRequired pulls in its dependants',
    {
      type: 'object',
      required: ['a'],
      dependentRequired: { a: ['b'] },
      properties: { a: { type: 'string' }, b: { type: 'boolean' } },
    },
    { a: '', b: false },
    NO_UNKNOWN,
  ],
  [
    'minProperties fills optional properties first',
    { type: 'object', minProperties: 1, additionalProperties: false, properties: { opt: { type: 'boolean' } } },
    { opt: false },
    ['wrong-type', 'unknown-property'],
  ],
  ['an open object with no properties', { type: 'object' }, {}, []],
])('%s', (_name, schema, expectedValid, kinds) => {
  it('valid validates, each invalid fails, and the kinds are as expected', () => {
    const answers = verified(schema);
    expect(answers.valid).toEqual(expectedValid);
    expect(answers.invalid.map((i) => i.kind)).toEqual(kinds);
    expect(answers.notApplicable.map((n) => n.kind)).toEqual(ALL.filter((k) => !kinds.includes(k)));
  });
});

describe('what it cannot synthesize, it refuses with a reason', () => {
  it.each<[string, unknown, RegExp]>([
    [
      'a pattern-constrained string without example',
      { type: 'object', required: ['p'], properties: { p: { type: 'string', pattern: '^x+$' } } },
      /property p: strings constrained by "pattern" are not generated/,
    ],
    [
      'a huge minItems',
      { type: 'object', required: ['a'], properties: { a: { type: 'array', minItems: 100_000_000 } } },
      /minItems 100000000 is over the synthesizer's 1024/,
    ],
    [
      'contradictory bounds',
      { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 5, maximum: 1 } } },
      /no integer found within the bounds/,
    ],
    ['a false subschema', { type: 'object', required: ['z'], properties: { z: false } }, /admits nothing/],
    [
      'a reference outside the document',
      { type: 'object', required: ['r'], properties: { r: { $ref: 'https://example.com/s.json' } } },
      /cannot synthesize/,
    ],
    [
      'a required chain that never ends',
      {
        type: 'object',
        required: ['n'],
        $defs: { n: { type: 'object', required: ['n'], properties: { n: { $ref: '#/$defs/n' } } } },
        properties: { n: { $ref: '#/$defs/n' } },
      },
      /nest deeper than 32 levels/,
    ],
    [
      'a schema that is not usable',
      { type: 'object', properties: { s: { type: 'string', pattern: '(?<=a)b' } } },
      /not a usable JSON Schema/,
    ],
    [
      'uniqueItems over equal minimal items',
      {
        type: 'object',
        required: ['u'],
        properties: { u: { type: 'array', minItems: 2, uniqueItems: true, items: { type: 'string' } } },
      },
      /uniqueItems/,
    ],
    ['not an object schema', { type: 'array' }, /does not describe an object/],
  ])('%s', (_name, schema, reason) => {
    const started = performance.now();
    const synthesis = synthesizer.synthesize(schema);
    expect(performance.now() - started).toBeLessThan(500);
    expect(synthesis.ok).toBe(false);
    expect(!synthesis.ok && synthesis.reason).toMatch(reason);
  });
});
