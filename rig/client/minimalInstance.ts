// A deterministic, minimal instance of a JSON Schema (draft 2020-12, the subset agents use for
// answers): type (and type lists), properties/required/additionalProperties/minProperties/
// dependentRequired, enum/const, minimum/maximum (exclusive too)/multipleOf, minLength/maxLength and
// common formats, items/prefixItems/contains/minItems, anyOf/oneOf (first branch that fits), allOf
// (merged), and $ref within the document. It never runs far: sizes, nesting and work are bounded,
// because the schema comes from an agent the rig does not trust. It may still produce an instance
// the schema rejects (if/then, not, uniqueItems, odd multipleOf...): callers verify with the
// GuardedValidator and treat a failure as "cannot synthesize".
import type { GuardedValidator } from '../protocol/guardedValidator.ts';
import { MAX_NESTING_DEPTH } from '../protocol/hitlPrompt.ts';
import { isObject, merge, resolveRef, typesOf, type Schema } from './schemaReading.ts';

export type Generated = { ok: true; value: unknown } | { ok: false; reason: string };

/** Largest minItems/minLength/minProperties/required count the generator will honour. */
export const MAX_GENERATED_SIZE = 1024;
/** Subschemas the generator may visit for one instance. */
export const MAX_GENERATED_NODES = 10_000;
/**
 * oneOf branches the generator will weigh: each candidate is checked against every other branch
 * (compiled alone), so the work is quadratic in the branches and each check may compile. A hostile
 * 530-branch oneOf once hung the rig for minutes; over this, the schema is refused with a reason.
 * Kept under the validator's cache generation (256), so the branch checks never recompile in a loop.
 */
export const MAX_ONEOF_BRANCHES = 128;

/** A limit of the synthesizer's own was reached: the schema is beyond what it builds answers for. */
export class SynthesisLimit extends Error {}

interface Context {
  root: unknown;
  depth: number;
  nodes: { count: number };
  validator: GuardedValidator;
  /**
   * 0 for the minimal instance; 1 for the runner-up used when a oneOf branch's minimal instance also
   * matches a sibling branch (a fraction instead of 0, 'a' instead of '', true instead of false).
   */
  variant: 0 | 1;
  /** performance.now() past which the work stops (synchronous work: nothing else can stop it). */
  deadline: number;
  budgetMs: number;
}

function checkDeadline(ctx: Context): void {
  if (performance.now() > ctx.deadline)
    throw new SynthesisLimit(`synthesis took longer than its ${ctx.budgetMs} ms budget`);
}

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2020-01-01T00:00:00Z',
  date: '2020-01-01',
  time: '00:00:00Z',
  duration: 'P1D',
  email: 'a@example.com',
  'idn-email': 'a@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  uri: 'https://example.com/',
  'uri-reference': '/',
  iri: 'https://example.com/',
  'iri-reference': '/',
  'uri-template': 'https://example.com/{id}',
  uuid: '00000000-0000-4000-8000-000000000000',
  'json-pointer': '',
  'relative-json-pointer': '0',
  regex: '.*',
};

const fail = (reason: string): Generated => ({ ok: false, reason });
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The step a number must be a multiple of: the schema's multipleOf, else 1 for an integer. */
function stepOf(s: Schema, integer: boolean): number | undefined {
  return num(s.multipleOf) && (s.multipleOf as number) > 0 ? (s.multipleOf as number) : integer ? 1 : undefined;
}

interface NumberBounds {
  min: number | undefined;
  exMin: number | undefined;
  max: number | undefined;
  exMax: number | undefined;
}

function fitsBounds(v: number, b: NumberBounds, integer: boolean): boolean {
  return (
    (b.min === undefined || v >= b.min) &&
    (b.exMin === undefined || v > b.exMin) &&
    (b.max === undefined || v <= b.max) &&
    (b.exMax === undefined || v < b.exMax) &&
    (!integer || Number.isInteger(v))
  );
}

