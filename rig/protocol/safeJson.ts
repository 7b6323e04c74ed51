// JSON parsing for bytes from untrusted peers: keys that could reach an object's prototype are
// refused, not silently kept. V8's JSON.parse is iterative, so depth alone cannot crash it — but
// what comes after it can (JSON.stringify, isDeepStrictEqual, structuredClone and validators all
// recurse), and a document of `{}`s parses into objects twenty times its size. So the rig reads
// what an agent sends through `parseAgentJson`, which measures the text first, in one pass that
// does not recurse, and refuses it before parsing when it nests too deep or would be too heavy.
import secureJson from 'secure-json-parse';

export class UnsafeJsonError extends Error {
  override name = 'UnsafeJsonError';
}

/** A document refused for its shape (too deep, too heavy) before it was parsed. */
export class JsonRefusedError extends UnsafeJsonError {
  override name = 'JsonRefusedError';
}

export function parseUntrustedJson(text: string): unknown {
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    const message = (err as Error).message;
    if (/forbidden prototype property/.test(message)) {
      throw new UnsafeJsonError('JSON contains a "__proto__" or "constructor.prototype" key, which is refused');
    }
    throw new UnsafeJsonError(`body is not valid JSON: ${message}`);
  }
}

/**
 * Deepest container nesting the rig reads from an agent. The hitl-prompt/v1 bound on payloads is
 * 32 levels and the reference agent refuses requests deeper than 128, so a reply that wraps such a
 * payload in a task's history stays far below this.
 */
export const MAX_AGENT_JSON_DEPTH = 512;
/** What one parsed document from an agent may weigh on the rig's heap, estimated (see `jsonTextShape`). */
export const MAX_AGENT_JSON_WEIGHT = 64 * 1024 * 1024;
/** Estimated heap bytes of one parsed object or array beyond its text (header, hidden class, slots). */
const CONTAINER_WEIGHT = 64;

export interface JsonTextShape {
  /** Deepest container nesting (`{}` is 1). */
  depth: number;
  /** Objects and arrays. */
  containers: number;
  /** Estimated heap bytes once parsed: two bytes a character, plus `CONTAINER_WEIGHT` per container. */
  weight: number;
}

/** Measures JSON text without parsing it (strings are skipped; the text need not be valid). */
export function jsonTextShape(text: string): JsonTextShape {
  let depth = 0;
  let deepest = 0;
  let containers = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: to the next quote not escaped by a backslash.
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      containers++;
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return { depth: deepest, containers, weight: 2 * text.length + CONTAINER_WEIGHT * containers };
}

export interface AgentJsonLimits {
  maxDepth?: number;
  maxWeight?: number;
}

/**
 * `parseUntrustedJson` for what an agent sent, depth- and weight-limited before parsing. `what`
 * names the document in the refusal: "the agent's reply nests 100000 levels deep; the rig reads at
 * most 512".
 */
export function parseAgentJson(text: string, what: string, limits: AgentJsonLimits = {}): unknown {
  const maxDepth = limits.maxDepth ?? MAX_AGENT_JSON_DEPTH;
  const maxWeight = limits.maxWeight ?? MAX_AGENT_JSON_WEIGHT;
  const shape = jsonTextShape(text);
  if (shape.depth > maxDepth)
    throw new JsonRefusedError(`${what} nests ${shape.depth} levels deep; the rig reads at most ${maxDepth}`);
  if (shape.weight > maxWeight) {
    throw new JsonRefusedError(
      `${what} holds ${shape.containers} objects and arrays in ${text.length} characters ` +
        `(about ${mib(shape.weight)} MiB once parsed); the rig reads at most ${mib(maxWeight)} MiB`,
    );
  }
  return parseUntrustedJson(text);
}

function mib(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 0);
}
