// What a scenario imports: `import { defineScenario } from 'a2a-rig'`, the one module a scenario
// file needs (besides rig/protocol's wire types and codes, which it may also import directly; see
// test/scenarios.imports.test.ts). A scenario file in any directory (`a2a-rig run --scenarios DIR`)
// gets this module, the running rig's own (see engine/scenarioModuleHooks.mjs), and so do the
// built-in ones (package.json "exports" names it), so defineScenario, ScenarioSkipped and the
// constants are the very ones the engine checks against. Everything a scenario does goes through
// the ScenarioContext it is given (ctx.client, ctx.check, ctx.latency, ctx.faults, ctx.log, ...)
// and the helpers below.

// Defining a scenario.
export { defineScenario, everyProfile, PROFILES } from './engine/kit/defineScenario.ts';
export type { ScenarioDefinition, ScenarioNeeds, ProfileName } from './engine/kit/defineScenario.ts';
export type { RecordedMeasures, CounterKind } from './results/metricNames.ts';
export type { FaultName, FaultCatch } from './engine/kit/faultCatches.ts';

// What `run(ctx, params)` is given, and what its methods take and return.
export type {
  ScenarioContext,
  FaultHelpers,
  AgentFacts,
  UsablePrompt,
  AnswerablePrompt,
  NewClientOptions,
} from './engine/kit/scenarioContextInterface.ts';
export { ScenarioSkipped } from './engine/scenarioContext.ts';
export type { OpenPrompt, PromptAttempt, PromptOptions } from './engine/kit/promptOpener.ts';
export type { RoundTripChoice, AcceptanceRoundTripChoice } from './engine/kit/loadIterations.ts';
export { recordResume, type ObservedAnswer } from './engine/kit/resumeObserver.ts';
export type { ReplayFinding } from './engine/kit/replayChecker.ts';
export type { MixedRunPlan, MixedRunResult, Phase, PlannedAttack } from './engine/dos/attackRun.ts';
export type { AnswerFlood } from './engine/kit/answerFlood.ts';
export type {
  Iteration,
  IterationContext,
  IterationEnd,
  OpenModelOptions,
  OpenModelResult,
} from './load/openModelExecutor.ts';
export type { LatencyHistogram, LatencySummary } from './metrics/latencyHistogram.ts';
export type { RigHealth } from './metrics/rigHealth.ts';
export type { CheckResult, FaultEvent, SeriesPoint, Verdict } from './results/runResult.ts';
export type { CheckLevel, CheckOptions } from './results/checkResult.ts';
export type {
  ToxicSpec,
  ToxicKind,
  ToxicStream,
  ToxicAttributes,
  AppliedToxic,
  FaultProxy,
} from './proxy/faultControl.ts';
export type {
  A2AClient,
  AnswerOutcome,
  SendResult,
  SynthesizedAnswers,
  TaskEventStream,
  ReplaySocket,
  AgentDescription,
} from './client/index.ts';

// Reading what came back, in the words every scenario uses.
export { describeOutcome, describeAttempt } from './engine/kit/outcomeText.ts';
export { envelopeIn } from './engine/kit/replayChecker.ts';
export { taskListed, type TaskListing } from './engine/kit/taskListing.ts';
export { requiredExtensions } from './client/requiredExtensions.ts';
export { statusOfEvent, stateOfEvent } from './protocol/wireInbound.ts';
export { stateTransitions } from './protocol/stateTransitions.ts';

// The acceptance-criteria scenarios' moves: open a gated task, wait for it to settle, decide.
export {
  SETTLE_MS,
  attemptName,
  gatedScript,
  requireGate,
  openGate,
  pendingGate,
  describeOpening,
  settle,
  pendingOrTerminal,
  decideAndSettle,
  isTerminal,
  stateOf,
  artifactNames,
  historyHasText,
  freshContextId,
  tasksInContext,
  replayShape,
  type GateOpening,
} from './engine/kit/acceptanceMoves.ts';

// Open-model load schedules for ctx.runOpenModel({ arrivals, ... }).
export { constantArrivals, steppedArrivals, geometricRates } from './load/arrivalSchedule.ts';
export { CAPACITY_SERIES, capacityCheckName, sloBreaches, type CapacitySlo } from './load/capacitySlo.ts';
export {
  judgeStep,
  kneeText,
  perSecond,
  searchKnee,
  stepCompletions,
  stepCpuCost,
  stepTimeouts,
  stepVerdict,
  rigCpuCounts,
  type ProbeOutcome,
  type StepVerdict,
} from './load/capacitySearch.ts';
export type { Arrival, RateStep } from './load/arrivalSchedule.ts';
export { assertReached, UNREACHED } from './load/reachedAgent.ts';

// The wire's types, and the extensions' URIs, codes and limits a check may compare against.
export type { Task, TaskState, StreamResponse } from './protocol/a2aTypes.ts';
export type { PromptEnvelope } from './protocol/hitlPrompt.ts';
export type { Decision } from './protocol/acceptance.ts';
export { HITL_PROMPT_URI, UUID_PATTERN, MAX_RESPONSE_SCHEMA_BYTES } from './protocol/hitlPrompt.ts';
export {
  ACCEPTANCE_URI,
  ACCEPTANCE_CRITERIA_INVALID,
  ACCEPTANCE_DECISION_UNAUTHORIZED,
} from './protocol/acceptance.ts';
export { A2A_TASK_NOT_FOUND } from './protocol/errorCodes.ts';

// A DoS scenario of your own mix of the rig's attacks, judged like scenarios/dos/*.ts.
export { runDosFamily } from './engine/dos/dosScenario.ts';
export { DOS_RECORDS } from './engine/dos/dosJudge.ts';
export { dosBudget, dosProfile, openFilesSoftLimit } from './engine/dos/dosParams.ts';
export type { DosParams, AttackChoice } from './engine/dos/dosParams.ts';
export type { AttackName } from './attack/attackRegistry.ts';
