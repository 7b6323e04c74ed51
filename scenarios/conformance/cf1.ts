// CF-1: prompt_id correlation (AC-1). Activate the extension, drive the agent into INPUT_REQUIRED,
// capture the envelope (prompt_id a valid UUID), answer it, see it resume, answer again with the
// same prompt_id and see 409 / hitl_already_answered_or_unknown.
import { defineScenario, describeOutcome, everyProfile, wire } from 'a2a-rig';

export default defineScenario({
  name: 'cf1',
  description: 'CF-1 prompt_id correlation: one valid answer accepted, the same prompt_id again is 409',
  tags: ['conformance', 'hitl'],
  needs: { hitlPrompt: true },
  params: everyProfile({}),
  budgetMs: everyProfile(20_000),
  records: { latencies: [], counters: {} },
  catches: ['accept-duplicates', 'no-extension-echo'],
  async run(ctx) {
    const open = await ctx.openPrompt();
    ctx.check(
      'the agent echoes the activated extension URI',
      open.echoed.includes(wire.HITL_PROMPT_URI),
      `echoed: ${JSON.stringify(open.echoed)}`,
    );
    const prompt = ctx.usable(open);
    if (!prompt) return;
    const { promptId, answers } = prompt;
    ctx.check('prompt_id is an RFC 4122 UUID', wire.UUID_PATTERN.test(promptId), promptId);

    const first = await ctx.answerObserved(open.taskId, promptId, answers.valid);
    ctx.check('the valid answer is accepted', first.outcome.kind === 'accepted', describeOutcome(first.outcome));
    ctx.check(
      'the task resumes (leaves INPUT_REQUIRED)',
      first.resumedAfterMs !== undefined,
      `state after: ${first.stateAfter}, observed on ${first.observedOn}` +
        (first.fallback ? ` (${first.fallback})` : ''),
    );

    const second = await ctx.client.answer(open.taskId, promptId, answers.valid);
    ctx.check(
      'a second answer with the same prompt_id is rejected as 409 / -32010',
      second.kind === 'conflict' && (second.httpStatus === 409 || second.rpcCode === -32010),
      `${describeOutcome(second)}${second.problems.length ? `; ${second.problems.join('; ')}` : ''}`,
    );
  },
});
