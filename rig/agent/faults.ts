// Deliberate faults: each flag breaks exactly one guarantee, so the rig can prove its checks fail.

export const FAULTS = {
  'accept-duplicates': 'a second answer to an already answered prompt is accepted (200) and emits another transition',
  'skip-validation': 'answers are not validated against response_schema (invalid payloads are accepted)',
  'keep-input-required': 'a valid answer is accepted but the task never leaves INPUT_REQUIRED',
  'slow-resume': 'a valid answer is accepted but the task leaves INPUT_REQUIRED only 1.5 s later',
  'emit-oversized-schema': 'response_schema over 64 KiB is emitted instead of failing the task',
  'no-depth-limit': 'no nesting bound on schemas or payloads (deep input reaches the validator and the store)',
  'drop-replay': 'the WebSocket replay skips the second stored event of the replayed range',
  'reorder-replay': 'the WebSocket replay sends the first two stored events of the range swapped',
  'reuse-prompt-id': 'every prompt reuses the first prompt_id this process issued (breaks S-5)',
  'no-extension-echo': 'activated extensions are not echoed in the A2A-Extensions response header',
  'envelope-extra-field': 'the prompt envelope carries an extra, UI-specific field ("render_hint": "modal")',
  'envelope-without-activation': 'the prompt envelope is emitted even when the request did not activate the extension',
  'declare-required-extension': 'the agent card declares hitl-prompt/v1 with "required": true (the spec says false)',
  'validation-errors-elsewhere': 'a 422 carries validation_errors inside a google.rpc ErrorInfo in error.data, as an SDK renders it, not as the contract shows',
  'volatile-outbox': 'events are kept in memory only: a restart loses them while seq numbering goes on',
  // The acceptance-criteria extension (acceptanceGate.ts, acceptanceDecisions.ts): one per guarantee.
  'acceptance-completes-without-waiting': 'activated client/human-evaluated tasks complete without a pending state',
  'acceptance-accepts-second-decision': 'a decision for an already decided task is applied again (200) instead of refused (409)',
  'acceptance-forgets-rejections': 'the rejection count lives in memory only: a restart resets it',
  'acceptance-skips-criteria-validation': 'criteria (artifactSchema included) are not validated on the creating request',
  'acceptance-parks-before-artifacts': 'the pending status is committed before the attempt\'s artifacts',
  'acceptance-ignores-authorization': 'any principal may decide any task',
  'acceptance-ignores-max-rejections': 'rejections past maxRejections retry forever',
  'acceptance-ignores-retry-false': 'a reject with retry: false retries like a plain reject',
  'acceptance-no-timeout': 'a pending task never fails at acceptanceTimeoutSeconds',
  'acceptance-drops-feedback': 'a rejection\'s feedback message is not put in the task history',
} as const;

export type FaultName = keyof typeof FAULTS;
/** The acceptance-criteria extension's flags (proven in test/agentAcceptanceFaults.test.ts). */
export type AcceptanceFaultName = Extract<FaultName, `acceptance-${string}`>;

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}

export type FaultSet = ReadonlySet<FaultName>;
