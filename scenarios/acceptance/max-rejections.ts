// Bounded loop: with maxRejections 1, the first rejection retries (pending again) and the second,
// past the limit, fails the task.
import { defineScenario, everyProfile } from '../../rig/engine/defineScenario.ts';
import { pendingGate, pendingOrTerminal, requireGate, settle, stateOf } from '../../rig/engine/acceptanceGates.ts';

export default defineScenario({
  name: 'acc-max-rejections',
  description: 'maxRejections 1: the first reject retries, the second (past the limit) fails the task',
  tags: ['acceptance'],
  needs: { acceptance: true },
  params: everyProfile({}),
  budgetMs: everyProfile(30_000),
  records: { latencies: [], counters: {} },
  async run(ctx) {
    requireGate(ctx, { maxRejections: 1 });
    const acc = ctx.client.acceptance;
    const task = await pendingGate(ctx, 'the gated task parks pending acceptance', { criteria: { maxRejections: 1 } });
    if (!task) return;
    const reject = { action: 'reject', reason: 'SCHEMA_MISMATCH' } as const;
    const first = await acc.decide(task.id, task.contextId, reject, { feedback: 'first rejection', signal: ctx.signal });
    const after1 = first.kind === 'applied' ? await settle(ctx, task.id, pendingOrTerminal(ctx.client)) : undefined;
    if (!ctx.check('the first rejection (within maxRejections) retries: pending again', acc.isPending(after1), `${first.kind}, then ${stateOf(ctx.client, after1)}`)) return;
    const second = await acc.decide(task.id, task.contextId, reject, { feedback: 'second rejection', signal: ctx.signal });
    const after2 = second.kind === 'applied' ? await settle(ctx, task.id, pendingOrTerminal(ctx.client)) : undefined;
    ctx.check('the rejection past maxRejections fails the task', after2?.status.state === 'TASK_STATE_FAILED', `${second.kind}${second.reason ? ` (${second.reason})` : ''}, then ${stateOf(ctx.client, after2)}`);
  },
});
