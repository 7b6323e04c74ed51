// Reads and checks the acceptance extension's criteria (`{EXT}/criteria` on the creating message).
// The criteria are untrusted: a closed object, each field typed and bounded (caps in
// rig/protocol/acceptance.ts), and `artifactSchema` gets the guards a hitl-prompt/v1
// response_schema gets in this agent (S-2): at most MAX_RESPONSE_SCHEMA_BYTES serialized,
// subschemas at most MAX_NESTING_DEPTH deep, compiled by the GuardedValidator under its compile
// watchdog (COMPILE_BUDGET_MS) with RE2-only patterns. On top of those, because these schemas come
// from any client (a hitl schema comes from the agent's own script): raw JSON nesting is bounded
// before anything serializes or walks it recursively, and every `$ref` / `$dynamicRef` must be a
// local `#...` pointer (the validator never fetches, but a remote ref is refused here with a clear
// reason rather than as an unresolvable schema), and oneOf branches are bounded (MAX_ONEOF_BRANCHES).
// Anything wrong → ACCEPTANCE_CRITERIA_INVALID with a
// one-line reason naming the field; the agent then refuses the activating request (no task).
import { A2AError } from '../protocol/errorCodes.ts';
import {
  ACCEPTANCE_CRITERIA_INVALID,
  ACCEPTANCE_URI,
  DEFAULT_ACCEPTANCE_TIMEOUT_S,
  DEFAULT_MAX_REJECTIONS,
  EVALUATORS,
  MAX_ACCEPTANCE_TIMEOUT_S,
  MAX_ARTIFACT_NAME_CHARS,
  MAX_DESCRIPTION_CHARS,
  MAX_REJECTIONS_CAP,
  MAX_REQUIRED_ARTIFACTS,
  type Evaluator,
} from '../protocol/acceptance.ts';
import { MAX_NESTING_DEPTH, MAX_RESPONSE_SCHEMA_BYTES, serializedSchemaBytes } from '../protocol/hitlPrompt.ts';
import { SchemaRejectedError, type GuardedValidator } from '../protocol/guardedValidator.ts';
import { nestingDepth, someEntry } from '../protocol/jsonNesting.ts';
import { shown } from './decisionInput.ts';

export interface GateCriteria {
  description?: string;
  artifactSchema?: Record<string, unknown>;
  requiredArtifacts: string[];
  evaluator: Evaluator;
  acceptanceTimeoutSeconds: number;
  maxRejections: number;
}

/**
 * Raw JSON nesting allowed in an artifactSchema before it is serialized or compiled (both recurse).
 * Subschema depth (MAX_NESTING_DEPTH) is the real bound; a 32-deep schema is about 70 JSON levels,
 * so this only stops pathological nesting, e.g. inside `const` or `examples`.
 */
export const MAX_SCHEMA_JSON_DEPTH = 8 * MAX_NESTING_DEPTH;

/**
 * `oneOf` branches allowed in one artifactSchema, summed over every `oneOf` in it. Ajv compiles a
 * oneOf into a chain of nested blocks, and V8 compiles that function lazily on its first call, in a
 * time that grows faster than the branch count and that no watchdog can interrupt, and past ~2,000
 * branches the generated code overflows V8's parser; anyOf/allOf compile flat (docs/benchmarks.md,
 * "Figures behind bounds in the code"). The sum bounds the nesting even when oneOfs nest.
 */
export const MAX_ONEOF_BRANCHES = 512;

const FIELDS = new Set([
  'description',
  'artifactSchema',
  'requiredArtifacts',
  'evaluator',
  'acceptanceTimeoutSeconds',
  'maxRejections',
]);
const REF_KEYWORDS = new Set(['$ref', '$dynamicRef', '$recursiveRef']);

export function criteriaInvalid(reason: string): A2AError {
  return new A2AError(ACCEPTANCE_CRITERIA_INVALID, 'acceptance_criteria_invalid', {
    extension: ACCEPTANCE_URI,
    reason,
  });
}

