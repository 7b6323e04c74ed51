// Builds the hitl-prompt/v1 envelope for a prompt step, or says why the step cannot be emitted.
// Every check here is a MUST of the spec's §Prompt envelope or S-2 on the agent side, and the
// finished envelope is held against the published envelope.schema.json before anyone sees it.
import {
  MAX_PROMPT_CHARS,
  MAX_RESPONSE_SCHEMA_BYTES,
  RESPONDER_PATTERN,
  promptEnvelopeSchema,
  UUID_PATTERN,
  serializedSchemaBytes,
  type PromptEnvelope,
} from '../protocol/hitlPrompt.ts';
import { SchemaRejectedError, type GuardedValidator } from '../protocol/guardedValidator.ts';
import type { PromptStep } from './script.ts';

export type EnvelopeOutcome = { ok: true; envelope: PromptEnvelope } | { ok: false; reason: string };

export interface EnvelopeBuildOptions {
  promptId: string;
  now: Date;
  validator: GuardedValidator;
  /** The emit-oversized-schema fault skips the 64 KiB bound. */
  allowOversizedSchema: boolean;
  /** The prompt-id-v7 fault: a prompt_id of UUID version 6-8 passes the schema's 1-5 pattern. */
  allowNewerUuid?: boolean;
}

/** The envelope schema's JSON, once: the validator's cache key, which every prompt step looked up. */
const ENVELOPE_SCHEMA_KEY = JSON.stringify(promptEnvelopeSchema);

function newerUuid(id: string, options: { allowNewerUuid?: boolean }): boolean {
  return options.allowNewerUuid === true && UUID_PATTERN.test(id);
}

export function buildPromptEnvelope(step: PromptStep['prompt'], options: EnvelopeBuildOptions): EnvelopeOutcome {
  const { text, response_schema: schema, deadline_ms: deadlineMs, allowed_responders: responders } = step;
  if (text.length === 0) return { ok: false, reason: 'prompt text must not be empty' };
  if (text.length > MAX_PROMPT_CHARS) {
    return { ok: false, reason: `prompt text has ${text.length} characters; at most ${MAX_PROMPT_CHARS} are allowed` };
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { ok: false, reason: 'response_schema must be a JSON object' };
  }
  if ((schema as Record<string, unknown>).type !== 'object') {
    return { ok: false, reason: 'response_schema must declare "type": "object" at the top level' };
  }
  const bytes = serializedSchemaBytes(schema);
  if (bytes > MAX_RESPONSE_SCHEMA_BYTES && !options.allowOversizedSchema) {
    return {
      ok: false,
      reason:
        `response_schema is ${bytes} bytes serialized; ` +
        `hitl-prompt/v1 S-2 allows at most ${MAX_RESPONSE_SCHEMA_BYTES}`,
    };
  }
  if (responders !== undefined) {
    if (!Array.isArray(responders) || responders.some((r) => typeof r !== 'string' || !RESPONDER_PATTERN.test(r))) {
      return { ok: false, reason: `allowed_responders entries must match ${RESPONDER_PATTERN.source}` };
    }
  }
  try {
    // Compiling now rejects unusable schemas before any client sees them, and warms the cache
    // so the answer path never compiles.
    options.validator.compile(schema);
  } catch (err) {
    if (err instanceof SchemaRejectedError) return { ok: false, reason: err.message };
    throw err;
  }
  const envelope: PromptEnvelope = {
    prompt_id: options.promptId,
    prompt: text,
    response_schema: schema as Record<string, unknown>,
  };
  if (deadlineMs !== undefined) {
    // "MUST be in the future relative to the agent's clock at emission time".
    if (!(deadlineMs > 0))
      return {
        ok: false,
        reason: `deadline_ms must be positive (the deadline must be in the future at emission), not ${deadlineMs}`,
      };
    envelope.deadline = new Date(options.now.getTime() + deadlineMs).toISOString();
  }
  if (responders !== undefined) envelope.allowed_responders = responders as string[];
  // The contract as published (response_schema reduced to the top-level type it constrains; its
  // depth and size are checked above).
  // The prompt-id-v7 fault lets through a prompt_id of UUID version 6-8 (RFC 9562), which only the
  // schema's pattern refuses; the correct agent holds its envelopes to the pattern as published.
  const breaches = options.validator
    .compile(promptEnvelopeSchema, ENVELOPE_SCHEMA_KEY)
    .validate({ ...envelope, response_schema: { type: 'object' } })
    .filter((e) => !(e.path === '/prompt_id' && e.keyword === 'pattern' && newerUuid(envelope.prompt_id, options)));
  if (breaches.length > 0) {
    const shown = breaches.map((e) => `${e.path || '/'} ${e.message}`).join('; ');
    return { ok: false, reason: `the envelope would break envelope.schema.json: ${shown}` };
  }
  return { ok: true, envelope };
}
