// Nesting measures, and a JSON writer, that never recurse, so a 100,000-level document cannot
// overflow the stack.

/**
 * Container nesting of a JSON value: a scalar is 0, `{}` is 1, `{"a":[]}` is 2. Stops counting
 * once `limit` is exceeded (returns limit + 1), so the cost is bounded by the limit's frontier.
 */
export function nestingDepth(value: unknown, limit = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return limit + 1;
    for (const child of Object.values(node as object)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/**
 * Calls `visit` with every (key, value) entry of every object inside `root`, arrays included, without
 * recursion; stops as soon as `visit` returns true and says so. The walk schema guards share.
 */
export function someEntry(root: unknown, visit: (key: string, value: unknown) => boolean | void): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      if (visit(key, value) === true) return true;
      if (typeof value === 'object' && value !== null) stack.push(value);
    }
  }
  return false;
}

// Keywords of draft 2020-12 (and the older ones Ajv still accepts) whose values are subschemas,
// directly, as an array, or as a map of name to subschema.
const SCHEMA_VALUED = new Set([
  'not',
  'if',
  'then',
  'else',
  'contains',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'additionalItems',
  'items',
]);
const SCHEMA_ARRAYS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * How many subschemas deep a JSON Schema goes: `{"type":"object"}` is 1, a schema with one
 * property that is itself an object schema is 2. Stops past `limit` like `nestingDepth`.
 */
export function schemaDepth(schema: unknown, limit = Number.MAX_SAFE_INTEGER): number {
  if (typeof schema !== 'object' || schema === null) return 0;
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[schema, 1]];
  const push = (child: unknown, depth: number) => {
    if (typeof child === 'object' && child !== null) stack.push([child, depth]);
  };
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return limit + 1;
    if (Array.isArray(node)) continue;
    for (const [key, child] of Object.entries(node as object)) {
      if (SCHEMA_ARRAYS.has(key) && Array.isArray(child)) child.forEach((c) => push(c, depth + 1));
      else if (SCHEMA_VALUED.has(key)) push(child, depth + 1);
      else if (SCHEMA_MAPS.has(key) && typeof child === 'object' && child !== null) {
        Object.values(child).forEach((c) => push(c, depth + 1));
      }
    }
  }
  return deepest;
}

/**
 * Estimated heap bytes of a parsed JSON value, walked without recursion: 64 per object or array
 * plus 16 per member, two bytes a string character (plus 16), 16 per number and 8 per other
 * scalar. Rough on purpose; what matters is that it grows with the objects, not with the text, so
 * `[{},{},…]` (three bytes on the wire, a whole object in memory) weighs what it costs.
 */
export function jsonWeight(value: unknown): number {
  // Members are read in place (no Object.keys/values lists): every recorded reply is weighed.
  let weight = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') weight += 16 + 2 * node.length;
    else if (typeof node === 'number') weight += 16;
    else if (typeof node !== 'object' || node === null) weight += 8;
    else if (Array.isArray(node)) {
      weight += 64 + 16 * node.length;
      for (let i = 0; i < node.length; i++) stack.push(node[i]);
    } else {
      weight += 64;
      const members = node as Record<string, unknown>;
      for (const key in members) {
        if (!Object.hasOwn(members, key)) continue;
        weight += 32 + 2 * key.length;
        stack.push(members[key]);
      }
    }
  }
  return weight;
}

type TextItem = { text: string } | { value: unknown };

/**
 * The JSON text of a JSON value (from JSON.parse) of any depth: JSON.stringify's own text when it
 * can, else the same text written without recursion (JSON.stringify recurses, so a value nested
 * deep enough, as the deep-nesting scenarios send, overflows its stack).
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
  }
  const out: string[] = [];
  const stack: TextItem[] = [{ value }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ('text' in item) {
      out.push(item.text);
    } else if (Array.isArray(item.value)) {
      const list = item.value as unknown[];
      stack.push({ text: ']' });
      for (let i = list.length - 1; i >= 0; i--) {
        stack.push({ value: list[i] ?? null });
        if (i > 0) stack.push({ text: ',' });
      }
      out.push('[');
    } else if (typeof item.value === 'object' && item.value !== null) {
      const entries = Object.entries(item.value).filter(([, v]) => v !== undefined);
      stack.push({ text: '}' });
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push({ value: entries[i]![1] });
        stack.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(entries[i]![0])}:` });
      }
      out.push('{');
    } else {
      out.push(JSON.stringify(item.value) ?? 'null');
    }
  }
  return out.join('');
}
