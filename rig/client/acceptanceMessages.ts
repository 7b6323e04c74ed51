// Messages the rig sends for the acceptance-criteria extension, in canonical (v1.0) shape: the
// creating message with the criteria (and who else may decide), and the accept/reject decision.
// Any message carrying one of the extension's metadata keys lists ACCEPTANCE_URI in `extensions`
// (a MUST of the draft), so the rig's own traffic never breaks the rule its scenarios check.
import { createHash } from 'node:crypto';
import type { JsonObject } from '../protocol/a2aTypes.ts';
import {
  ACCEPTANCE_URI,
  ANONYMOUS_PRINCIPAL,
  CRITERIA_KEY,
  DECIDERS_KEY,
  DECISION_KEY,
} from '../protocol/acceptance.ts';
import type { OutgoingMessage } from './outgoingMessage.ts';

export interface CriteriaOptions {
  /**
   * The AcceptanceCriteria put under `metadata[CRITERIA_KEY]`. Typed `unknown` on purpose: hostile
   * and malformed criteria are sent as given. Left out, the agent applies its defaults.
   */
  criteria?: unknown;
  /** Principals (sha256 hex of their bearer tokens, see `principalOf`) the creator names as deciders. */
  deciders?: readonly string[];
}

function withUri(extensions: readonly string[] | undefined): string[] {
  const list = [...(extensions ?? [])];
  return list.includes(ACCEPTANCE_URI) ? list : [...list, ACCEPTANCE_URI];
}

/** The principal an agent derives from a bearer token: its SHA-256 in hex, or `anonymous` without one. */
export function principalOf(bearerToken?: string): string {
  return bearerToken === undefined
    ? ANONYMOUS_PRINCIPAL
    : createHash('sha256').update(bearerToken, 'utf8').digest('hex');
}

/** The creating message with the criteria (and deciders) in its metadata; unchanged keys are kept. */
export function withCriteria(message: OutgoingMessage, options: CriteriaOptions = {}): OutgoingMessage {
  const metadata: JsonObject = { ...message.metadata };
  if (options.criteria !== undefined) metadata[CRITERIA_KEY] = options.criteria;
  if (options.deciders !== undefined) metadata[DECIDERS_KEY] = [...options.deciders];
  const carries = CRITERIA_KEY in metadata;
  return {
    ...message,
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    ...(carries ? { extensions: withUri(message.extensions) } : {}),
  };
}

/**
 * A decision: a user message to the task (same taskId and contextId) whose metadata holds
 * `{[DECISION_KEY]: decision}`. The feedback text rides in the parts and lands in the task's
 * history verbatim; without one the part says the action, since A2A 0.3 stacks refuse a message
 * without parts. `decision` is `unknown` so malformed decisions can be sent as given.
 */
export function decisionMessage(
  taskId: string,
  contextId: string | undefined,
  decision: unknown,
  feedback?: string,
): OutgoingMessage {
  const action = typeof decision === 'object' && decision !== null ? (decision as JsonObject).action : undefined;
  const text = feedback ?? (typeof action === 'string' ? action.slice(0, 64) : 'decision');
  return {
    taskId,
    ...(contextId ? { contextId } : {}),
    parts: [{ text }],
    metadata: { [DECISION_KEY]: decision },
    extensions: [ACCEPTANCE_URI],
  };
}
