// Reads the acceptance extension's decision from a message's metadata (`{EXT}/decision`). The
// decision is untrusted input: it is a closed object, checked field by field, and anything that is
// not exactly `{action:'accept'}` or `{action:'reject', reason, retry?}` is refused with
// ACCEPTANCE_DECISION_INVALID before the agent looks at the task's state.
import { A2AError } from '../protocol/errorCodes.ts';
import {
  ACCEPTANCE_DECISION_INVALID,
  ACCEPTANCE_URI,
  DECISION_KEY,
  REJECTION_REASONS,
  type Decision,
  type RejectionReason,
} from '../protocol/acceptance.ts';

function invalid(reason: string): A2AError {
  return new A2AError(ACCEPTANCE_DECISION_INVALID, 'acceptance_decision_invalid', {
    extension: ACCEPTANCE_URI,
    reason,
  });
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A client-supplied string shown in a one-line reason: quoted, and cut so it cannot flood the error. */
export function shown(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return JSON.stringify(text.length > 64 ? `${text.slice(0, 61)}...` : text);
}

/** True when the message metadata carries a decision key at all (valid or not). */
export function hasDecision(metadata: unknown): boolean {
  return isPlainObject(metadata) && Object.prototype.hasOwnProperty.call(metadata, DECISION_KEY);
}

/** The decision of `metadata[DECISION_KEY]`; throws ACCEPTANCE_DECISION_INVALID for anything malformed. */
export function readDecision(raw: unknown): Decision {
  if (!isPlainObject(raw)) return fail('decision must be a JSON object');
  for (const key of Object.keys(raw)) {
    if (key !== 'action' && key !== 'reason' && key !== 'retry')
      return fail(`decision has an unknown field ${shown(key)}`);
  }
  const { action, reason, retry } = raw;
  if (action === 'accept') {
    if (reason !== undefined) return fail('decision.reason is only allowed with action "reject"');
    if (retry !== undefined) return fail('decision.retry is only allowed with action "reject"');
    return { action: 'accept' };
  }
  if (action !== 'reject') {
    return fail(
      action === undefined
        ? 'decision.action is required ("accept" or "reject")'
        : `decision.action ${shown(action)} is not "accept" or "reject"`,
    );
  }
  if (reason === undefined)
    return fail(`decision.reason is required with action "reject" (one of ${REJECTION_REASONS.join(', ')})`);
  if (typeof reason !== 'string' || !(REJECTION_REASONS as readonly string[]).includes(reason)) {
    return fail(`decision.reason ${shown(reason)} is not one of ${REJECTION_REASONS.join(', ')}`);
  }
  if (retry !== undefined && typeof retry !== 'boolean')
    return fail(`decision.retry must be a boolean, not ${shown(retry)}`);
  return retry === undefined
    ? { action: 'reject', reason: reason as RejectionReason }
    : { action: 'reject', reason: reason as RejectionReason, retry };
}

function fail(reason: string): never {
  throw invalid(reason);
}
