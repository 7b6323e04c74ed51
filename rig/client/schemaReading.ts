// What minimalInstance.ts reads of a JSON Schema before it builds anything: a `$ref` within the
// document resolved, the schemas an allOf joins merged into one, and the types a schema allows.

export type Schema = Record<string, unknown>;

export const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Resolves `#` and `#/json/pointer` within the root document; other references are out of scope. */
export function resolveRef(ref: string, root: unknown): unknown {
  if (!ref.startsWith('#')) return undefined;
  const pointer = decodeURIComponent(ref.slice(1));
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The types both `type` keywords allow (an integer is a number too). */
function typeIntersection(prior: unknown, value: unknown): unknown {
  const a = Array.isArray(prior) ? prior : [prior];
  const b = Array.isArray(value) ? value : [value];
  const both = new Set(
    a.flatMap((t) =>
      b.includes(t)
        ? [t]
        : (t === 'integer' && b.includes('number')) || (t === 'number' && b.includes('integer'))
          ? ['integer']
          : [],
    ),
  );
  return both.size === 1 ? [...both][0] : [...both];
}

function mergeProperties(prior: unknown, value: unknown): unknown {
  if (!isObject(prior) || !isObject(value)) return prior;
  const props: Schema = { ...prior };
  for (const [name, sub] of Object.entries(value)) props[name] = name in props ? { allOf: [props[name], sub] } : sub;
  return props;
}

const larger = (prior: unknown, value: unknown) => Math.max(prior as number, value as number);
const smaller = (prior: unknown, value: unknown) => Math.min(prior as number, value as number);

/** How a keyword both schemas set is joined; a keyword not listed keeps its first value. */
const MERGERS: Record<string, (prior: unknown, value: unknown) => unknown> = {
  properties: mergeProperties,
  required: (prior, value) =>
    Array.isArray(prior) && Array.isArray(value) ? [...new Set([...prior, ...value])] : prior,
  minimum: larger,
  exclusiveMinimum: larger,
  minLength: larger,
  minItems: larger,
  minProperties: larger,
  maximum: smaller,
  exclusiveMaximum: smaller,
  maxLength: smaller,
  maxItems: smaller,
  maxProperties: smaller,
  additionalProperties: (prior, value) => (value === false ? false : prior),
  allOf: (prior, value) => (Array.isArray(prior) && Array.isArray(value) ? [...prior, ...value] : prior),
  type: typeIntersection,
};

/** Merges schemas that must all hold into one (good enough for generation; the validator decides). */
export function merge(schemas: Schema[]): Schema {
  const out: Schema = {};
  for (const s of schemas) {
    for (const [key, value] of Object.entries(s)) {
      const prior = out[key];
      if (prior === undefined) out[key] = value;
      else if (Object.hasOwn(MERGERS, key)) out[key] = MERGERS[key](prior, value);
    }
  }
  return out;
}

/** The types a schema allows: its `type`, else the one its keywords imply (none: null). */
export function typesOf(s: Schema): string[] {
  if (typeof s.type === 'string') return [s.type];
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === 'string');
  if (
    s.properties !== undefined ||
    s.required !== undefined ||
    s.additionalProperties !== undefined ||
    s.minProperties !== undefined
  )
    return ['object'];
  if (s.items !== undefined || s.prefixItems !== undefined || s.minItems !== undefined || s.contains !== undefined)
    return ['array'];
  if (s.minLength !== undefined || s.maxLength !== undefined || s.pattern !== undefined || s.format !== undefined)
    return ['string'];
  if (
    s.minimum !== undefined ||
    s.maximum !== undefined ||
    s.exclusiveMinimum !== undefined ||
    s.exclusiveMaximum !== undefined ||
    s.multipleOf !== undefined
  )
    return ['number'];
  return ['null'];
}
