// CF-2: schema-valid response accepted (AC-2). A payload that validates against the known
// response_schema gets JSON-RPC success with HTTP 200 (not 202) and the task transitions out of INPUT_REQUIRED.
// The answer activates the extension too, so its reply MUST echo the URI (spec §HTTP header echo):
// cf1 holds the echo on the reply that opened the prompt, this holds it on the answer's.
import { defineScenario, describeOutcome, everyProfile, wire } from 'a2a-rig';

export default defineScenario({
  name: 'cf2',
  description: 'CF-2 schema-valid response accepted: 200 and the task leaves INPUT_REQUIRED',
  tags: ['conformance', 'hitl'],
  needs: { hitlPrompt: true },
  params: everyProfile({}),
  budgetMs: everyProfile(20_000),
  records: { latencies: [], counters: {} },
  catches: ['keep-input-required', 'no-extension-echo', 'answer-202'],
  async run(ctx) {
    const prompt = await ctx.openUsablePrompt();
    if (!prompt) return;
    const observed = await ctx.answerObserved(prompt.taskId, prompt.promptId, prompt.answers.valid);
    const { outcome } = observed;
    ctx.check(
      'the valid payload is accepted (JSON-RPC success)',
      outcome.kind === 'accepted',
      describeOutcome(outcome),
    );
    // Its own check, so that a 202 (accepted for later, which CF-2 does not allow) is named as such.
    if (outcome.kind === 'accepted')
      ctx.check("the accepted answer's reply is HTTP 200", outcome.httpStatus === 200, `HTTP ${outcome.httpStatus}`);
    if (outcome.httpStatus !== undefined)
      ctx.check(
        "the answer's reply echoes the activated extension URI",
        outcome.echoedExtensions.includes(wire.HITL_PROMPT_URI),
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
