// reject with retry: false ends the gate: the task is FAILED at once, whatever maxRejections allows.
import { defineScenario, everyProfile } from 'a2a-rig';

export default defineScenario({
  name: 'acc-retry-false',
  description: 'reject with retry: false fails the task at once (maxRejections left unused)',
  tags: ['acceptance'],
  needs: { acceptance: true },
  params: everyProfile({}),
  budgetMs: everyProfile(30_000),
  records: { latencies: [], counters: {} },
  catches: ['acceptance-ignores-retry-false'],
  async run(ctx) {
    ctx.acceptance.requireGate({ maxRejections: 3 });
    const task = await ctx.acceptance.pendingGate('the gated task parks pending acceptance', {
      criteria: { maxRejections: 3 },
    });
    if (!task) return;
    const { after, detail } = await ctx.acceptance.decideAndSettle(
      task,
      { action: 'reject', reason: 'OUT_OF_SCOPE', retry: false },
      'not what was asked',
    );
    ctx.check('reject with retry: false fails the task', after?.status.state === 'TASK_STATE_FAILED', detail);
  },
});
