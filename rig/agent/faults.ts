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
  'prompt-id-v7':
    "prompt_ids are version-7 UUIDs (RFC 9562), as the extension authors' executor mints them: a valid UUID the " +
    "contract schema's pattern (versions 1-5) predates, so cf5 only warns",
  'no-extension-echo': 'activated extensions are not echoed in the A2A-Extensions response header',
  'envelope-extra-field': 'the prompt envelope carries an extra, UI-specific field ("render_hint": "modal")',
  'envelope-without-activation': 'the prompt envelope is emitted even when the request did not activate the extension',
  'declare-required-extension': 'the agent card declares hitl-prompt/v1 with "required": true (the spec says false)',
  'validation-errors-elsewhere':
    'a 422 carries validation_errors inside a google.rpc ErrorInfo in error.data, ' +
    'as an SDK renders it, not as the contract shows',
  'rejection-data-bare':
    "a 422's error.data is only {validation_errors}: no extension, no prompt_id " +
    "(off the contract example's shape; no MUST broken, so cf3 only warns)",
  'rejection-detail-only':
    "a 422's error.data is only {detail}, a sentence, with no validation_errors array " +
    "(as the extension authors' executor answers)",
  'volatile-outbox': 'events are kept in memory only: a restart loses them while seq numbering goes on',
  'answer-202': 'a valid answer is accepted (the task resumes) but its reply is HTTP 202, where CF-2 says 200',
  'silent-resubscribe':
    'a subscription to a task parked in INPUT_REQUIRED answers 200 and stays open, but sends no snapshot: ' +
    'the open prompt is not replayed',
  // The DoS mitigations (issue 14; proven in test/agent.dos*.test.ts): one per mitigation.
  'no-body-limit': 'no Content-Length pre-check and no size bound on request bodies: every body is read whole (no 413)',
  'backtracking-patterns':
    'response_schema `pattern` is compiled with native backtracking RegExp ' +
    'instead of the linear (RE2) engine, unmetered',
  'parse-errors-500':
    'a request body that is not JSON or not UTF-8 gets HTTP 500 instead of the parse error (400 / -32700)',
  'no-header-limit': "request header blocks up to 64 MiB are accepted (node's 16 KiB bound, 431, is raised)",
  'no-request-timeouts':
    'no headers or request timeout: a client that trickles headers, stalls its body ' +
    'or never sends a byte keeps its socket',
  'no-connection-limit': 'no bound on open connections, per client IP or in total (no socket is shed)',
  'unbounded-streams':
    'no per-task or total bound on open event streams and no bound on the bytes queued for a stream reader',
  // The acceptance-criteria extension (gateLifecycle.ts, decisionMessages.ts): one per guarantee.
  'acceptance-completes-without-waiting': 'activated client/human-evaluated tasks complete without a pending state',
  'acceptance-accepts-second-decision':
    'a decision for an already decided task is applied again (200) instead of refused (409)',
  'acceptance-forgets-rejections': 'the rejection count lives in memory only: a restart resets it',
  'acceptance-skips-criteria-validation':
    'criteria (artifactSchema included) are not validated on the creating request',
  'acceptance-parks-before-artifacts': "the pending status is committed before the attempt's artifacts",
  'acceptance-ignores-authorization': 'any principal may decide any task',
  'acceptance-ignores-max-rejections': 'rejections past maxRejections retry forever',
  'acceptance-ignores-retry-false': 'a reject with retry: false retries like a plain reject',
  'acceptance-no-timeout': 'a pending task never fails at acceptanceTimeoutSeconds',
  'acceptance-drops-feedback': "a rejection's feedback message is not put in the task history",
} as const;

export type FaultName = keyof typeof FAULTS;
/** The acceptance-criteria extension's flags (proven in test/agent.acceptanceFaults.test.ts). */
export type AcceptanceFaultName = Extract<FaultName, `acceptance-${string}`>;

/** The DoS-mitigation flags (issue 14), proven in test/agent.dosFaults.test.ts rather than agent.faults*.test.ts. */
export const DOS_FAULTS = [
  'no-body-limit',
  'backtracking-patterns',
  'parse-errors-500',
  'no-header-limit',
  'no-request-timeouts',
  'no-connection-limit',
  'unbounded-streams',
] as const satisfies readonly FaultName[];
export type DosFaultName = (typeof DOS_FAULTS)[number];

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}

/** The one line for a fault name nobody knows, naming the flag it came in (`--fault`, `--agent-fault`). */
export function unknownFaultMessage(flag: string, value: string): string {
  return `unknown ${flag} "${value}"; known faults: ${Object.keys(FAULTS).join(', ')}`;
}

export type FaultSet = ReadonlySet<FaultName>;
