// Who may decide an acceptance gate. A request's principal is the SHA-256 (lowercase hex) of its
// `Authorization: Bearer <token>` token, or `anonymous` without an Authorization header. The task's
// creator may decide, and so may any principal whose digest the creating message names under
// `metadata['a2a-rig/deciders']` (at most MAX_DECIDERS). A task created anonymously can be decided
// only anonymously: a deployment without tokens has no authorization to offer.
//
// A malformed Authorization header (another scheme, an empty or ill-formed token, the header
// repeated) is REFUSED with ACCEPTANCE_DECISION_UNAUTHORIZED rather than read as anonymous: a caller
// that meant to present a credential and got it wrong must not be silently downgraded to the
// anonymous principal, which decides every anonymously created task. So the agent should only ask
// for the principal of requests that use the gate (creating an activated task, deciding).
import { createHash } from 'node:crypto';
import { A2AError } from '../protocol/errorCodes.ts';
import {
  ACCEPTANCE_CRITERIA_INVALID,
  ACCEPTANCE_DECISION_UNAUTHORIZED,
  ACCEPTANCE_URI,
  ANONYMOUS_PRINCIPAL,
  DECIDERS_KEY,
} from '../protocol/acceptance.ts';

/** Named deciders per task, besides its creator. */
export const MAX_DECIDERS = 16;
/** Bearer tokens longer than this are refused (Node already caps the whole header block at 16 KiB). */
export const MAX_BEARER_TOKEN_CHARS = 4096;

const DIGEST = /^[0-9a-f]{64}$/;
// RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

function unauthorized(reason: string): A2AError {
  return new A2AError(ACCEPTANCE_DECISION_UNAUTHORIZED, 'acceptance_decision_unauthorized', {
    extension: ACCEPTANCE_URI,
    reason,
  });
}

/** The principal of a request from its Authorization header (as Node gives it: string, or absent). */
export function principalOf(authorization: string | string[] | undefined): string {
  if (authorization === undefined) return ANONYMOUS_PRINCIPAL;
  if (Array.isArray(authorization)) {
    if (authorization.length !== 1) throw unauthorized('the request carries more than one Authorization header');
    return principalOf(authorization[0]);
  }
  if (authorization.length > MAX_BEARER_TOKEN_CHARS + 16) {
    throw unauthorized(`the Authorization header is longer than ${MAX_BEARER_TOKEN_CHARS} characters`);
  }
  const match = BEARER.exec(authorization);
  if (!match) throw unauthorized('the Authorization header is not "Bearer <token>" (RFC 6750 token characters)');
  return createHash('sha256').update(match[1], 'utf8').digest('hex');
}

/**
 * The extra deciders the creating message names (`metadata[DECIDERS_KEY]`), [] when it names none.
 * Malformed → ACCEPTANCE_CRITERIA_INVALID: the list is part of how the gate is set up.
 */
export function decidersOf(metadata: unknown): string[] {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return [];
  if (!Object.prototype.hasOwnProperty.call(metadata, DECIDERS_KEY)) return [];
  const raw = (metadata as Record<string, unknown>)[DECIDERS_KEY];
  const invalid = (reason: string) =>
    new A2AError(ACCEPTANCE_CRITERIA_INVALID, 'acceptance_criteria_invalid', { extension: ACCEPTANCE_URI, reason });
  if (!Array.isArray(raw)) throw invalid(`metadata["${DECIDERS_KEY}"] must be an array of SHA-256 hex digests`);
  if (raw.length > MAX_DECIDERS)
    throw invalid(`metadata["${DECIDERS_KEY}"] names ${raw.length} deciders; at most ${MAX_DECIDERS} are allowed`);
  raw.forEach((d, i) => {
    if (typeof d !== 'string' || !DIGEST.test(d)) {
      throw invalid(`metadata["${DECIDERS_KEY}"][${i}] is not a lowercase SHA-256 hex digest (64 characters 0-9a-f)`);
    }
  });
  return [...new Set(raw as string[])];
}

/** Whether `principal` may decide a task created by `creator` that names `deciders`. */
export function mayDecide(creator: string, deciders: readonly string[], principal: string): boolean {
  // Digests are compared in the clear: learning one gives nothing without a preimage (the token).
  return principal === creator || (principal !== ANONYMOUS_PRINCIPAL && deciders.includes(principal));
}
