// CF-2: schema-valid response accepted (AC-2). A payload that validates against the known
// response_schema gets HTTP 200 (or JSON-RPC success) and the task transitions out of INPUT_REQUIRED.
// The answer activates the extension too, so its reply MUST echo the URI (spec §HTTP header echo):
// cf1 holds the echo on the reply that opened the prompt, this holds it on the answer's.
import { defineScenario, describeOutcome, everyProfile, HITL_PROMPT_URI } from 'a2a-rig';

export default defineScenario({
  name: 'cf2',
  description: 'CF-2 schema-valid response accepted: 200 and the task leaves INPUT_REQUIRED',
  tags: ['conformance', 'hitl'],
  needs: { extension: true },
  params: everyProfile({}),
  budgetMs: everyProfile(20_000),
  records: { latencies: [], counters: {} },
  catches: ['keep-input-required', 'no-extension-echo'],
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
    if (outcome.httpStatus !== undefined)
      ctx.check(
        "the answer's reply echoes the activated extension URI",
        outcome.echoedExtensions.includes(HITL_PROMPT_URI),
        `echoed: ${JSON.stringify(outcome.echoedExtensions)}`,
      );
    ctx.check(
      'the task transitions out of INPUT_REQUIRED',
      observed.resumedAfterMs !== undefined && observed.stateAfter !== 'TASK_STATE_INPUT_REQUIRED',
      `state after: ${observed.stateAfter}, observed on ${observed.observedOn}` +
        (observed.fallback ? ` (${observed.fallback})` : ''),
    );
  },
});
