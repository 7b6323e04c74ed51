// ctx.acceptance: the acceptance moves of acceptanceMoves.ts bound to one scenario (its client,
// signal and budget), beside the readers, so an acceptance scenario calls them as a HITL one calls
// ctx.openPrompt. The moves themselves stay in acceptanceMoves.ts; this only binds them.
import type { A2AClient } from '../../client/index.ts';
import * as moves from './acceptanceMoves.ts';
import type { AcceptanceKit, ScenarioContext } from './scenarioContextInterface.ts';

/** The kit of one scenario: each move called with `ctx` first. */
export function acceptanceKit(ctx: ScenarioContext): AcceptanceKit {
  return {
    SETTLE_MS: moves.SETTLE_MS,
    attemptName: moves.attemptName,
    gatedScript: moves.gatedScript,
    requireGate: (needs) => moves.requireGate(ctx, needs),
    openGate: (options) => moves.openGate(ctx, options),
    pendingGate: (check, options) => moves.pendingGate(ctx, check, options),
    describeOpening: moves.describeOpening,
    settle: (taskId, until, options) => moves.settle(ctx, taskId, until, options),
    pendingOrTerminal: (client: A2AClient = ctx.client) => moves.pendingOrTerminal(client),
    decideAndSettle: (task, decision, feedback) => moves.decideAndSettle(ctx, task, decision, feedback),
    isTerminal: moves.isTerminal,
    stateOf: moves.stateOf,
    artifactNames: moves.artifactNames,
    historyHasText: moves.historyHasText,
    freshContextId: moves.freshContextId,
    tasksInContext: (client, contextId) => moves.tasksInContext(client, contextId, ctx.signal),
    replayShape: (taskId) => moves.replayShape(ctx, taskId),
  };
}
