// Hostile response_schemas an agent the rig does not control may emit, as the issue-9 attacks
// used them. Each stays inside the spec's S-2 limits (≤ 64 KiB serialized, subschemas ≤ 32 deep), so
// only the rig's own work bounds stand between them and a hung run.

/**
 * 11.6 KB: a oneOf of 529 `{required: ["pN"]}` branches and a catch-all. Every branch's minimal
 * instance also matches the catch-all, so a synthesizer that checks each candidate against every
 * other branch does ~560,000 branch checks, and each recompiles once a 512-entry cache thrashes.
 */
export function wideOneOfSchema(branches = 530): Record<string, unknown> {
  const oneOf: unknown[] = Array.from({ length: branches - 1 }, (_, i) => ({ required: [`p${i}`] }));
  oneOf.push({ type: 'object' });
  return { type: 'object', oneOf };
}

/** `pattern` that RE2 compiles to ~7,000 instructions: costly per character in re2js (docs/benchmarks.md). */
export const COSTLY_PATTERN = '(a|aa){0,1000}$';

/** A schema whose one string must match COSTLY_PATTERN; `example` becomes the synthesized value. */
export function costlyPatternSchema(example?: string): Record<string, unknown> {
  const s: Record<string, unknown> = { type: 'string', pattern: COSTLY_PATTERN };
  if (example !== undefined) s.examples = [example];
  return { type: 'object', additionalProperties: false, required: ['s'], properties: { s } };
}
