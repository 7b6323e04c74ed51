// The wire as a scenario compares against it ('a2a-rig' exports this module as `wire`): A2A's task
// types, the two extensions' URIs, error codes and limits, and readers of an event's state and of
// the prompt envelope it carries. Only re-exports: the facts live in rig/protocol.
export type { Task, TaskState, StreamResponse } from '../../protocol/a2aTypes.ts';
export type { PromptEnvelope } from '../../protocol/hitlPrompt.ts';
export type { Decision } from '../../protocol/acceptance.ts';
export { HITL_PROMPT_URI, UUID_PATTERN, MAX_RESPONSE_SCHEMA_BYTES } from '../../protocol/hitlPrompt.ts';
export {
  ACCEPTANCE_URI,
  ACCEPTANCE_CRITERIA_INVALID,
  ACCEPTANCE_DECISION_UNAUTHORIZED,
} from '../../protocol/acceptance.ts';
export { A2A_TASK_NOT_FOUND } from '../../protocol/errorCodes.ts';
export { statusOfEvent, stateOfEvent } from '../../protocol/wireInbound.ts';
export { stateTransitions } from '../../protocol/stateTransitions.ts';
export { requiredExtensions } from '../../client/requiredExtensions.ts';
export { envelopeIn } from './replayChecker.ts';
