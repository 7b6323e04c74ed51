// hitl-prompt/v1 as data: the URI, the prompt envelope and its JSON Schema, the rejection example, and the
// limits the spec makes normative. Both the agent and the rig's client read from here.
import { readFileSync } from 'node:fs';

export const HITL_PROMPT_URI = 'https://agentic-sandbox.aiwg.io/extensions/hitl-prompt/v1';
/** Key of the response envelope in the answering Message's metadata. */
export const HITL_RESPONSE_KEY = 'hitl_response_for';

/** S-2: a serialized response_schema may be at most this many bytes (exactly 64 KiB is allowed). */
export const MAX_RESPONSE_SCHEMA_BYTES = 65_536;
/** S-2: nesting bound for untrusted schemas and for payloads validated against them. */
export const MAX_NESTING_DEPTH = 32;
/** S-2: the time budget for validating one payload against an untrusted schema. */
export const VALIDATION_BUDGET_MS = 250;
/**
 * The time budget for compiling an untrusted schema (once per schema: validators are cached).
 * Larger than the validation budget because a legitimate 64 KiB schema takes a good part of a
 * second to compile on a loaded two-core machine; a hostile one is still cut off.
 */
export const COMPILE_BUDGET_MS = 1000;
/** The spec's SHOULD for prompt text length. */
export const MAX_PROMPT_CHARS = 4096;

export const RESPONDER_PATTERN = /^(any|specific:[^\s]+|consensus:[1-9][0-9]*)$/;
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export interface PromptEnvelope {
  prompt_id: string;
  prompt: string;
  response_schema: Record<string, unknown>;
  deadline?: string;
  allowed_responders?: string[];
}

export interface ValidationErrorEntry {
  /** JSON Pointer into the payload, as in the spec's examples/invalid-response-422.json. */
  path: string;
  keyword: string;
  message: string;
}

/**
 * The published contract files (rig/protocol/contracts/hitl-prompt-v1/, copied unchanged from the
 * extension's repository), read as they are: no hand transcription can drift from them.
 */
function contract(file: string): Readonly<Record<string, unknown>> {
  const text = readFileSync(new URL(`./contracts/hitl-prompt-v1/${file}`, import.meta.url), 'utf8');
  return deepFreeze(JSON.parse(text) as Record<string, unknown>);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** envelope.schema.json: the prompt envelope. */
export const promptEnvelopeSchema = contract('envelope.schema.json');

/** examples/invalid-response-422.json: the rejection of an invalid answer, as the contract shows it. */
export const invalidResponseExample = contract('examples/invalid-response-422.json') as {
  response: {
    httpStatus: number;
    jsonrpcError: {
      code: number;
      message: string;
      data: { extension: string; prompt_id: string; validation_errors: ValidationErrorEntry[] };
    };
  };
};

/** Bytes of the serialized schema, the measure S-2 uses. */
export function serializedSchemaBytes(schema: unknown): number {
  return Buffer.byteLength(JSON.stringify(schema), 'utf8');
}