/** Numbers near the finite ends of [lower, upper], in the order they are tried. */
function candidatesNear(lower: number, upper: number, m: number | undefined, fractionFirst: boolean): number[] {
  const candidates: number[] = [];
  if (fractionFirst && Number.isFinite(lower)) candidates.push(lower + 0.5);
  if (Number.isFinite(lower)) {
    if (m !== undefined) candidates.push(Math.ceil(lower / m) * m, (Math.ceil(lower / m) + 1) * m);
    else candidates.push(lower, lower + 1, Number.isFinite(upper) ? (lower + upper) / 2 : lower + 0.5);
  }
  if (Number.isFinite(upper)) {
    if (m !== undefined) candidates.push(Math.floor(upper / m) * m, (Math.floor(upper / m) - 1) * m);
    else candidates.push(upper, upper - 1);
  }
  return candidates;
}

function numberFor(s: Schema, integer: boolean, variant: 0 | 1): Generated {
  const m = stepOf(s, integer);
  const bounds: NumberBounds = {
    min: num(s.minimum),
    exMin: num(s.exclusiveMinimum),
    max: num(s.maximum),
    exMax: num(s.exclusiveMaximum),
  };
  const fits = (v: number) => fitsBounds(v, bounds, integer);
  if (variant === 1 && !integer && fits(0.5)) return { ok: true, value: 0.5 };
  if (fits(0)) return { ok: true, value: 0 };
  const lower = Math.max(bounds.min ?? -Infinity, bounds.exMin ?? -Infinity);
  const upper = Math.min(bounds.max ?? Infinity, bounds.exMax ?? Infinity);
  const fractionFirst = variant === 1 && !integer && m === undefined;
  const value = candidatesNear(lower, upper, m, fractionFirst).find(fits);
  return value === undefined
    ? fail(`no ${integer ? 'integer' : 'number'} found within the bounds`)
    : { ok: true, value };
}

function stringFor(s: Schema, variant: 0 | 1): Generated {
  const minLength = num(s.minLength) ?? 0;
  const maxLength = num(s.maxLength) ?? Infinity;
  if (minLength > MAX_GENERATED_SIZE)
    return fail(`minLength ${minLength} is over the synthesizer's ${MAX_GENERATED_SIZE}`);
  if (s.pattern !== undefined) {
    const example = [...(Array.isArray(s.examples) ? s.examples : []), s.default].find((v) => typeof v === 'string');
    return example !== undefined
      ? { ok: true, value: example }
      : fail('strings constrained by "pattern" are not generated (and the schema gives no string example)');
  }
  if (typeof s.format === 'string' && FORMAT_SAMPLES[s.format] !== undefined) {
    const sample = FORMAT_SAMPLES[s.format];
    return sample.length >= minLength && sample.length <= maxLength
      ? { ok: true, value: sample }
      : fail(`format ${s.format} cannot meet the length bounds`);
  }
  const length = variant === 1 && minLength === 0 && maxLength >= 1 ? 1 : minLength;
  return { ok: true, value: 'a'.repeat(length) };
}

function arrayFor(s: Schema, ctx: Context): Generated {
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
  const minContains = s.contains === undefined ? 0 : (num(s.minContains) ?? 1);
  const length = Math.max(num(s.minItems) ?? 0, minContains);
  if (length > MAX_GENERATED_SIZE) return fail(`minItems ${length} is over the synthesizer's ${MAX_GENERATED_SIZE}`);
  const out: unknown[] = [];
  for (let i = 0; i < length; i++) {
    let item: unknown = i < prefix.length ? prefix[i] : (s.items ?? true);
    if (i < minContains && isObject(s.contains)) item = isObject(item) ? { allOf: [item, s.contains] } : s.contains;
    const g = generate(item, ctx);
    if (!g.ok) return fail(`item ${i}: ${g.reason}`);
    out.push(g.value);
  }
  if (s.uniqueItems === true && new Set(out.map((v) => JSON.stringify(v))).size < out.length) {
    return fail('uniqueItems with several minimal items that come out equal');
  }
  return { ok: true, value: out };
}

