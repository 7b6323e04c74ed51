// The two extensions on one task: a client that activates hitl-prompt/v1 and the acceptance gate
// together gets the prompt first; once it is answered the task's output finishes and, the gate
// being fixed when the task was created, it parks pending acceptance (not COMPLETED); accept ends it.
import { defineScenario, describeOutcome, everyProfile, wire } from 'a2a-rig';

const SCRIPT = [
  {
    prompt: {
      text: 'Which format?',
      response_schema: {
        type: 'object',
        required: ['format'],
        additionalProperties: false,
        properties: { format: { type: 'string', enum: ['pdf', 'html'] } },
      },
    },
  },
  { artifact: { name: 'report', text: 'the report, as asked' } },
  { complete: {} },
];

export default defineScenario({
  name: 'acc-with-hitl',
  description:
    'hitl-prompt/v1 and the acceptance gate on one task: the prompt first, then pending acceptance after ' +
    'the answer; accept completes',
  tags: ['acceptance'],
  needs: { acceptance: true, hitlPrompt: true },
  params: everyProfile({}),
  budgetMs: everyProfile(30_000),
  records: { latencies: [], counters: {} },
  catches: ['acceptance-completes-without-waiting'],
  async run(ctx) {
    ctx.acceptance.requireGate();
    const open = await ctx.openPrompt(SCRIPT, { extensions: [wire.HITL_PROMPT_URI, wire.ACCEPTANCE_URI] });
    ctx.check(
      'the creating reply echoes both extensions',
      open.echoed.includes(wire.HITL_PROMPT_URI) && open.echoed.includes(wire.ACCEPTANCE_URI),
      JSON.stringify(open.echoed),
    );
    ctx.check(
      'the prompt is not mistaken for the gate (no pendingAcceptance flag on it)',
      !ctx.client.acceptance.isPending(open.task),
    );
    const prompt = ctx.usable(open, { recordPasses: false });
    if (!prompt) return;
    const answered = await ctx.client.answer(open.taskId, prompt.promptId, prompt.answers.valid, {
      contextId: open.task.contextId,
    });
    if (!ctx.check('the answer is accepted', answered.kind === 'accepted', describeOutcome(answered))) return;
    const parked = await ctx.acceptance.settle(open.taskId, ctx.acceptance.pendingOrTerminal(ctx.client));
    ctx.check(
      'after the answer the task parks pending acceptance instead of completing',
      ctx.client.acceptance.isPending(parked),
      ctx.acceptance.stateOf(ctx.client, parked),
    );
    if (!ctx.client.acceptance.isPending(parked)) return;
    const accepted = await ctx.client.acceptance.decide(open.taskId, open.task.contextId, { action: 'accept' });
    const done = ctx.acceptance.isTerminal(accepted.task)
      ? accepted.task
      : await ctx.acceptance.settle(open.taskId, ctx.acceptance.isTerminal);
    ctx.check(
      'accept completes the task',
      done?.status.state === 'TASK_STATE_COMPLETED',
      `${accepted.kind}, then ${ctx.acceptance.stateOf(ctx.client, done)}`,
    );
  },
});
