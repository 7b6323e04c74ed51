// Decisions are authorized: a task created with a bearer token may be decided only by its creator
// (or a principal it named). Another token, and no token at all, are refused with
// AcceptanceDecisionUnauthorized (-32043; HTTP 403 on HTTP+JSON) and the task stays pending; the
// creator's accept then completes it.
import { freshId, defineScenario, describeOutcome, everyProfile, wire } from 'a2a-rig';

export default defineScenario({
  name: 'acc-unauthorized',
  description:
    'a decision from another bearer token, or none, is refused with -32043 and the task stays pending; the ' +
    'creator decides',
  tags: ['acceptance', 'hostile'],
  needs: { acceptance: true },
  params: everyProfile({}),
  budgetMs: everyProfile(30_000),
  records: { latencies: [], counters: {} },
  catches: ['acceptance-ignores-authorization'],
  async run(ctx) {
    ctx.acceptance.requireGate();
    const acc = ctx.client.acceptance;
    const creator = `creator-${freshId()}`;
    const task = await ctx.acceptance.pendingGate('the gated task parks pending acceptance', { bearerToken: creator });
    if (!task) return;
    const intruders: Array<[string, string | undefined]> = [
      ['another bearer token', `stranger-${freshId()}`],
      ['no bearer token', undefined],
    ];
    const letIn: string[] = [];
    const wrong: string[] = [];
    for (const [who, token] of intruders) {
      const outcome = await acc.decide(
        task.id,
        task.contextId,
        { action: 'accept' },
        { ...(token ? { bearerToken: token } : {}) },
      );
      if (outcome.kind === 'applied') letIn.push(`${who}: applied (${outcome.state})`);
      else if (outcome.kind !== 'unauthorized' || outcome.rpcCode !== wire.ACCEPTANCE_DECISION_UNAUTHORIZED)
        wrong.push(`${who}: ${describeOutcome(outcome)}`);
    }
    ctx.expectNone('a decision from anyone but the creator is refused', letIn, intruders.length);
    ctx.expectNone(
      `the refusal is AcceptanceDecisionUnauthorized (${wire.ACCEPTANCE_DECISION_UNAUTHORIZED})`,
      wrong,
      intruders.length - letIn.length,
    );
    const still = await ctx.client.getTask(task.id, { bearerToken: creator });
    ctx.check(
      'after the refused decisions the task is still pending acceptance',
      still.ok && acc.isPending(still.value),
      still.ok ? ctx.acceptance.stateOf(ctx.client, still.value) : `GetTask ${still.error.code}`,
    );
    const own = await acc.decide(task.id, task.contextId, { action: 'accept' }, { bearerToken: creator });
    const done = ctx.acceptance.isTerminal(own.task)
      ? own.task
      : await ctx.acceptance.settle(task.id, ctx.acceptance.isTerminal);
    ctx.check(
      "the creator's accept completes the task",
      own.kind === 'applied' && done?.status.state === 'TASK_STATE_COMPLETED',
      `${own.kind}, then ${ctx.acceptance.stateOf(ctx.client, done)}`,
    );
  },
});
