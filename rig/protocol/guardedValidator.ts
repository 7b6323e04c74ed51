// The guarded validator: compiles untrusted JSON Schemas (draft 2020-12) and validates payloads
// against them with every S-2 bound applied. Subschema depth and payload depth are checked without
// recursion; compile and validate run under a vm watchdog, so no schema or payload can hold the
// event loop past the budget; patterns are linear-time (RE2) and their work is charged before it
// runs (linearRegExp.ts). Compiled validators are cached by schema content, so the answer path never
// compiles, and the cache really releases: Ajv keeps every schema it ever compiled
// (addUsedSchema:false or not), so the cache is two generations, each with its own Ajv instance, and
// dropping the old generation drops its Ajv with all it compiled.
import vm from 'node:vm';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { PatternWorkExceeded, linearRegExpEngine, meteredPatterns, patternProgramSize } from './linearRegExp.ts';
import { nestingDepth, schemaDepth, someEntry } from './jsonNesting.ts';
import { COMPILE_BUDGET_MS, MAX_NESTING_DEPTH, VALIDATION_BUDGET_MS, type ValidationErrorEntry } from './hitlPrompt.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => void;

/** Reported entries per rejection; a hostile payload must not turn the 422 body into a flood. */
const MAX_REPORTED_ERRORS = 20;
/** Compiled schemas per cache generation; at most two generations (two Ajv instances) live. */
export const CACHE_GENERATION_ENTRIES = 256;
/**
 * Pattern work (string length × RE2 program size, summed over the matches) one validation may
 * spend: sized from the worst per-unit cost seen (docs/benchmarks.md, "Figures behind bounds in the
 * code") to stay under the 100 ms an agent's event loop may stall; an email-ish pattern
 * (13 instructions) still checks ~75,000 characters, a UUID pattern (40) ~25,000.
 */
export const PATTERN_WORK_BUDGET = 1_000_000;

// Keywords whose validation cost can grow faster than the payload (`pattern` is not one: its work
// is metered before it runs, see PATTERN_WORK_BUDGET; combinators over recursive
// refs are exponential in depth, uniqueItems is quadratic, format regexes are not all linear).
// A schema free of them validates in time linear in the payload, so it skips the watchdog and the vm
// call it adds to every validation. A property that merely has such a name only costs the watchdog.
const SUPERLINEAR_KEYWORDS = new Set([
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  'uniqueItems',
  'contains',
  'format',
  'patternProperties',
  'dependentSchemas',
  'unevaluatedItems',
  'unevaluatedProperties',
  'propertyNames',
]);

// Formats whose ajv-formats check is a fixed-shape regex without nested quantifiers (date-time is
// split at its "T" and each half matched so): linear in the string. envelope.schema.json's
// `deadline` is one; under the watchdog, a busy machine could time out the rig's own envelope check.
const LINEAR_FORMATS = new Set(['date-time', 'date', 'time', 'uuid']);

/**
 * A pattern compiling to more RE2 instructions than this puts its schema under the watchdog too: the
 * per-unit cost of big programs is less predictable (cache misses; on a loaded box ten times the quiet
 * cost and more), so the work budget alone does not bound their wall time.
 * Patterns agents really use (email-ish 13, UUID 40, envelope.schema.json's) stay far below it.
 */
export const LINEAR_PATTERN_MAX_PROGRAM = 256;

function validatesInLinearTime(schema: object): boolean {
  return !someEntry(
    schema,
    (key, value) =>
      (SUPERLINEAR_KEYWORDS.has(key) &&
        !(key === 'format' && typeof value === 'string' && LINEAR_FORMATS.has(value))) ||
      (key === 'pattern' && typeof value === 'string' && patternProgramSize(value) > LINEAR_PATTERN_MAX_PROGRAM),
  );
}

export class SchemaRejectedError extends Error {
  override name = 'SchemaRejectedError';
}

