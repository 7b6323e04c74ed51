// Artifacts before the pending flag, on the creating stream's own order: the agent emits the
// attempt's artifacts first, then parks the task (INPUT_REQUIRED + pendingAcceptance). A client
// that sees the pending flag must already have what it is asked to accept. Every message carrying
// an acceptance key lists the extension URI.
import { defineScenario, everyProfile, wire } from 'a2a-rig';

/** One letter per event, for a detail that shows the order: T task, A artifact, P pending, S other status. */
function letter(event: wire.StreamResponse, pending: boolean): string {
  if ('artifactUpdate' in event) return 'A';
  if ('task' in event) return pending ? 'P' : event.task.artifacts.length > 0 ? 'A' : 'T';
  if ('statusUpdate' in event) return pending ? 'P' : 'S';
  return 'M';
}

export default defineScenario({
  name: 'acc-artifact-order',
  description: "on the creating stream the attempt's artifacts arrive before the pending-acceptance status",
  tags: ['acceptance', 'streaming'],
  needs: { acceptance: true },
  params: everyProfile({}),
  budgetMs: everyProfile(30_000),
  records: { latencies: [], counters: {} },
  catches: ['acceptance-parks-before-artifacts'],
  async run(ctx) {
    ctx.acceptance.requireGate();
    const acc = ctx.client.acceptance;
    const opened = await acc.sendStream(ctx.acceptance.gatedScript(), {
      extensions: [wire.ACCEPTANCE_URI],
    });
    if (!opened.ok) {
      ctx.check('the agent opens the creating stream', false, `JSON-RPC ${opened.error.code} ${opened.error.message}`);
      return;
    }
    const { stream } = opened;
    await stream
      .waitFor((e) => acc.isPending(e.event), Math.min(ctx.acceptance.SETTLE_MS, ctx.remainingMs()))
      .catch(() => undefined);
    // Whatever follows the pending status right behind it (the faulty order) is read too, briefly.
    await ctx.within(stream.ended, 200);
    await stream.close();
    const events = stream.events.map((e) => e.event);
    const order = events.map((e) => letter(e, acc.isPending(e))).join('');
    const pendingAt = order.indexOf('P');
    if (!ctx.check('the stream shows the task pending acceptance', pendingAt >= 0, `events: ${order || 'none'}`))
      return;
    const artifactAt = order.indexOf('A');
    // A task snapshot that is itself pending and holds the artifacts delivers both at once.
    const snapshot = events[pendingAt];
    const together = 'task' in snapshot && snapshot.task.artifacts.length > 0;
    ctx.check(
      'an artifact arrives before the pending-acceptance status',
      together || (artifactAt >= 0 && artifactAt < pendingAt),
      `events: ${order}`,
    );
    if (ctx.agent.scripts) {
      const names = events
        .slice(0, pendingAt + 1)
        .flatMap((e) =>
          'artifactUpdate' in e
            ? [e.artifactUpdate.artifact.name]
            : 'task' in e
              ? e.task.artifacts.map((a) => a.name)
              : [],
        );
      ctx.check(
        "the first attempt's artifact comes before the pending status",
        names.includes(ctx.acceptance.attemptName(1)),
        names.join(', ') || 'none',
      );
    }
    const unlisted = events.flatMap((e) => acc.unlisted(e));
    ctx.check('every message carrying an acceptance key lists the extension URI', unlisted.length === 0, unlisted[0]);
    // Leave nothing pending behind: accept the task (its id and contextId from the pending status).
    const parked = events[pendingAt];
    const ids =
      'task' in parked
        ? { id: parked.task.id, contextId: parked.task.contextId }
        : 'statusUpdate' in parked
          ? { id: parked.statusUpdate.taskId, contextId: parked.statusUpdate.contextId }
          : undefined;
    if (ids) await acc.decide(ids.id, ids.contextId, { action: 'accept' });
  },
});