function fail(reason: string): never {
  throw criteriaInvalid(reason);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function defaults(): GateCriteria {
  return {
    requiredArtifacts: [],
    evaluator: 'client',
    acceptanceTimeoutSeconds: DEFAULT_ACCEPTANCE_TIMEOUT_S,
    maxRejections: DEFAULT_MAX_REJECTIONS,
  };
}

/**
 * The gate's criteria from `metadata[CRITERIA_KEY]` (undefined → the finite defaults). Throws
 * ACCEPTANCE_CRITERIA_INVALID for anything malformed or hostile.
 *
 * `skipValidation` (the fault `acceptance-skips-criteria-validation`) checks nothing: a field of the
 * wrong type falls back to its default, numbers are truncated but not capped (a negative or huge
 * maxRejections / timeout goes through), unknown fields and evaluators are ignored, requiredArtifacts
 * keeps its strings unbounded, and artifactSchema is taken as it comes (any object, never sized,
 * depth-checked, $ref-checked or compiled here): whatever compiles it later does so unguarded.
 */
export function readCriteria(
  raw: unknown,
  validator: GuardedValidator,
  options: { skipValidation?: boolean } = {},
): GateCriteria {
  if (options.skipValidation) return coerce(raw);
  if (raw === undefined) return defaults();
  if (!isPlainObject(raw)) fail('criteria must be a JSON object');
  for (const key of Object.keys(raw)) {
    if (!FIELDS.has(key)) fail(`criteria has an unknown field ${shown(key)}`);
  }
  const criteria = defaults();
  const { description, artifactSchema, requiredArtifacts, evaluator, acceptanceTimeoutSeconds, maxRejections } = raw;
  if (description !== undefined) {
    if (typeof description !== 'string') fail('criteria.description must be a string');
    if (description.length > MAX_DESCRIPTION_CHARS)
      fail(`criteria.description has ${description.length} characters; at most ${MAX_DESCRIPTION_CHARS} are allowed`);
    criteria.description = description;
  }
  if (evaluator !== undefined) {
    if (typeof evaluator !== 'string' || !(EVALUATORS as readonly string[]).includes(evaluator)) {
      fail(`criteria.evaluator ${shown(evaluator)} is not one of ${EVALUATORS.join(', ')}`);
    }
    criteria.evaluator = evaluator as Evaluator;
  }
  if (acceptanceTimeoutSeconds !== undefined) {
    criteria.acceptanceTimeoutSeconds = integerIn(
      'criteria.acceptanceTimeoutSeconds',
      acceptanceTimeoutSeconds,
      1,
      MAX_ACCEPTANCE_TIMEOUT_S,
    );
  }
  if (maxRejections !== undefined)
    criteria.maxRejections = integerIn('criteria.maxRejections', maxRejections, 0, MAX_REJECTIONS_CAP);
  if (requiredArtifacts !== undefined) criteria.requiredArtifacts = names(requiredArtifacts);
  if (artifactSchema !== undefined) criteria.artifactSchema = guardedSchema(artifactSchema, validator);
  return criteria;
}

function integerIn(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) fail(`${field} must be an integer, not ${shown(value)}`);
  if (value < min || value > max) fail(`${field} is ${value}; it must be between ${min} and ${max}`);
  return value;
}

function names(value: unknown): string[] {
  if (!Array.isArray(value)) fail('criteria.requiredArtifacts must be an array of artifact names');
  if (value.length > MAX_REQUIRED_ARTIFACTS)
    fail(`criteria.requiredArtifacts has ${value.length} names; at most ${MAX_REQUIRED_ARTIFACTS} are allowed`);
  value.forEach((name, i) => {
    if (typeof name !== 'string' || name.length === 0)
      fail(`criteria.requiredArtifacts[${i}] must be a non-empty string`);
    if (name.length > MAX_ARTIFACT_NAME_CHARS)
      fail(
        `criteria.requiredArtifacts[${i}] has ${name.length} characters; ` +
          `at most ${MAX_ARTIFACT_NAME_CHARS} are allowed`,
      );
  });
  return [...value] as string[];
}