function objectFor(s: Schema, ctx: Context): Generated {
  const properties = isObject(s.properties) ? s.properties : {};
  const extraSchema = s.additionalProperties ?? true;
  const required = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : [];
  const dependent = isObject(s.dependentRequired) ? s.dependentRequired : {};
  const out: Record<string, unknown> = {};
  const add = (name: string): string | undefined => {
    if (Object.hasOwn(out, name)) return undefined;
    const g = generate(Object.hasOwn(properties, name) ? properties[name] : extraSchema, ctx);
    if (!g.ok) return `property ${name}: ${g.reason}`;
    out[name] = g.value;
    return undefined;
  };
  const wanted = [...required];
  for (let i = 0; i < wanted.length; i++) {
    if (wanted.length > MAX_GENERATED_SIZE) return fail(`more than ${MAX_GENERATED_SIZE} required properties`);
    const reason = add(wanted[i]);
    if (reason) return fail(reason);
    const deps = dependent[wanted[i]];
    if (Array.isArray(deps))
      wanted.push(...deps.filter((d): d is string => typeof d === 'string' && !wanted.includes(d)));
  }
  const minProperties = num(s.minProperties) ?? 0;
  if (minProperties > MAX_GENERATED_SIZE)
    return fail(`minProperties ${minProperties} is over the synthesizer's ${MAX_GENERATED_SIZE}`);
  for (const name of Object.keys(properties)) {
    if (Object.keys(out).length >= minProperties) break;
    add(name);
  }
  for (let i = 1; Object.keys(out).length < minProperties && extraSchema !== false && i <= minProperties; i++)
    add(`property${i}`);
  if (Object.keys(out).length < minProperties) return fail(`cannot reach minProperties ${minProperties}`);
  return { ok: true, value: out };
}

/** True when `value` provably matches `branch` on its own (no $ref, compiles); false when unknown. */
function matchesAlone(branch: unknown, value: unknown, validator: GuardedValidator): boolean {
  if (!isObject(branch) || JSON.stringify(branch).includes('"$ref"')) return false;
  try {
    return validator.compile(branch).validate(value).length === 0;
  } catch {
    return false;
  }
}

function tooWide(branches: number): SynthesisLimit {
  return new SynthesisLimit(
    `a oneOf has ${branches} branches, over the synthesizer's ${MAX_ONEOF_BRANCHES} ` +
      '(each candidate is checked against every other branch)',
  );
}

/**
 * Throws SynthesisLimit for a oneOf anywhere in `schema` wider than MAX_ONEOF_BRANCHES, before any
 * work: compiling such a schema can itself take the compile budget on a busy machine, and the
 * refusal should say what is wrong with the schema, not how long the machine took.
 */
export function refuseWideOneOf(schema: unknown): void {
  const stack: unknown[] = [schema];
  for (let visited = 0; stack.length > 0 && visited < 100_000; visited++) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (
      !Array.isArray(node) &&
      Array.isArray((node as Schema).oneOf) &&
      ((node as Schema).oneOf as unknown[]).length > MAX_ONEOF_BRANCHES
    ) {
      throw tooWide(((node as Schema).oneOf as unknown[]).length);
    }
    stack.push(...(Array.isArray(node) ? node : Object.values(node)));
  }
}

function branchFor(rest: Schema, branches: unknown[], exclusive: boolean, ctx: Context): Generated {
  if (exclusive && branches.length > MAX_ONEOF_BRANCHES) throw tooWide(branches.length);
  const reasons: string[] = [];
  for (const [i, branch] of branches.entries()) {
    const schema = isObject(branch) ? merge([rest, branch]) : branch;
    const overlaps = (value: unknown) =>
      branches.some((other, j) => {
        checkDeadline(ctx);
        return j !== i && matchesAlone(other, value, ctx.validator);
      });
    const g = generate(schema, ctx);
    if (!g.ok) {
      reasons.push(`branch ${i}: ${g.reason}`);
      continue;
    }
    if (!exclusive || !overlaps(g.value)) return g;
    const runnerUp = generate(schema, { ...ctx, variant: 1 });
    if (runnerUp.ok && !overlaps(runnerUp.value)) return runnerUp;
    reasons.push(`branch ${i}: its minimal instances also match another oneOf branch`);
  }
  return fail(`no ${exclusive ? 'oneOf' : 'anyOf'} branch fits (${reasons.join('; ')})`);
}

