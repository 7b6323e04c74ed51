// The types of what a scenario's context members take and return ('a2a-rig' exports this module as
// `types`, e.g. `types.ReplaySocket`): for a helper of a scenario's own that names them. Only
// type re-exports; ScenarioContext itself is exported by name.
export type {
  AcceptanceKit,
  AgentFacts,
  AnswerablePrompt,
  FaultHelpers,
  GateOptions,
  NewClientOptions,
  UsablePrompt,
} from './scenarioContextInterface.ts';
export type { GateOpening } from './gateOpening.ts';
export type { ExpectNoneOptions } from './expectNone.ts';
export type { OpenPrompt, PromptAttempt, PromptOptions } from './promptOpener.ts';
export type { RoundTripChoice, AcceptanceRoundTripChoice } from './loadIterations.ts';
export type { ObservedAnswer } from './resumeObserver.ts';
export type { ReplayFinding } from './replayChecker.ts';
export type { AnswerFlood } from './answerFlood.ts';
export type { TaskListing } from './taskListing.ts';
export type {
  Iteration,
  IterationContext,
  IterationEnd,
  OpenModelOptions,
  OpenModelResult,
} from '../../load/openModelExecutor.ts';
export type { LatencyHistogram, LatencySummary } from '../../metrics/latencyHistogram.ts';
export type { RigHealth } from '../../metrics/rigHealth.ts';
export type { CheckResult, FaultEvent, SeriesPoint, Verdict } from '../../results/runResult.ts';
export type { CheckLevel } from '../../results/checkResult.ts';
export type {
  ToxicSpec,
  ToxicKind,
  ToxicStream,
  ToxicAttributes,
  AppliedToxic,
  FaultProxy,
} from '../../proxy/faultControl.ts';
export type {
  AnswerOutcome,
  SendResult,
  SynthesizedAnswers,
  TaskEventStream,
  ReplaySocket,
  AgentDescription,
} from '../../client/index.ts';