export interface GuardedValidatorOptions {
  /** Bound for subschema nesting and for payload nesting; Infinity disables both (fault flag). */
  maxDepth?: number;
  /** Per-payload validation budget (default 250 ms, the spec's example). */
  budgetMs?: number;
  /** Per-schema compile budget (default 1000 ms). */
  compileBudgetMs?: number;
  /** Pattern work per validation, in character × instruction units (default PATTERN_WORK_BUDGET). */
  patternWorkBudget?: number;
  /**
   * Compile `pattern`s with native (backtracking) RegExp, Ajv's default, instead of the linear
   * engine, and so unmetered: the agent's `backtracking-patterns` fault, proving that the rig's
   * pattern-backtracking attack finds an agent without linear patterns. Never set otherwise.
   */
  nativePatterns?: boolean;
}

export interface CompiledSchema {
  /** Empty when the payload is valid. */
  validate(payload: unknown): ValidationErrorEntry[];
}

function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function toEntry(error: ErrorObject): ValidationErrorEntry {
  let path = error.instancePath;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    path += `/${escapePointerToken(params.missingProperty)}`;
  } else if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    path += `/${escapePointerToken(params.additionalProperty)}`;
  }
  let message = error.message ?? error.keyword;
  if (error.keyword === 'additionalProperties') message = 'must NOT have additional properties';
  return { path, keyword: error.keyword, message };
}

interface Generation {
  ajv: Ajv2020;
  cache: Map<string, CompiledSchema>;
}

export class GuardedValidator {
  private readonly maxDepth: number;
  private readonly budgetMs: number;
  private readonly compileBudgetMs: number;
  private readonly patternWorkBudget: number;
  private readonly nativePatterns: boolean;
  private readonly sandbox = vm.createContext({ fn: undefined as unknown, arg: undefined as unknown });
  private readonly callScript = new vm.Script('fn(arg)');
  /** Compiles go to `young`; `old` still answers lookups until the next rotation drops it. */
  private young: Generation;
  private old: Generation | undefined;
  private compiledCount = 0;

  constructor(options: GuardedValidatorOptions = {}) {
    this.maxDepth = options.maxDepth ?? MAX_NESTING_DEPTH;
    this.budgetMs = options.budgetMs ?? VALIDATION_BUDGET_MS;
    this.compileBudgetMs = options.compileBudgetMs ?? COMPILE_BUDGET_MS;
    this.patternWorkBudget = options.patternWorkBudget ?? PATTERN_WORK_BUDGET;
    this.nativePatterns = options.nativePatterns ?? false;
    this.young = { ajv: this.newAjv(), cache: new Map() };
  }

  /** Starts a new generation; the old one (its Ajv and everything it compiled) becomes garbage. */
  private rotate(keepYoung: boolean): void {
    this.old = keepYoung ? this.young : this.old;
    this.young = { ajv: this.newAjv(), cache: new Map() };
  }

  private newAjv(): Ajv2020 {
    const ajv = new Ajv2020({
      strict: false,
      allErrors: true,
      validateSchema: true,
      addUsedSchema: false,
      // Ajv logs the whole generated source of a schema that fails to compile (a 55 KB oneOf that
      // overflows V8's parser writes 1.25 MB to stderr): untrusted schemas must not flood the log.
      logger: false,
      // Ajv's optimizer pass costs more than it saves on large untrusted schemas (docs/benchmarks.md,
      // "Figures behind bounds in the code").
      // nativePatterns leaves `regExp` to Ajv's default, `new RegExp(pattern, 'u')`; the schema's
      // linear-time classification (RE2 program sizes) is unchanged, so such a pattern is not put
      // under the watchdog either: what an agent that never thought about patterns does.
      code: this.nativePatterns ? { optimize: false } : { regExp: linearRegExpEngine, optimize: false },
    });
    addFormats(ajv);
    // Compile the draft 2020-12 meta-schema now, outside any budget: otherwise every schema's
    // budget would pay for it, and a fresh Ajv after an interrupt could never finish warming up.
    ajv.validateSchema({ type: 'object' });
    return ajv;
  }

