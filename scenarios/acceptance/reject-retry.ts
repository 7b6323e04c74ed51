// Reject with retry, the round trip: the feedback joins the task's history verbatim, the same task
// (id and contextId) runs a new attempt, emits that attempt's artifacts and parks pending again;
// an accept then completes it. Where the agent offers the replay plane, its stored events show the
// task going back to WORKING between the two pending states.
import { defineScenario, everyProfile, type ScenarioContext } from 'a2a-rig';

/**
 * The stored lifecycle (replay plane): pending, the rejection sends it back to WORKING, the new
 * attempt's artifacts (a scripted agent's), pending again, completed.
 */
async function checkStoredRetry(ctx: ScenarioContext, taskId: string): Promise<void> {
  const replayed = await ctx.acceptance.replayShape(taskId);
  const retried = ctx.agent.scripts ? /P[^P]*W[^P]*A[^P]*P/ : /P[^P]*W[^P]*P/;
  ctx.check(
    'the stored events show pending, WORKING, a new attempt, pending again (replay plane)',
    'shape' in replayed && retried.test(replayed.shape),
    'shape' in replayed
      ? `events: ${replayed.shape}${replayed.complete ? '' : ' (replay did not end)'}`
      : `replay refused: ${replayed.refused}`,
  );
}

export default defineScenario({
  name: 'acc-reject-retry',
  description:
    'reject with retry: the feedback is in history, the same task and contextId run a new attempt and park ' +
    'pending again; accept completes',
  tags: ['acceptance'],
  needs: { acceptance: true },
  params: everyProfile({}),
  budgetMs: everyProfile(30_000),
  records: { latencies: ['retry_latency'], counters: {} },
  catches: ['acceptance-drops-feedback'],
  async run(ctx) {
    ctx.acceptance.requireGate({ maxRejections: 1 });
    const acc = ctx.client.acceptance;
    const task = await ctx.acceptance.pendingGate('the gated task parks pending acceptance', {
      criteria: { maxRejections: 1 },
    });
    if (!task) return;
    const feedback = `needs a summary table (${task.id.slice(0, 8)})`;
    const rejected = await acc.decide(
      task.id,
      task.contextId,
      { action: 'reject', reason: 'QUALITY_THRESHOLD_NOT_MET' },
      { feedback },
    );
    if (
      !ctx.check(
        'the reject is applied',
        rejected.kind === 'applied',
        `${rejected.kind}${rejected.reason ? `: ${rejected.reason}` : ''}`,
      )
    )
      return;
    ctx.check(
      'the reply is the same task in the same context',
      rejected.task?.id === task.id && rejected.task?.contextId === task.contextId,
      `${rejected.task?.id} in ${rejected.task?.contextId}`,
    );
    const again = await ctx.acceptance.settle(task.id, ctx.acceptance.pendingOrTerminal(ctx.client));
    if (again) ctx.latency('retry_latency').recordMs(performance.now() - rejected.startedAt);
    ctx.check(
      'the task parks pending acceptance again (a new attempt, same task)',
      acc.isPending(again) && again?.contextId === task.contextId,
      ctx.acceptance.stateOf(ctx.client, again),
    );
    if (!again) return;
    ctx.check(
      'the feedback is in the task history verbatim',
      ctx.acceptance.historyHasText(again, feedback),
      `${again.history.length} history messages`,
    );
    if (ctx.agent.scripts)
      ctx.check(
        'the new attempt emitted its own artifacts before parking',
        ctx.acceptance.artifactNames(again).includes(ctx.acceptance.attemptName(2)),
        ctx.acceptance.artifactNames(again).join(', '),
      );
    const accepted = await acc.decide(task.id, task.contextId, { action: 'accept' });
    const done = ctx.acceptance.isTerminal(accepted.task)
      ? accepted.task
      : await ctx.acceptance.settle(task.id, ctx.acceptance.isTerminal);
    ctx.check(
      'accept after the retry completes the task',
      done?.status.state === 'TASK_STATE_COMPLETED',
      `${accepted.kind}, then ${ctx.acceptance.stateOf(ctx.client, done)}`,
    );
    if (!ctx.agent.replayPlane)
      return ctx.log('the agent offers no replay plane (/events): the WORKING between the attempts is not checked');
    await checkStoredRetry(ctx, task.id);
  },
});
