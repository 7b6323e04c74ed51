// CF-2: schema-valid response accepted (AC-2). A payload that validates against the known
// response_schema gets HTTP 200 (or JSON-RPC success) and the task transitions out of INPUT_REQUIRED.
import { defineScenario, describeOutcome, everyProfile } from 'a2a-rig';

export default defineScenario({
  name: 'cf2',
  description: 'CF-2 schema-valid response accepted: 200 and the task leaves INPUT_REQUIRED',
  tags: ['conformance', 'hitl'],
  needs: { extension: true },
  params: everyProfile({}),
  budgetMs: everyProfile(20_000),
  records: { latencies: [], counters: {} },
  catches: ['keep-input-required'],
  async run(ctx) {
    const prompt = await ctx.openUsablePrompt();
    if (!prompt) return;
    const observed = await ctx.answerObserved(prompt.taskId, prompt.promptId, prompt.answers.valid);
    const { outcome } = observed;
    ctx.check(
      'the valid payload is accepted with HTTP 200 / JSON-RPC success',
      outcome.kind === 'accepted' && outcome.httpStatus === 200,
      describeOutcome(outcome),
    );
    ctx.check(
      'the task transitions out of INPUT_REQUIRED',
      observed.resumedAfterMs !== undefined && observed.stateAfter !== 'TASK_STATE_INPUT_REQUIRED',
      `state after: ${observed.stateAfter}, observed on ${observed.observedOn}` +
        (observed.fallback ? ` (${observed.fallback})` : ''),
    );
  },
});
