// The two extensions on one task: a client that activates hitl-prompt/v1 and the acceptance gate
// together gets the prompt first; once it is answered the task's output finishes and, the gate
// being fixed when the task was created, it parks pending acceptance (not COMPLETED); accept ends it.
import {
  defineScenario,
  describeOutcome,
  everyProfile,
  isTerminal,
  pendingOrTerminal,
  requireGate,
  settle,
  stateOf,
  ACCEPTANCE_URI,
  HITL_PROMPT_URI,
} from 'a2a-rig';

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
    requireGate(ctx);
    const open = await ctx.openPrompt(SCRIPT, { extensions: [HITL_PROMPT_URI, ACCEPTANCE_URI] });
    ctx.check(
      'the creating reply echoes both extensions',
      open.echoed.includes(HITL_PROMPT_URI) && open.echoed.includes(ACCEPTANCE_URI),
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
      signal: ctx.signal,
    });
    if (!ctx.check('the answer is accepted', answered.kind === 'accepted', describeOutcome(answered))) return;
    const parked = await settle(ctx, open.taskId, pendingOrTerminal(ctx.client));
    ctx.check(
      'after the answer the task parks pending acceptance instead of completing',
      ctx.client.acceptance.isPending(parked),
      stateOf(ctx.client, parked),
    );
    if (!ctx.client.acceptance.isPending(parked)) return;
    const accepted = await ctx.client.acceptance.decide(
      open.taskId,
      open.task.contextId,
      { action: 'accept' },
      { signal: ctx.signal },
    );
    const done = isTerminal(accepted.task) ? accepted.task : await settle(ctx, open.taskId, isTerminal);
    ctx.check(
      'accept completes the task',
      done?.status.state === 'TASK_STATE_COMPLETED',
      `${accepted.kind}, then ${stateOf(ctx.client, done)}`,
    );
  },
});
