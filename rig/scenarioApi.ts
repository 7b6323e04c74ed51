// What a scenario author imports: `import { defineScenario } from 'a2a-rig'`. A scenario file in
// any directory (`a2a-rig run --scenarios DIR`) gets this module, the running rig's own (see
// engine/scenarioModuleHooks.mjs), so its defineScenario, ScenarioSkipped and constants are the
// very ones the engine checks against. Mostly types: everything a scenario does goes through the
// ScenarioContext it is given (ctx.client, ctx.check, ctx.latency, ctx.faults, ctx.log, ...).

// Defining a scenario.
export { defineScenario, everyProfile, PROFILES } from './engine/defineScenario.ts';
export type { ScenarioDefinition, ScenarioNeeds, ProfileName } from './engine/defineScenario.ts';
export type { RecordedMeasures, CounterKind } from './results/metricNames.ts';

// What `run(ctx, params)` is given, and what its methods take and return.
export { ScenarioSkipped } from './engine/scenarioContext.ts';
export type {
  ScenarioContext,
  FaultHelpers,
  OpenPrompt,
  PromptAttempt,
  PromptOptions,
  RoundTripChoice,
  AcceptanceRoundTripChoice,
  OpenModelResult,
} from './engine/scenarioContext.ts';
export type { ObservedAnswer } from './engine/resumeObserver.ts';
export type { ReplayFinding } from './engine/replayChecker.ts';
export type { MixedRunPlan, MixedRunResult, Phase, PlannedAttack } from './engine/attackRun.ts';
export type { Iteration, IterationContext, IterationEnd, OpenModelOptions } from './load/openModelExecutor.ts';
export type { LatencyHistogram, LatencySummary } from './metrics/latencyHistogram.ts';
export type { CheckResult, FaultEvent, SeriesPoint, Verdict } from './results/runResult.ts';
export type { ToxicSpec, ToxicKind, ToxicStream, ToxicAttributes, AppliedToxic, FaultProxy } from './proxy/faultControl.ts';
export type { A2AClient, AnswerOutcome, SendResult, SynthesizedAnswers, TaskEventStream, ReplaySocket, AgentDescription } from './client/index.ts';
export type { Task, TaskState, StreamResponse } from './protocol/a2aTypes.ts';
export type { PromptEnvelope } from './protocol/hitlPrompt.ts';
export type { Decision } from './protocol/acceptance.ts';

// Open-model load schedules for ctx.runOpenModel({ arrivals, ... }).
export { constantArrivals, steppedArrivals, geometricRates } from './load/arrivalSchedule.ts';
export type { Arrival, RateStep } from './load/arrivalSchedule.ts';

// The extensions' URIs and limits a check may compare against.
export { HITL_PROMPT_URI, UUID_PATTERN, MAX_RESPONSE_SCHEMA_BYTES } from './protocol/hitlPrompt.ts';
export { ACCEPTANCE_URI } from './protocol/acceptance.ts';

// A DoS scenario of your own mix of the rig's attacks, judged like scenarios/dos/*.ts.
export { DOS_RECORDS, dosBudget, dosProfile, runDosFamily } from './engine/dosScenario.ts';
export type { DosParams, AttackChoice } from './engine/dosScenario.ts';
export type { AttackName } from './attack/attackRegistry.ts';
