// The client's public surface, for the engine: import from here, not from the files behind it.
export {
  A2AClient,
  type A2AClientOptions,
  type CallOptions,
  type CallOutcome,
  type SendOptions,
  type SendResult,
  type StreamOutcome,
} from './a2aClient.ts';
export type { ExchangeEnd, ExchangeObserver, ExchangeTraffic } from './exchangeObserver.ts';
export { STREAM_REFUSAL_PEEK_MS } from './streamCalls.ts';
export {
  AcceptanceCalls,
  type AcceptanceSendOptions,
  type AcceptanceSendOutcome,
  type AcceptanceStreamOutcome,
  type DecideOptions,
  type GateFacts,
} from './acceptanceCalls.ts';
export {
  acceptanceDeclaration,
  acceptanceSkipReason,
  type AcceptanceDeclaration,
  type AcceptanceNeeds,
} from './acceptanceDeclaration.ts';
export {
  ACCEPTANCE_KEYS,
  acceptanceEchoed,
  acceptanceKeysOf,
  gateOf,
  isPendingAcceptance,
  listsAcceptanceWhereNeeded,
  unlistedAcceptanceMessages,
  type AcceptanceGate,
} from './gateReading.ts';
export { decisionMessage, principalOf, withCriteria, type CriteriaOptions } from './acceptanceMessages.ts';
export {
  MAX_ERROR_REASON_CHARS,
  classifyDecision,
  readAcceptanceError,
  type AcceptanceErrorFacts,
  type AcceptanceErrorKind,
  type DecisionKind,
  type DecisionOutcome,
} from './decisionOutcome.ts';
export {
  AGENT_CARD_PATH,
  DiscoveryError,
  agentCardUrls,
  describeAgent,
  discoverAgent,
  readAgent,
  type AgentDescription,
  type HitlDeclaration,
} from './agentDiscovery.ts';
export { classifyAnswer, type AnswerKind, type AnswerOutcome } from './answerOutcome.ts';
export {
  AnswerSynthesizer,
  UNKNOWN_PROPERTY,
  type InvalidAnswer,
  type InvalidKind,
  type SynthesizedAnswers,
  type Synthesis,
} from './answerSynthesizer.ts';
export { EnvelopeGuard, MAX_ENVELOPE_JSON_DEPTH, type PromptCheck } from './envelopeGuard.ts';
export {
  EventHistory,
  type ConnectionKind,
  type ConnectionRecord,
  type HistoryEntry,
  type HistoryFilter,
} from './eventHistory.ts';
export { a2aRequestHeaders, accessRequestHeaders, assertBearerToken } from './a2aHeaders.ts';
export type { Credentials, TargetAccess } from './credentials.ts';
export { JsonRpcTransport } from './jsonRpcTransport.ts';
export { DEFAULT_TRANSPORT_LIMITS, type ExchangeMeta, type TransportLimits } from './transportTypes.ts';
export { answerMessage, userMessage, type OutgoingMessage } from './outgoingMessage.ts';
export { WaitTimeoutError, type ReceivedEvent } from './receivedEvents.ts';
export { DEFAULT_REPLAY_LIMITS, ReplaySocket, type ReplayEnd, type ReplayLimits } from './replaySocket.ts';
export type { RpcErrorBody } from './rpcReply.ts';
export { TaskEventStream, describeEnd, type StreamEnd } from './taskEventStream.ts';
export { TransportError, isReachFailure, type TransportFailure } from './transportError.ts';
export { watchTask, type Sighting, type WatchAct, type WatchOptions, type Watched } from './watchTask.ts';
