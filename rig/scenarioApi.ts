// What a scenario imports: `import { defineScenario } from 'a2a-rig'`, the one module a scenario
// file needs. A scenario file in any directory (`a2a-rig run --scenarios DIR`) gets this module, the
// running rig's own (see engine/scenarioModuleHooks.mjs), and so do the built-in ones (package.json
// "exports" names it), so defineScenario, ScenarioSkipped and the constants are the very ones the
// engine checks against. Everything a scenario does goes through the ScenarioContext it is given
// (ctx.client, ctx.check, ctx.expectNone, ctx.acceptance, ctx.faults, ...); what only some
// scenarios use comes in a few groups below. test/scenarios.apiSize.test.ts keeps the list short.

// Defining a scenario.
export { defineScenario, everyProfile, PROFILES } from './engine/kit/defineScenario.ts';
export type { ScenarioDefinition, ScenarioNeeds, ProfileName } from './engine/kit/defineScenario.ts';
export type { RecordedMeasures, CounterKind } from './results/metricNames.ts';
export type { FaultName, FaultCatch } from './engine/kit/faultCatches.ts';

// What `run(ctx, params)` is given; the types of its members' arguments and results as `types.*`.
export type { ScenarioContext } from './engine/kit/scenarioContextInterface.ts';
export type { CheckOptions } from './results/checkResult.ts';
export type { A2AClient } from './client/index.ts';
export { ScenarioSkipped } from './engine/scenarioContext.ts';
export type * as types from './engine/kit/scenarioTypes.ts';

// Reading what came back, in the words every scenario uses.
export { describeOutcome, describeAttempt } from './engine/kit/outcomeText.ts';
export { recordResume } from './engine/kit/resumeObserver.ts';
export { taskListed } from './engine/kit/taskListing.ts';
export { sameValue, freshId } from './engine/kit/values.ts';

// The wire's types, the extensions' URIs, codes and limits, and event readers: `wire.HITL_PROMPT_URI`.
export * as wire from './engine/kit/wireFacts.ts';
// Open-model schedules, the capacity search and its verdicts: `capacity.constantArrivals(rate, ms)`.
export * as capacity from './engine/kit/capacityKit.ts';
// A DoS scenario of your own mix of the rig's attacks, judged like scenarios/dos/*.ts: `dos.runDosFamily`.
export * as dos from './engine/kit/dosKit.ts';
