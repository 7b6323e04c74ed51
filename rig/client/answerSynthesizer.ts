// Answers built from an emitted response_schema, so the conformance suite runs against agents the
// rig did not write: one valid payload, and invalid ones that each break the schema in one known way
// (wrong type, missing required property, unknown property under additionalProperties:false).
//
// Generator choice: hand-written (minimalInstance.ts), after trying the libraries. openapi-sampler
// 1.7.10 (Redocly; deterministic) is OpenAPI-minded: it takes `example`/`default` as truth, gives
// arrays one item whatever minItems says, ignores multipleOf, minProperties and fractional integer
// bounds, and picks the first oneOf branch even when it overlaps another; 5 of 16 ordinary test
// schemas came out invalid. json-schema-faker produces random realistic data, the opposite of a
// minimal deterministic instance. Neither bounds its work against a hostile schema. The generator
// here covers the common subset, is bounded, and every payload it returns has been checked by the
// GuardedValidator under the S-2 bounds: the valid one validates, each invalid one fails. When it
// cannot do that, it says why, and the scenario skips.
//
// Synthesis is synchronous, so no scenario budget or signal can interrupt it: it carries its own
// time budget (SYNTHESIS_BUDGET_MS, checked as it goes; one compile or validation, each under the
// validator's watchdog, may overrun it), refuses schemas over its shape bounds (MAX_ONEOF_BRANCHES)
// with "answers cannot be built: ...", and remembers outcomes by schema content, so a load run that
// meets the same hostile schema in every iteration pays for it once.
import { isDeepStrictEqual } from 'node:util';
import { GuardedValidator, SchemaRejectedError, type CompiledSchema } from '../protocol/guardedValidator.ts';
import type { ValidationErrorEntry } from '../protocol/hitlPrompt.ts';
import { SynthesisLimit, minimalInstance, refuseWideOneOf } from './minimalInstance.ts';

export type InvalidKind = 'wrong-type' | 'missing-required' | 'unknown-property';

export interface InvalidAnswer {
  kind: InvalidKind;
  payload: Record<string, unknown>;
  /** JSON Pointer of what was broken, e.g. "/approved". */
  path: string;
  /** What the GuardedValidator reports for this payload (the agent's validation_errors should be alike). */
  expectedErrors: ValidationErrorEntry[];
}

export interface SynthesizedAnswers {
  valid: Record<string, unknown>;
  invalid: InvalidAnswer[];
  /** Kinds of invalid answer this schema cannot produce (e.g. it allows unknown properties), with why. */
  notApplicable: Array<{ kind: InvalidKind; reason: string }>;
}

export type Synthesis = { ok: true; answers: SynthesizedAnswers } | { ok: false; reason: string };

/** The valid payload of a synthesis alone (AnswerSynthesizer.validAnswer). */
export type ValidAnswer = { ok: true; valid: Record<string, unknown> } | { ok: false; reason: string };

