// reject with retry: false ends the gate: the task is FAILED at once, whatever maxRejections allows.
import { defineScenario, everyProfile } from '../../rig/engine/defineScenario.ts';
import { pendingGate, pendingOrTerminal, requireGate, settle, stateOf } from '../../rig/engine/acceptanceGates.ts';

export default defineScenario({
  name: 'acc-retry-false',
  description: 'reject with retry: false fails the task at once (maxRejections left unused)',
  tags: ['acceptance'],
  needs: { acceptance: true },
  params: everyProfile({}),
  budgetMs: everyProfile(30_000),
  records: { latencies: [], counters: {} },
  async run(ctx) {
    requireGate(ctx, { maxRejections: 3 });
    const acc = ctx.client.acceptance;
    const task = await pendingGate(ctx, 'the gated task parks pending acceptance', { criteria: { maxRejections: 3 } });
    if (!task) return;
    const outcome = await acc.decide(task.id, task.contextId, { action: 'reject', reason: 'OUT_OF_SCOPE', retry: false }, { feedback: 'not what was asked', signal: ctx.signal });
    const after = outcome.kind === 'applied' ? await settle(ctx, task.id, pendingOrTerminal(ctx.client)) : undefined;
    ctx.check('reject with retry: false fails the task', after?.status.state === 'TASK_STATE_FAILED', `${outcome.kind}${outcome.reason ? ` (${outcome.reason})` : ''}, then ${stateOf(ctx.client, after)}`);
  },
});
