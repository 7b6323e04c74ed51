// Decoding request bodies with Go's encoding/json rules, because clients see its consequences:
// unknown fields are ignored, null leaves a field alone, keys match case-insensitively, integer
// fields reject fractions, and type mismatches are 400s with Go's wording.
import { ApiError, ErrBadRequestBody } from './apiError.ts';

export type GoKind = 'string' | 'bool' | 'float32' | 'int64' | 'int';

const FLOAT32_MAX = 3.4028234663852886e38;

function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'boolean') return 'bool';
  return typeof value; // string, number
}

function fits(kind: GoKind, value: unknown): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'bool':
      return typeof value === 'boolean';
    case 'float32':
      return typeof value === 'number' && Math.abs(value) <= FLOAT32_MAX;
    case 'int64':
    case 'int':
      return typeof value === 'number' && Number.isSafeInteger(value);
  }
}

/** The body as JSON, or Go's 400 ("EOF" for an empty body). */
export function parseBody(text: string): unknown {
  if (text.trim() === '') throw ErrBadRequestBody.withDetail('EOF');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw ErrBadRequestBody.withDetail((err as Error).message);
  }
}

function mismatch(value: unknown, where: string, kind: string): ApiError {
  const shown = typeof value === 'number' ? `number ${value}` : jsonKind(value);
  return ErrBadRequestBody.withDetail(`json: cannot unmarshal ${shown} into ${where} of type ${kind}`);
}

/**
 * Copies the fields of `value` that `fields` names into `target`, checking kinds first so a bad
 * body changes nothing. `goType` names the target in errors (e.g. "toxiproxy.Proxy"), `structPath`
 * prefixes field names ("Proxy" gives "Proxy.enabled").
 */
export function decodeStruct<T extends Record<string, unknown>>(
  value: unknown,
  fields: Readonly<Record<string, GoKind>>,
  goType: string,
  structPath: string,
  target: T,
): T {
  if (value === null) return target;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw ErrBadRequestBody.withDetail(`json: cannot unmarshal ${jsonKind(value)} into Go value of type ${goType}`);
  }
  const names = Object.keys(fields);
  const assignments: [string, unknown][] = [];
  for (const [key, fieldValue] of Object.entries(value as Record<string, unknown>)) {
    const field = names.find((n) => n === key) ?? names.find((n) => n.toLowerCase() === key.toLowerCase());
    if (field === undefined || fieldValue === null) continue;
    const kind = fields[field]!;
    if (!fits(kind, fieldValue)) throw mismatch(fieldValue, `Go struct field ${structPath}.${field}`, kind);
    assignments.push([field, kind === 'float32' ? Math.fround(fieldValue as number) : fieldValue]);
  }
  for (const [field, fieldValue] of assignments) (target as Record<string, unknown>)[field] = fieldValue;
  return target;
}

/** Go's float32 JSON form: the shortest decimal that reads back as the same float32 (0.3, not 0.30000001192092896). */
export function float32Json(value: number): number {
  for (let digits = 1; digits <= 9; digits++) {
    const shortest = Number(value.toPrecision(digits));
    if (Math.fround(shortest) === value) return shortest;
  }
  return value;
}
