// The acceptance-criteria extension (experimental-ext-acceptance v1) as data: its URI, the three
// metadata keys, the shapes of criteria and decisions, the closed reason enum, the extension's
// error codes, and the finite defaults this project chose where the draft leaves a value open.
// Both the reference agent and the rig's client read from here; it imports nothing of ours.

/** The extension's URI, which is also its version: a breaking change gets a new URI. */
export const ACCEPTANCE_URI = 'https://github.com/a2aproject/experimental-ext-acceptance/tree/main/v1';

/** On Task.metadata or the creating Message.metadata: the AcceptanceCriteria. */
export const CRITERIA_KEY = `${ACCEPTANCE_URI}/criteria`;
/** On TaskStatus.message.metadata: `true` while the task waits for a decision. */
export const PENDING_KEY = `${ACCEPTANCE_URI}/pendingAcceptance`;
/** On the accept/reject Message.metadata: the Decision. */
export const DECISION_KEY = `${ACCEPTANCE_URI}/decision`;

export const EVALUATORS = ['client', 'agent', 'human'] as const;
export type Evaluator = (typeof EVALUATORS)[number];

export const REJECTION_REASONS = [
  'SCHEMA_MISMATCH',
  'MISSING_ARTIFACT',
  'QUALITY_THRESHOLD_NOT_MET',
  'OUT_OF_SCOPE',
  'OTHER',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export interface AcceptanceCriteria {
  description?: string;
  /** JSON Schema every `application/json` (data) artifact part must satisfy. Untrusted. */
  artifactSchema?: Record<string, unknown>;
  /** Artifact.name values that must be present. */
  requiredArtifacts?: string[];
  /** Default `client`. */
  evaluator?: Evaluator;
  acceptanceTimeoutSeconds?: number;
  maxRejections?: number;
}

export type Decision = { action: 'accept' } | { action: 'reject'; reason: RejectionReason; retry?: boolean };

/** The card entry's params (declaration). */
export interface AcceptanceParams {
  evaluators: Evaluator[];
  supportsArtifactSchema: boolean;
  maxRejectionsCap: number;
}

// Finite defaults and caps (the draft: "absent = a finite server default", never unbounded).
/** maxRejections when the criteria give none. */
export const DEFAULT_MAX_REJECTIONS = 3;
/** The largest maxRejections a client may ask for (declared as params.maxRejectionsCap). */
export const MAX_REJECTIONS_CAP = 10;
/** acceptanceTimeoutSeconds when the criteria give none: one day. */
export const DEFAULT_ACCEPTANCE_TIMEOUT_S = 86_400;
/** The longest acceptanceTimeoutSeconds a client may ask for: seven days. */
export const MAX_ACCEPTANCE_TIMEOUT_S = 604_800;
/** requiredArtifacts: at most this many names, each at most this long. */
export const MAX_REQUIRED_ARTIFACTS = 64;
export const MAX_ARTIFACT_NAME_CHARS = 256;
/** description: at most this many characters. */
export const MAX_DESCRIPTION_CHARS = 4096;

// Extension-scoped errors. JSON-RPC codes in the implementation-defined server range, each with
// the HTTP status it maps to; `error.data` is `{extension: ACCEPTANCE_URI, ...}`.
/** Malformed or hostile criteria on the activating request: the task is not created. */
export const ACCEPTANCE_CRITERIA_INVALID = -32040;
/** Agent-evaluated criteria not met: the task is FAILED with this in its status message. */
export const ACCEPTANCE_CRITERIA_NOT_MET = -32041;
/** A decision for a task that is not pending acceptance (already decided, or not yet pending). */
export const ACCEPTANCE_DECISION_CONFLICT = -32042;
/** A decision from a caller not entitled to decide this task. */
export const ACCEPTANCE_DECISION_UNAUTHORIZED = -32043;
/** A malformed decision (unknown action, reject without a reason from the enum, ...). */
export const ACCEPTANCE_DECISION_INVALID = -32044;

export const ACCEPTANCE_ERROR_MESSAGES: Readonly<Record<number, string>> = {
  [ACCEPTANCE_CRITERIA_INVALID]: 'acceptance_criteria_invalid',
  [ACCEPTANCE_CRITERIA_NOT_MET]: 'acceptance_criteria_not_met',
  [ACCEPTANCE_DECISION_CONFLICT]: 'acceptance_decision_conflict',
  [ACCEPTANCE_DECISION_UNAUTHORIZED]: 'acceptance_decision_unauthorized',
  [ACCEPTANCE_DECISION_INVALID]: 'acceptance_decision_invalid',
};

export const ACCEPTANCE_HTTP_STATUS: Readonly<Record<number, number>> = {
  [ACCEPTANCE_CRITERIA_INVALID]: 400,
  [ACCEPTANCE_CRITERIA_NOT_MET]: 422,
  [ACCEPTANCE_DECISION_CONFLICT]: 409,
  [ACCEPTANCE_DECISION_UNAUTHORIZED]: 403,
  [ACCEPTANCE_DECISION_INVALID]: 400,
};

/**
 * Who may decide. The principal of a request is the SHA-256 (hex) of its `Authorization: Bearer`
 * token, or `anonymous` without one. The task's creator may decide; so may any principal whose
 * digest the creating message lists under this metadata key. A task created anonymously can be
 * decided only anonymously (a deployment without tokens has no authorization to offer).
 */
export const DECIDERS_KEY = 'a2a-rig/deciders';
export const ANONYMOUS_PRINCIPAL = 'anonymous';
