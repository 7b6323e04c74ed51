// The acceptance timeout: a task left pending past acceptanceTimeoutSeconds is FAILED by the agent.
// Records how long after parking the FAILED state was observed.
import { defineScenario, everyProfile } from 'a2a-rig';

/** How long past the timeout the agent may take to fail the task (a loaded 2-core box included). */
const GRACE_MS = 3_000;
/** The pending status is committed a little before the creating reply is read. */
const EARLY_SLACK_MS = 500;

export default defineScenario({
  name: 'acc-timeout',
  description: 'a task pending past acceptanceTimeoutSeconds is FAILED by the agent',
  tags: ['acceptance'],
  needs: { acceptance: true },
  params: everyProfile({ timeoutSeconds: 1 }),
  budgetMs: everyProfile(30_000),
  records: { latencies: ['timeout_fired'], counters: {} },
  catches: ['acceptance-no-timeout'],
  async run(ctx, { timeoutSeconds }) {
    ctx.acceptance.requireGate();
    const task = await ctx.acceptance.pendingGate('the gated task parks pending acceptance', {
      criteria: { acceptanceTimeoutSeconds: timeoutSeconds },
    });
    if (!task) return;
    const parkedAt = performance.now();
    const after = await ctx.acceptance.settle(task.id, ctx.acceptance.isTerminal, {
      timeoutMs: timeoutSeconds * 1000 + GRACE_MS,
    });
    const elapsed = performance.now() - parkedAt;
    if (after) ctx.latency('timeout_fired').recordMs(elapsed);
    ctx.check(
      `the task is FAILED within ${timeoutSeconds} s + ${GRACE_MS / 1000} s of parking`,
      after?.status.state === 'TASK_STATE_FAILED',
      after ? `${after.status.state} after ${Math.round(elapsed)} ms` : `not terminal after ${Math.round(elapsed)} ms`,
    );
    // Observed from the creating reply, which comes just after the agent parked: a little slack.
    if (after)
      ctx.check(
        'the task is not failed before the timeout',
        elapsed >= timeoutSeconds * 1000 - EARLY_SLACK_MS,
        `${Math.round(elapsed)} ms after parking`,
      );
  },
});
