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
    ctx.check(
      'every gated task parks pending acceptance instead of completing on its own',
      notParked.length === 0,
      notParked.length ? `${notParked.length} of ${tasks}: ${notParked[0]}` : `${tasks}/${tasks}`,
    );
    if (notParked.length === tasks) return;
    ctx.check(
      'the creating reply echoes the extension',
      notEchoed.length === 0,
      notEchoed.length ? `${notEchoed.length} without the echo` : undefined,
    );
    ctx.check(
      'the pending task already holds its artifacts',
      noArtifacts.length === 0,
      noArtifacts.length ? `${noArtifacts.length} pending without an artifact, e.g. ${noArtifacts[0]}` : undefined,
    );
    ctx.check('every message carrying an acceptance key lists the extension URI', unlisted.length === 0, unlisted[0]);
    ctx.check(
      'accept moves the task to COMPLETED',
      notCompleted.length === 0,
      notCompleted.length ? `${notCompleted.length}: ${notCompleted[0]}` : undefined,
    );
  },
});
