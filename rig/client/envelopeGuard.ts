// The orchestrator's duties of hitl-prompt/v1 S-2, applied to every prompt envelope the rig
// receives: a response_schema over 64 KiB serialized makes the prompt malformed; the envelope must
// match envelope.schema.json; the schema is compiled by the GuardedValidator (subschema depth ≤ 32,
// compile budget, RE2 patterns), so no envelope can exhaust or hang the rig. The outcome says
// either "usable, here is the compiled schema" or "malformed, because ...". SHOULD-level findings
// that do not make a prompt unusable are listed as `problems`.
import type { StreamResponse, TaskStatus } from '../protocol/a2aTypes.ts';
import { GuardedValidator, SchemaRejectedError, type CompiledSchema } from '../protocol/guardedValidator.ts';
import {
  HITL_PROMPT_URI,
  MAX_NESTING_DEPTH,
  MAX_PROMPT_CHARS,
  MAX_RESPONSE_SCHEMA_BYTES,
  RESPONDER_PATTERN,
  UUID_PATTERN,
  promptEnvelopeSchema,
  serializedSchemaBytes,
  type PromptEnvelope,
} from '../protocol/hitlPrompt.ts';
import { nestingDepth } from '../protocol/jsonNesting.ts';
import { statusOfEvent } from '../protocol/wireInbound.ts';

export type PromptCheck =
  | {
      ok: true;
      envelope: PromptEnvelope;
      /** response_schema, compiled under the S-2 bounds: validate payloads with it. */
      schema: CompiledSchema;
      /** SHOULD-level findings (long prompt, open schema, unknown responder patterns...). */
      problems: string[];
    }
  | { ok: false; reason: string; promptId: string | undefined };

/**
 * Raw JSON nesting allowed in an envelope before anything serializes or compiles it. Subschema depth
 * (the spec's 32) is checked by the validator; a 32-deep schema is about 70 JSON levels, so this
 * bound only stops pathological nesting (which would overflow JSON.stringify's recursion).
 */
export const MAX_ENVELOPE_JSON_DEPTH = 8 * MAX_NESTING_DEPTH;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function malformed(reason: string, raw: unknown): PromptCheck {
  const promptId = isObject(raw) && typeof raw.prompt_id === 'string' ? raw.prompt_id.slice(0, 200) : undefined;
  return { ok: false, reason: `malformed hitl-prompt/v1 envelope: ${reason}`, promptId };
}

export class EnvelopeGuard {
  /**
   * Verdicts by envelope object. The same parsed envelope is usually checked twice (as its event
   * arrives, and when a caller asks for the task's prompt), and the envelope-schema check runs
   * under the validator's watchdog, which is most of a round trip's cost to the rig under load.
   * Envelopes parsed from the wire are never mutated, so an object's verdict stays true.
   */
  private readonly verdicts = new WeakMap<object, PromptCheck>();

  constructor(readonly validator: GuardedValidator = new GuardedValidator()) {}

  /** Checks one envelope: the value found under the extension URI in a status message's metadata. */
  check(raw: unknown): PromptCheck {
    if (!isObject(raw)) return malformed('the envelope must be a JSON object', raw);
    let verdict = this.verdicts.get(raw);
    if (!verdict) this.verdicts.set(raw, (verdict = this.checkObject(raw)));
    return verdict;
  }

  private checkObject(raw: Record<string, unknown>): PromptCheck {
    if (nestingDepth(raw, MAX_ENVELOPE_JSON_DEPTH) > MAX_ENVELOPE_JSON_DEPTH) {
      return malformed(`the envelope nests deeper than ${MAX_ENVELOPE_JSON_DEPTH} JSON levels`, raw);
    }
    const schema = raw.response_schema;
    if (schema !== undefined) {
      const bytes = serializedSchemaBytes(schema);
      if (bytes > MAX_RESPONSE_SCHEMA_BYTES) {
        return malformed(`response_schema is ${bytes} bytes serialized; S-2 allows at most ${MAX_RESPONSE_SCHEMA_BYTES}`, raw);
      }
    }
    const problems: string[] = [];
    const shapeErrors = this.validator.compile(promptEnvelopeSchema).validate(this.shapeView(raw, problems));
    if (shapeErrors.length > 0) {
      const detail = shapeErrors.map((e) => `${e.path || '/'} ${e.message}`).join('; ');
      return malformed(`does not match envelope.schema.json: ${detail}`, raw);
    }
    let compiled: CompiledSchema;
    try {
      compiled = this.validator.compile(schema);
    } catch (err) {
      if (err instanceof SchemaRejectedError) return malformed(err.message, raw);
      throw err;
    }
    const envelope = raw as unknown as PromptEnvelope;
    if (!UUID_PATTERN.test(envelope.prompt_id)) problems.push(`prompt_id ${envelope.prompt_id} is not an RFC 4122 UUID (version 1-8, RFC variant)`);
    if (envelope.prompt.length > MAX_PROMPT_CHARS) problems.push(`prompt has ${envelope.prompt.length} characters; the spec asks for at most ${MAX_PROMPT_CHARS}`);
    if (envelope.response_schema.additionalProperties !== false) problems.push('response_schema does not set additionalProperties: false (a SHOULD)');
    return { ok: true, envelope, schema: compiled, problems };
  }

  /**
   * What envelope.schema.json is checked against: the envelope with response_schema reduced to its
   * `type` (the only part the envelope schema constrains; its depth is the validator's business)
   * and unknown responder patterns dropped, which the spec says an orchestrator must ignore.
   */
  private shapeView(raw: Record<string, unknown>, problems: string[]): Record<string, unknown> {
    const view: Record<string, unknown> = { ...raw };
    if (isObject(raw.response_schema)) view.response_schema = 'type' in raw.response_schema ? { type: raw.response_schema.type } : {};
    if (Array.isArray(raw.allowed_responders)) {
      view.allowed_responders = raw.allowed_responders.filter((r) => {
        if (typeof r !== 'string' || RESPONDER_PATTERN.test(r)) return true;
        problems.push(`allowed_responders entry ${JSON.stringify(r.slice(0, 80))} is not a known pattern; ignored`);
        return false;
      });
    }
    return view;
  }

  /** The check of the envelope a status carries, or undefined when it carries none. */
  fromStatus(status: TaskStatus | undefined): PromptCheck | undefined {
    const metadata = status?.message?.metadata;
    if (!metadata || !Object.hasOwn(metadata, HITL_PROMPT_URI)) return undefined;
    return this.check(metadata[HITL_PROMPT_URI]);
  }

  /** The check of the envelope an event's status carries (task snapshot or status update), if any. */
  fromEvent(event: StreamResponse): PromptCheck | undefined {
    return this.fromStatus(statusOfEvent(event));
  }
}
