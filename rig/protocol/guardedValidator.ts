// The guarded validator: compiles untrusted JSON Schemas (draft 2020-12) and validates payloads
// against them with every S-2 bound applied. Subschema depth and payload depth are checked without
// recursion; compile and validate run under a vm watchdog, so no schema or payload can hold the
// event loop past the budget; patterns are linear-time (RE2). Compiled validators are cached by
// schema content, so the answer path never compiles.
import vm from 'node:vm';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { linearRegExpEngine } from './linearRegExp.ts';
import { nestingDepth, schemaDepth } from './jsonNesting.ts';
import { COMPILE_BUDGET_MS, MAX_NESTING_DEPTH, VALIDATION_BUDGET_MS, type ValidationErrorEntry } from './hitlPrompt.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => void;

/** Reported entries per rejection; a hostile payload must not turn the 422 body into a flood. */
const MAX_REPORTED_ERRORS = 20;
const CACHE_ENTRIES = 512;

// Keywords whose validation cost can grow faster than the payload (combinators over recursive
// refs are exponential in depth, uniqueItems is quadratic, format regexes are not all linear).
// A schema free of them validates in time linear in the payload, so it skips the watchdog, which
// costs ~80 µs a call. A property that merely has such a name only costs the watchdog.
const SUPERLINEAR_KEYWORDS = new Set([
  'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', '$ref', '$dynamicRef', '$recursiveRef',
  'uniqueItems', 'contains', 'format', 'patternProperties', 'dependentSchemas', 'unevaluatedItems',
  'unevaluatedProperties', 'propertyNames',
]);

// Formats whose ajv-formats check is a fixed-shape regex without nested quantifiers (date-time is
// split at its "T" and each half matched so): linear in the string. envelope.schema.json's
// `deadline` is one; under the watchdog, a busy machine could time out the rig's own envelope check.
const LINEAR_FORMATS = new Set(['date-time', 'date', 'time', 'uuid']);

function validatesInLinearTime(schema: object): boolean {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      if (SUPERLINEAR_KEYWORDS.has(key) && !(key === 'format' && typeof value === 'string' && LINEAR_FORMATS.has(value))) return false;
      stack.push(value);
    }
  }
  return true;
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

export class GuardedValidator {
  private readonly maxDepth: number;
  private readonly budgetMs: number;
  private readonly compileBudgetMs: number;
  private readonly cache = new Map<string, CompiledSchema>();
  private readonly sandbox = vm.createContext({ fn: undefined as unknown, arg: undefined as unknown });
  private readonly callScript = new vm.Script('fn(arg)');
  private ajv: Ajv2020;
  private compiledCount = 0;

  constructor(options: GuardedValidatorOptions = {}) {
    this.maxDepth = options.maxDepth ?? MAX_NESTING_DEPTH;
    this.budgetMs = options.budgetMs ?? VALIDATION_BUDGET_MS;
    this.compileBudgetMs = options.compileBudgetMs ?? COMPILE_BUDGET_MS;
    this.ajv = this.newAjv();
  }

  private newAjv(): Ajv2020 {
    const ajv = new Ajv2020({
      strict: false,
      allErrors: true,
      validateSchema: true,
      addUsedSchema: false,
      // Ajv's optimizer pass costs more than it saves on large untrusted schemas (a 50 KiB
      // schema compiles in ~300 ms with it, ~110 ms without).
      code: { regExp: linearRegExpEngine, optimize: false },
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

  /** Compiles (or finds in the cache) a validator; throws SchemaRejectedError with the reason. */
  compile(schema: unknown): CompiledSchema {
    const key = JSON.stringify(schema);
    const cached = this.cache.get(key);
    if (cached) return cached;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new SchemaRejectedError('response_schema must be a JSON object');
    }
    const depth = schemaDepth(schema, this.maxDepth);
    if (depth > this.maxDepth) {
      throw new SchemaRejectedError(`response_schema nests subschemas deeper than ${this.maxDepth} levels`);
    }
    let fn: ValidateFunction;
    try {
      // Ajv resolves `$ref: "#"` against the root's $id; untrusted schemas often have none (and
      // addUsedSchema is off so one schema's $id cannot collide with another's), so give it one.
      const rooted = '$id' in schema ? schema : { ...schema, $id: `urn:a2a-rig:schema:${++this.compiledCount}` };
      fn = this.withinBudget((s) => this.ajv.compile(s as object), rooted, this.compileBudgetMs);
    } catch (err) {
      if (err instanceof BudgetExceeded) {
        // An interrupted compile may leave Ajv's internal registry half-written: start afresh.
        this.ajv = this.newAjv();
        throw new SchemaRejectedError(`compiling response_schema took longer than ${this.compileBudgetMs} ms`);
      }
      throw new SchemaRejectedError(`response_schema is not a usable JSON Schema (draft 2020-12): ${(err as Error).message}`);
    }
    const linear = validatesInLinearTime(schema);
    const compiled: CompiledSchema = { validate: (payload) => this.run(fn, payload, linear) };
    if (this.cache.size >= CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, compiled);
    return compiled;
  }

  private run(fn: ValidateFunction, payload: unknown, linear: boolean): ValidationErrorEntry[] {
    if (Number.isFinite(this.maxDepth) && nestingDepth(payload, this.maxDepth) > this.maxDepth) {
      return [{ path: '', keyword: 'maxDepth', message: `must NOT nest deeper than ${this.maxDepth} levels` }];
    }
    let valid: boolean;
    try {
      valid = linear ? (fn(payload) as boolean) : this.withinBudget((p) => fn(p) as boolean, payload, this.budgetMs);
    } catch (err) {
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

  get cachedSchemas(): number {
    return this.cache.size;
  }
}

class BudgetExceeded extends Error {}
