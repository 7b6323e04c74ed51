// Bounded loop: with maxRejections 1, the first rejection retries (pending again) and the second,
// past the limit, fails the task.
import { defineScenario, everyProfile } from 'a2a-rig';

export default defineScenario({
  name: 'acc-max-rejections',
  description: 'maxRejections 1: the first reject retries, the second (past the limit) fails the task',
  tags: ['acceptance'],
  needs: { acceptance: true },
  params: everyProfile({}),
  budgetMs: everyProfile(30_000),
  records: { latencies: [], counters: {} },
  catches: ['acceptance-ignores-max-rejections'],
  async run(ctx) {
    ctx.acceptance.requireGate({ maxRejections: 1 });
    const task = await ctx.acceptance.pendingGate('the gated task parks pending acceptance', {
      criteria: { maxRejections: 1 },
    });
    if (!task) return;
    const reject = { action: 'reject', reason: 'SCHEMA_MISMATCH' } as const;
    const first = await ctx.acceptance.decideAndSettle(task, reject, 'first rejection');
    if (
      !ctx.check(
        'the first rejection (within maxRejections) retries: pending again',
        ctx.client.acceptance.isPending(first.after),
        first.detail,
      )
    )
      return;
    const second = await ctx.acceptance.decideAndSettle(task, reject, 'second rejection');
    ctx.check(
      'the rejection past maxRejections fails the task',
      second.after?.status.state === 'TASK_STATE_FAILED',
      second.detail,
    );
  },
});