/** The unknown property added to break `additionalProperties: false`. */
export const UNKNOWN_PROPERTY = 'a2a_rig_unknown_property';
/** Values tried, in order, to put a property of the wrong type (the one with a `type` error wins). */
const WRONG_VALUES: unknown[] = ['a2a-rig-wrong-type', 12345, true, null, [], {}];
/** Validations one invalid kind may spend looking for a fitting mutation. */
const MAX_ATTEMPTS = 64;
/** Wall time one synthesis may spend (synchronous; scenario budgets are tens of seconds). */
export const SYNTHESIS_BUDGET_MS = 2_000;
/** Synthesis outcomes remembered, by schema content. */
const OUTCOME_CACHE_ENTRIES = 64;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function pointer(key: string): string {
  return `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/**
 * A remembered outcome, handed out as a copy (callers may change what they get). Outcomes are JSON
 * data (payloads built from a JSON schema, error entries), and parsing their text back is cheaper
 * than structuredClone, on the round trip's path; one that JSON would change is cloned instead.
 */
class Remembered {
  private readonly text: string | undefined;
  /** The valid payload's own text, for a caller that sends nothing else (validAnswer). */
  private readonly validText: string | undefined;

  constructor(private readonly outcome: Synthesis) {
    const text = JSON.stringify(outcome);
    this.text = isDeepStrictEqual(JSON.parse(text), outcome) ? text : undefined;
    this.validText = this.text !== undefined && outcome.ok ? JSON.stringify(outcome.answers.valid) : undefined;
  }

  copy(): Synthesis {
    return this.text === undefined ? structuredClone(this.outcome) : (JSON.parse(this.text) as Synthesis);
  }

  copyValid(): ValidAnswer {
    if (!this.outcome.ok) return this.outcome;
    const valid =
      this.validText === undefined ? structuredClone(this.outcome.answers.valid) : JSON.parse(this.validText);
    return { ok: true, valid: valid as Record<string, unknown> };
  }
}

export class AnswerSynthesizer {
  private readonly outcomes = new Map<string, Remembered>();
  private deadline = Infinity;

  constructor(
    readonly validator: GuardedValidator = new GuardedValidator(),
    readonly budgetMs: number = SYNTHESIS_BUDGET_MS,
  ) {}

  /** Builds and verifies the answers for one response_schema; never throws for a bad schema. */
  synthesize(schema: unknown): Synthesis {
    const remembered = this.remembered(schema);
    return 'reason' in remembered ? remembered : remembered.copy();
  }

  /**
   * The same synthesis (built, verified and remembered alike), handing out only a copy of the valid
   * payload: for a load that sends it and nothing else, which need not copy every invalid answer.
   */
  validAnswer(schema: unknown): ValidAnswer {
    const remembered = this.remembered(schema);
    return 'reason' in remembered ? remembered : remembered.copyValid();
  }

  private remembered(schema: unknown): Remembered | { ok: false; reason: string } {
    let key: string;
    try {
      key = JSON.stringify(schema) ?? 'undefined';
    } catch {
      return { ok: false, reason: 'cannot synthesize: response_schema cannot be serialized' };
    }
    const known = this.outcomes.get(key);
    if (known) return known;
    this.deadline = performance.now() + this.budgetMs;
    let outcome: Synthesis;
    try {
      outcome = this.build(schema);
    } catch (err) {
      if (!(err instanceof SynthesisLimit)) throw err;
      outcome = { ok: false, reason: `answers cannot be built: ${err.message}` };
    } finally {
      this.deadline = Infinity;
    }
    if (this.outcomes.size >= OUTCOME_CACHE_ENTRIES) this.outcomes.delete(this.outcomes.keys().next().value as string);
    const remembered = new Remembered(outcome);
    this.outcomes.set(key, remembered);
    return remembered;
  }

  private checkDeadline(): void {
    if (performance.now() > this.deadline)
      throw new SynthesisLimit(`synthesis took longer than its ${this.budgetMs} ms budget`);
  }

  private build(schema: unknown): Synthesis {
    refuseWideOneOf(schema);
    let compiled: CompiledSchema;
    try {
      compiled = this.validator.compile(schema);
    } catch (err) {
      if (err instanceof SchemaRejectedError) return { ok: false, reason: `cannot synthesize: ${err.message}` };
      throw err;
    }
    const generated = minimalInstance(schema, this.validator, this.deadline, this.budgetMs);
    if (!generated.ok) return { ok: false, reason: `cannot synthesize a valid payload: ${generated.reason}` };
    if (!isObject(generated.value))
      return { ok: false, reason: 'cannot synthesize a valid payload: the schema does not describe an object' };
    const valid = generated.value;
    const errors = compiled.validate(valid);
    if (errors.length > 0) {
      const detail = errors
        .slice(0, 3)
        .map((e) => `${e.path || '/'} ${e.message}`)
        .join('; ');
      return {
        ok: false,
        reason:
          `cannot synthesize a valid payload: ` +
          `the minimal instance ${JSON.stringify(valid).slice(0, 200)} fails: ${detail}`,
      };
    }
    const invalid: InvalidAnswer[] = [];
    const notApplicable: SynthesizedAnswers['notApplicable'] = [];
    for (const [kind, build] of [
      ['wrong-type', () => this.wrongType(valid, schema, compiled)],
      ['missing-required', () => this.missingRequired(valid, compiled)],
      ['unknown-property', () => this.unknownProperty(valid, compiled)],
    ] as const) {
      const outcome = build();
      if ('reason' in outcome) notApplicable.push({ kind, reason: outcome.reason });
      else invalid.push({ kind, ...outcome });
    }
    return { ok: true, answers: { valid, invalid, notApplicable } };
  }

  /** A top-level property (present, or declared but optional) given a value of another type. */
  private wrongType(
    valid: Record<string, unknown>,
    schema: unknown,
    compiled: CompiledSchema,
  ): Omit<InvalidAnswer, 'kind'> | { reason: string } {
    const declared = isObject(schema) && isObject(schema.properties) ? Object.keys(schema.properties) : [];
    const keys = [...new Set([...Object.keys(valid), ...declared])];
    let attempts = 0;
    for (const key of keys) {
      for (const value of WRONG_VALUES) {
        if (JSON.stringify(value) === JSON.stringify(valid[key]) || ++attempts > MAX_ATTEMPTS) continue;
        this.checkDeadline();
        const payload = { ...valid, [key]: value };
        const errors = compiled.validate(payload);
        if (errors.some((e) => e.path === pointer(key) && e.keyword === 'type'))
          return { payload, path: pointer(key), expectedErrors: errors };
      }
    }
    return { reason: 'no top-level property has a type that another value breaks' };
  }

  private missingRequired(
    valid: Record<string, unknown>,
    compiled: CompiledSchema,
  ): Omit<InvalidAnswer, 'kind'> | { reason: string } {
    for (const key of Object.keys(valid).slice(0, MAX_ATTEMPTS)) {
      this.checkDeadline();
      const { [key]: _dropped, ...payload } = valid;
      const errors = compiled.validate(payload);
      if (errors.some((e) => e.keyword === 'required')) return { payload, path: pointer(key), expectedErrors: errors };
    }
    return { reason: 'the schema requires no top-level property' };
  }

  private unknownProperty(
    valid: Record<string, unknown>,
    compiled: CompiledSchema,
  ): Omit<InvalidAnswer, 'kind'> | { reason: string } {
    const payload = { ...valid, [UNKNOWN_PROPERTY]: true };
    const errors = compiled.validate(payload);
    if (errors.some((e) => e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties')) {
      return { payload, path: pointer(UNKNOWN_PROPERTY), expectedErrors: errors };
    }
    return { reason: 'the schema accepts unknown properties (no additionalProperties: false)' };
  }
}
