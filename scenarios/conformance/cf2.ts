// CF-2: schema-valid response accepted (AC-2). A payload that validates against the known
// response_schema gets HTTP 200 (or JSON-RPC success) and the task transitions out of INPUT_REQUIRED.
import { defineScenario, everyProfile } from '../../rig/engine/defineScenario.ts';

export default defineScenario({
  name: 'cf2',
  description: 'CF-2 schema-valid response accepted: 200 and the task leaves INPUT_REQUIRED',
  tags: ['conformance', 'hitl'],
  needs: { extension: true },
  params: everyProfile({}),
  budgetMs: everyProfile(20_000),
  records: { latencies: [], counters: {} },
  async run(ctx) {
    const open = await ctx.openPrompt();
    const prompt = ctx.usable(open);
    if (!prompt) return;
    const observed = await ctx.answerObserved(open.taskId, prompt.promptId, prompt.answers.valid);
    const { outcome } = observed;
    ctx.check('the valid payload is accepted with HTTP 200 / JSON-RPC success', outcome.kind === 'accepted' && outcome.httpStatus === 200, `${outcome.kind} (HTTP ${outcome.httpStatus}, code ${outcome.rpcCode})`);
    ctx.check('the task transitions out of INPUT_REQUIRED', observed.resumedAfterMs !== undefined && observed.stateAfter !== 'TASK_STATE_INPUT_REQUIRED', `state after: ${observed.stateAfter}, observed on ${observed.observedOn}${observed.fallback ? ` (${observed.fallback})` : ''}`);
  },
});