/** `oneOf` branches in the whole schema (conservative: a `oneOf` array anywhere counts). */
function oneOfBranches(schema: object): number {
  let branches = 0;
  someEntry(schema, (key, value) => {
    if (key === 'oneOf' && Array.isArray(value)) branches += value.length;
  });
  return branches;
}

/** The first `$ref`-like keyword whose value is not a local `#...` pointer, walked without recursion. */
function remoteRef(schema: object): string | undefined {
  let found: string | undefined;
  // Conservative: a `$ref` key anywhere (even inside `const`) counts; a schema has no need for one there.
  someEntry(schema, (key, value) => {
    if (REF_KEYWORDS.has(key) && (typeof value !== 'string' || !value.startsWith('#')))
      found = `${key} ${shown(value)}`;
    return found !== undefined;
  });
  return found;
}

function guardedSchema(schema: unknown, validator: GuardedValidator): Record<string, unknown> {
  if (!isPlainObject(schema)) fail('criteria.artifactSchema must be a JSON object (a JSON Schema)');
  if (nestingDepth(schema, MAX_SCHEMA_JSON_DEPTH) > MAX_SCHEMA_JSON_DEPTH) {
    fail(`criteria.artifactSchema nests JSON deeper than ${MAX_SCHEMA_JSON_DEPTH} levels`);
  }
  const bytes = serializedSchemaBytes(schema);
  if (bytes > MAX_RESPONSE_SCHEMA_BYTES) {
    fail(`criteria.artifactSchema is ${bytes} bytes serialized; at most ${MAX_RESPONSE_SCHEMA_BYTES} are allowed`);
  }
  const ref = remoteRef(schema);
  if (ref !== undefined)
    fail(
      `criteria.artifactSchema has ${ref}: only local "#..." references are allowed (remote schemas are never fetched)`,
    );
  const branches = oneOfBranches(schema);
  if (branches > MAX_ONEOF_BRANCHES) {
    fail(
      `criteria.artifactSchema has ${branches} oneOf branches; at most ${MAX_ONEOF_BRANCHES} are allowed ` +
        '(their compiled code costs superlinear, uninterruptible time)',
    );
  }
  try {
    // Compiling now refuses unusable or too costly schemas on the activating request, and warms the
    // validator's cache so the self-check does not compile (unless the cache rotated meanwhile).
    // The throwaway validation pays V8's lazy compile of the generated code now, on the request
    // that brought the schema, not on the first artifact checked (see artifactSelfCheck.ts).
    validator.compile(schema).validate(null);
  } catch (err) {
    if (err instanceof SchemaRejectedError)
      fail(oneLine(`criteria.artifactSchema: ${err.message.replace(/response_schema/g, 'artifactSchema')}`));
    throw err;
  }
  return schema;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 300 ? `${flat.slice(0, 297)}...` : flat;
}

/** The fault's reading: no checks, the wrong type falls back to the default. */
function coerce(raw: unknown): GateCriteria {
  const criteria = defaults();
  if (!isPlainObject(raw)) return criteria;
  const { description, artifactSchema, requiredArtifacts, evaluator, acceptanceTimeoutSeconds, maxRejections } = raw;
  if (typeof description === 'string') criteria.description = description;
  if (isPlainObject(artifactSchema)) criteria.artifactSchema = artifactSchema;
  if (Array.isArray(requiredArtifacts))
    criteria.requiredArtifacts = requiredArtifacts.filter((n): n is string => typeof n === 'string');
  if ((EVALUATORS as readonly unknown[]).includes(evaluator)) criteria.evaluator = evaluator as Evaluator;
  if (typeof acceptanceTimeoutSeconds === 'number' && Number.isFinite(acceptanceTimeoutSeconds))
    criteria.acceptanceTimeoutSeconds = Math.trunc(acceptanceTimeoutSeconds);
  if (typeof maxRejections === 'number' && Number.isFinite(maxRejections))
    criteria.maxRejections = Math.trunc(maxRejections);
  return criteria;
}