  /** Runs `fn(arg)` under the watchdog; throws 'budget' when it is exceeded. */
  private withinBudget<T>(fn: (arg: unknown) => T, arg: unknown, budgetMs: number): T {
    this.sandbox.fn = fn;
    this.sandbox.arg = arg;
    try {
      return this.callScript.runInContext(this.sandbox, { timeout: budgetMs }) as T;
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new BudgetExceeded();
      throw err;
    } finally {
      this.sandbox.fn = undefined;
      this.sandbox.arg = undefined;
    }
  }

  /** Compiles (or finds in the cache) a validator; throws SchemaRejectedError with the reason.
   * `key` is the schema's JSON when the caller holds it already (a constant schema, on a hot path). */
  compile(schema: unknown, key = JSON.stringify(schema)): CompiledSchema {
    const cached = this.young.cache.get(key) ?? this.old?.cache.get(key);
    if (cached) return cached;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new SchemaRejectedError('response_schema must be a JSON object');
    }
    const depth = schemaDepth(schema, this.maxDepth);
    if (depth > this.maxDepth) {
      throw new SchemaRejectedError(`response_schema nests subschemas deeper than ${this.maxDepth} levels`);
    }
    let fn: ValidateFunction;
    let linear: boolean;
    const { ajv } = this.young;
    try {
      // Ajv resolves `$ref: "#"` against the root's $id; untrusted schemas often have none (and
      // addUsedSchema is off so one schema's $id cannot collide with another's), so give it one.
      const rooted = '$id' in schema ? schema : { ...schema, $id: `urn:a2a-rig:schema:${++this.compiledCount}` };
      // The linear-time classification compiles each pattern again (RE2 program sizes): inside the
      // same budget, since a pattern may be costly to compile.
      ({ fn, linear } = this.withinBudget(
        (s) => ({ fn: ajv.compile(s as object), linear: validatesInLinearTime(schema) }),
        rooted,
        this.compileBudgetMs,
      ));
    } catch (err) {
      if (err instanceof BudgetExceeded) {
        // An interrupted compile may leave Ajv's internal registry half-written: start afresh (what
        // it compiled before stays usable until the generation after next).
        this.rotate(true);
        throw new SchemaRejectedError(`compiling response_schema took longer than ${this.compileBudgetMs} ms`);
      }
      throw new SchemaRejectedError(
        `response_schema is not a usable JSON Schema (draft 2020-12): ${(err as Error).message}`,
      );
    }
    const compiled: CompiledSchema = { validate: (payload) => this.run(fn, payload, linear) };
    this.young.cache.set(key, compiled);
    if (this.young.cache.size >= CACHE_GENERATION_ENTRIES) this.rotate(true);
    return compiled;
  }

  private run(fn: ValidateFunction, payload: unknown, linear: boolean): ValidationErrorEntry[] {
    if (Number.isFinite(this.maxDepth) && nestingDepth(payload, this.maxDepth) > this.maxDepth) {
      return [{ path: '', keyword: 'maxDepth', message: `must NOT nest deeper than ${this.maxDepth} levels` }];
    }
    let valid: boolean;
    try {
      valid = meteredPatterns(this.patternWorkBudget, () =>
        linear ? (fn(payload) as boolean) : this.withinBudget((p) => fn(p) as boolean, payload, this.budgetMs),
      );
    } catch (err) {
      if (err instanceof PatternWorkExceeded) return [{ path: '', keyword: 'pattern', message: err.message }];
      if (err instanceof BudgetExceeded) {
        return [{ path: '', keyword: 'timeout', message: `validation took longer than ${this.budgetMs} ms` }];
      }
      if (err instanceof RangeError) {
        return [{ path: '', keyword: 'maxDepth', message: 'payload is too deeply nested to validate' }];
      }
      throw err;
    }
    if (valid) return [];
    return (fn.errors ?? []).slice(0, MAX_REPORTED_ERRORS).map(toEntry);
  }

  /** Compiled schemas the cache holds (both generations). */
  get cachedSchemas(): number {
    return this.young.cache.size + (this.old?.cache.size ?? 0);
  }
}

class BudgetExceeded extends Error {}
