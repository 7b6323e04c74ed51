// The orchestrator's duties of hitl-prompt/v1 S-2, applied to every prompt envelope the rig
// receives: a response_schema over 64 KiB serialized makes the prompt malformed; the envelope must
// match the published envelope.schema.json (rig/protocol/contracts/hitl-prompt-v1/, read as it is:
// prompt 1..4096 characters, a UUID prompt_id, response_schema of top-level type object, an RFC 3339
// deadline, allowed_responders patterns); the schema is compiled by the GuardedValidator (subschema depth ≤ 32,
// compile budget, RE2 patterns), so no envelope can exhaust or hang the rig. The outcome says
// either "usable, here is the compiled schema" or "malformed, because ...". SHOULD-level findings
// that do not make a prompt unusable are listed as `problems`.
import type { StreamResponse, TaskStatus } from '../protocol/a2aTypes.ts';
import { GuardedValidator, SchemaRejectedError, type CompiledSchema } from '../protocol/guardedValidator.ts';
import {
  HITL_PROMPT_URI,
  MAX_NESTING_DEPTH,
  MAX_RESPONSE_SCHEMA_BYTES,
  promptEnvelopeSchema,
  serializedSchemaBytes,
  UUID_PATTERN,
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
      /** SHOULD-level findings (an open schema, a deadline the rig cannot place in time...). */
      problems: string[];
      /**
       * Breaches of envelope.schema.json the spec tells an orchestrator to tolerate (an
       * allowed_responders entry of an unknown pattern is ignored, for forward compatibility):
       * the prompt stays usable, and conformance checks report them.
       */
      contract: string[];
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
  /**
   * envelope.schema.json compiled once per guard: looking it up in the validator's cache means
   * serializing the whole contract (its cache key) for every envelope, on each round trip's path.
   */
  private contract: CompiledSchema | undefined;

  constructor(readonly validator: GuardedValidator = new GuardedValidator()) {}

  /**
   * Checks one envelope: the value found under the extension URI in a status message's metadata.
   * `emittedAt` is that status's timestamp, the agent's clock when it emitted the envelope.
   */
  check(raw: unknown, emittedAt?: string): PromptCheck {
    if (!isObject(raw)) return malformed('the envelope must be a JSON object', raw);
    let verdict = this.verdicts.get(raw);
    if (!verdict) this.verdicts.set(raw, (verdict = this.checkObject(raw, emittedAt)));
    return verdict;
  }

  private checkObject(raw: Record<string, unknown>, emittedAt: string | undefined): PromptCheck {
    if (nestingDepth(raw, MAX_ENVELOPE_JSON_DEPTH) > MAX_ENVELOPE_JSON_DEPTH) {
      return malformed(`the envelope nests deeper than ${MAX_ENVELOPE_JSON_DEPTH} JSON levels`, raw);
    }
    const schema = raw.response_schema;
    if (schema !== undefined) {
      const bytes = serializedSchemaBytes(schema);
      if (bytes > MAX_RESPONSE_SCHEMA_BYTES) {
        return malformed(
          `response_schema is ${bytes} bytes serialized; S-2 allows at most ${MAX_RESPONSE_SCHEMA_BYTES}`,
          raw,
        );
      }
    }
    // envelope.schema.json constrains only response_schema's top-level `type`; its depth is the
    // validator's business, so the envelope is checked with response_schema reduced to that.
    const view: Record<string, unknown> = { ...raw };
    if (isObject(schema)) view.response_schema = 'type' in schema ? { type: schema.type } : {};
    const errors = (this.contract ??= this.validator.compile(promptEnvelopeSchema)).validate(view);
    const responders = Array.isArray(raw.allowed_responders) ? raw.allowed_responders : [];
    const tolerated = errors.filter((e) => e.keyword === 'pattern' && /^\/allowed_responders\/\d+$/.test(e.path));
    // The spec's MUST is "an RFC 4122 UUID"; RFC 9562, which obsoletes it, adds versions 6-8 in the
    // same layout (the extension's own executor sends v7). The schema's pattern pins 1-5: a shape.
    const newerUuid = errors.find(
      (e) => e.keyword === 'pattern' && e.path === '/prompt_id' && UUID_PATTERN.test(String(raw.prompt_id)),
    );
    const fatal = errors.filter((e) => !tolerated.includes(e) && e !== newerUuid);
    if (fatal.length > 0) {
      return malformed(
        `does not match envelope.schema.json: ${fatal.map((e) => `${e.path || '/'} ${e.message}`).join('; ')}`,
        raw,
      );
    }
    const contract = tolerated.map((e) => {
      const entry = String(responders[Number(e.path.split('/')[2])]).slice(0, 80);
      return (
        `allowed_responders entry ${JSON.stringify(entry)} breaks envelope.schema.json's pattern ` +
        '(ignored, as the spec asks of an orchestrator)'
      );
    });
    if (newerUuid)
      contract.push(
        `prompt_id ${String(raw.prompt_id)} is a version-${String(raw.prompt_id)[14]} UUID (RFC 9562); ` +
          "envelope.schema.json's pattern allows versions 1-5",
      );
    const problems: string[] = [];
    const late = this.deadlineFinding(raw.deadline, emittedAt);
    if (late?.fatal) return malformed(late.fatal, raw);
    if (late?.problem) problems.push(late.problem);
    let compiled: CompiledSchema;
    try {
      compiled = this.validator.compile(schema);
    } catch (err) {
      if (err instanceof SchemaRejectedError) return malformed(err.message, raw);
      throw err;
    }
    const envelope = raw as unknown as PromptEnvelope;
    if (envelope.response_schema.additionalProperties !== false)
      problems.push('response_schema does not set additionalProperties: false (a SHOULD)');
    return { ok: true, envelope, schema: compiled, problems, contract };
  }

  /**
   * "deadline … MUST be in the future relative to the agent's clock at emission time". The status
   * timestamp is that clock at that time, and a replayed or re-read event carries its original
   * one, so deadline ≤ timestamp is a breach however late the rig sees it, and clock skew between
   * agent and rig plays no part. Without a timestamp the rig only has its own clock, on which a
   * replayed prompt's deadline may rightly have passed: that is noted, never held against the agent.
   */
  private deadlineFinding(
    deadline: unknown,
    emittedAt: string | undefined,
  ): { fatal?: string; problem?: string } | undefined {
    if (typeof deadline !== 'string') return undefined;
    const due = Date.parse(deadline);
    const emitted = emittedAt ? Date.parse(emittedAt) : Number.NaN;
    if (!Number.isFinite(due)) return undefined;
    if (Number.isFinite(emitted)) {
      return due > emitted
        ? undefined
        : {
            fatal:
              `deadline ${deadline} is not in the future at emission ` +
              `(the status timestamp, the agent's clock, says ${emittedAt})`,
          };
    }
    if (due <= Date.now()) {
      return {
        problem:
          `deadline ${deadline} has passed by the rig's clock; with no status timestamp the rig cannot tell ` +
          'a deadline past at emission from a replayed prompt or clock skew',
      };
    }
    return undefined;
  }

  /** The check of the envelope a status carries, or undefined when it carries none. */
  fromStatus(status: TaskStatus | undefined): PromptCheck | undefined {
    const metadata = status?.message?.metadata;
    if (!metadata || !Object.hasOwn(metadata, HITL_PROMPT_URI)) return undefined;
    return this.check(metadata[HITL_PROMPT_URI], status?.timestamp || undefined);
  }

  /** The check of the envelope an event's status carries (task snapshot or status update), if any. */
  fromEvent(event: StreamResponse): PromptCheck | undefined {
    return this.fromStatus(statusOfEvent(event));
  }
}
