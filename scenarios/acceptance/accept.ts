// Accept completes: an activating client's task emits its artifacts, parks in INPUT_REQUIRED with
// the pendingAcceptance flag (never COMPLETED on its own), and an accept moves it to COMPLETED.
// Records the acceptance latency: decision sent → terminal state observed.
import { defineScenario } from 'a2a-rig';

export default defineScenario({
  name: 'acc-accept',
  description:
    'a gated task parks pending acceptance after its artifacts (it does not complete on its own); accept ' +
    'moves it to COMPLETED',
  tags: ['acceptance'],
  needs: { acceptance: true },
  params: { smoke: { tasks: 3 }, ci: { tasks: 10 }, full: { tasks: 50 } },
  budgetMs: { smoke: 30_000, ci: 60_000, full: 180_000 },
  records: { latencies: ['acceptance_latency', 'park_latency'], counters: {} },
  catches: ['acceptance-completes-without-waiting'],
  async run(ctx, { tasks }) {
    ctx.acceptance.requireGate();
    const acc = ctx.client.acceptance;
    const notParked: string[] = [];
    const noArtifacts: string[] = [];
    const unlisted: string[] = [];
    const notCompleted: string[] = [];
    const notEchoed: string[] = [];
    for (let i = 0; i < tasks; i++) {
      const opened = await ctx.acceptance.openGate();
      if (opened.kind !== 'pending') {
        notParked.push(ctx.acceptance.describeOpening(opened));
        continue;
      }
      ctx.latency('park_latency').recordMs(opened.latencyMs);
      if (!opened.echoed) notEchoed.push(opened.task.id);
      const { task } = opened;
      if (task.artifacts.length === 0) noArtifacts.push(task.id);
      unlisted.push(...acc.unlisted(task));
      const outcome = await acc.decide(task.id, task.contextId, { action: 'accept' });
      const done = ctx.acceptance.isTerminal(outcome.task)
        ? outcome.task
        : await ctx.acceptance.settle(task.id, ctx.acceptance.isTerminal);
      if (done) ctx.latency('acceptance_latency').recordMs(performance.now() - outcome.startedAt);
      if (outcome.kind !== 'applied' || done?.status.state !== 'TASK_STATE_COMPLETED') {
        notCompleted.push(
          `task ${task.id}: ${outcome.kind}` +
            (outcome.reason ? ` (${outcome.reason})` : '') +
            `, then ${ctx.acceptance.stateOf(ctx.client, done)}`,
        );
      }
    }
    ctx.expectNone('every gated task parks pending acceptance instead of completing on its own', notParked, tasks);
    if (notParked.length === tasks) return;
    const parked = tasks - notParked.length;
    ctx.expectNone('the creating reply echoes the extension', notEchoed, parked, { wrong: 'without the echo' });
    ctx.expectNone('the pending task already holds its artifacts', noArtifacts, parked, {
      wrong: 'pending without an artifact',
    });
    ctx.check('every message carrying an acceptance key lists the extension URI', unlisted.length === 0, unlisted[0]);
    ctx.expectNone('accept moves the task to COMPLETED', notCompleted, parked);
  },
});