export function generate(schema: unknown, ctx: Context): Generated {
  if (schema === true) return { ok: true, value: null };
  if (schema === false) return fail('a subschema is `false` and admits nothing');
  if (!isObject(schema)) return fail('a subschema is not an object');
  if (++ctx.nodes.count > MAX_GENERATED_NODES) return fail(`more than ${MAX_GENERATED_NODES} subschemas to visit`);
  checkDeadline(ctx);
  if (ctx.depth >= MAX_NESTING_DEPTH)
    return fail(`instance would nest deeper than ${MAX_NESTING_DEPTH} levels (recursive schema?)`);
  const inner: Context = { ...ctx, depth: ctx.depth + 1 };
  if (typeof schema.$ref === 'string') return refFor(schema, schema.$ref, inner);
  return combinedFor(schema, ctx, inner);
}

/** A `$ref` schema: its target, with the keywords beside the `$ref` merged in. */
function refFor(schema: Schema, $ref: string, inner: Context): Generated {
  const { $ref: _, ...siblings } = schema;
  const target = resolveRef($ref, inner.root);
  if (target === undefined) return fail(`$ref ${$ref} does not point inside the schema document`);
  if (!isObject(target))
    return Object.keys(siblings).length === 0 ? generate(target, inner) : fail(`$ref ${$ref} is not an object schema`);
  return generate(merge([siblings, target]), inner);
}

/** A schema without `$ref`: allOf merged, then a oneOf or anyOf branch, const, enum, or its types. */
function combinedFor(schema: Schema, ctx: Context, inner: Context): Generated {
  const { allOf, anyOf, oneOf, ...rest } = schema;
  if (Array.isArray(allOf) && allOf.length > 0) {
    if (!allOf.every((s) => isObject(s) || s === true)) return fail('allOf holds a non-object subschema');
    const resolved = allOf.filter(isObject);
    return generate(merge([rest, ...resolved, ...(anyOf ? [{ anyOf }] : []), ...(oneOf ? [{ oneOf }] : [])]), inner);
  }
  if (Array.isArray(oneOf) && oneOf.length > 0) return branchFor(anyOf ? { ...rest, anyOf } : rest, oneOf, true, inner);
  if (Array.isArray(anyOf) && anyOf.length > 0) return branchFor(rest, anyOf, false, inner);
  if ('const' in rest) return { ok: true, value: rest.const };
  if (Array.isArray(rest.enum)) return rest.enum.length > 0 ? { ok: true, value: rest.enum[0] } : fail('enum is empty');
  return typedFor(rest, ctx, inner);
}

/** How each JSON type is generated; `inner` is the context one level down, for what nests. */
const TYPE_GENERATORS: Record<string, (s: Schema, ctx: Context, inner: Context) => Generated> = {
  null: () => ({ ok: true, value: null }),
  boolean: (_s, ctx) => ({ ok: true, value: ctx.variant === 1 }),
  integer: (s, ctx) => numberFor(s, true, ctx.variant),
  number: (s, ctx) => numberFor(s, false, ctx.variant),
  string: (s, ctx) => stringFor(s, ctx.variant),
  array: (s, _ctx, inner) => arrayFor(s, inner),
  object: (s, _ctx, inner) => objectFor(s, inner),
};

/** The first of the schema's types that can be generated; else every type's reason. */
function typedFor(rest: Schema, ctx: Context, inner: Context): Generated {
  const reasons: string[] = [];
  for (const type of typesOf(rest)) {
    const g = Object.hasOwn(TYPE_GENERATORS, type)
      ? TYPE_GENERATORS[type](rest, ctx, inner)
      : fail(`unknown type ${JSON.stringify(type)}`);
    if (g.ok) return g;
    reasons.push(g.reason);
  }
  return fail(reasons.join('; ') || 'no type to generate');
}

/**
 * The minimal instance of `schema` (the root of its own $ref document). Verify it before use.
 * Throws SynthesisLimit when the work would exceed the synthesizer's bounds (time, oneOf width).
 */
export function minimalInstance(
  schema: unknown,
  validator: GuardedValidator,
  deadline = Infinity,
  budgetMs = Infinity,
): Generated {
  return generate(schema, { root: schema, depth: 0, nodes: { count: 0 }, validator, variant: 0, deadline, budgetMs });
}
