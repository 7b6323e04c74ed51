// The gate is durable: the pending state and the rejection count survive a client disconnect and a
// kill -9 of the agent. Task A (maxRejections 1) is rejected once before the crash and parks again;
// task B is created on a stream that the rig then cuts; task C is accepted before the crash. After
// the disconnect and after the restart A and B are still pending acceptance with the flag; A's next
// rejection, past maxRejections only if its first one was remembered, fails it; B takes exactly one
// accept; C stays COMPLETED and refuses another decision; task D, parked with a 2 s timeout just
// before the crash, is FAILED by the restarted agent (the deadline is stored, not only a timer).
import { defineScenario, everyProfile, type ScenarioContext, wire } from 'a2a-rig';

/** Task D's acceptance timeout, and how long past it the restarted agent may take to fail it. */
const D_TIMEOUT_S = 2;
const GRACE_MS = 3_000;

/** Each task's state as `client` reads it now, one line each for those not pending acceptance. */
async function notPending(
  ctx: ScenarioContext,
  client: ScenarioContext['client'],
  tasks: wire.Task[],
): Promise<string[]> {
  const found: string[] = [];
  for (const t of tasks) {
    const got = await client.getTask(t.id);
    if (!got.ok) found.push(`task ${t.id}: GetTask ${got.error.code} ${got.error.message}`);
    else if (!client.acceptance.isPending(got.value))
      found.push(`task ${t.id}: ${ctx.acceptance.stateOf(client, got.value)}`);
  }
  return found;
}

type Task = wire.Task;
const REJECT = { action: 'reject', reason: 'MISSING_ARTIFACT' } as const;

/** Task A (maxRejections 1): rejected once before the crash, it must park pending again. */
async function rejectedOnce(ctx: ScenarioContext): Promise<Task | undefined> {
  const acc = ctx.client.acceptance;
  const a = await ctx.acceptance.pendingGate('task A parks pending acceptance', { criteria: { maxRejections: 1 } });
  if (!a) return undefined;
  const first = await ctx.acceptance.decideAndSettle(a, REJECT, 'before the crash');
  const ok = ctx.check("task A's first rejection retries: pending again", acc.isPending(first.after), first.detail);
  return ok ? a : undefined;
}

/** Task B: created on a stream the rig cuts (every connection, with a fault backend) once it is pending. */
async function onCutStream(ctx: ScenarioContext): Promise<Task | undefined> {
  const acc = ctx.client.acceptance;
  const streamed = await acc.sendStream(ctx.acceptance.gatedScript(), { extensions: [wire.ACCEPTANCE_URI] });
  if (
    !ctx.check(
      "task B's creating stream opens",
      streamed.ok,
      streamed.ok ? undefined : `JSON-RPC ${streamed.error.code} ${streamed.error.message}`,
    ) ||
    !streamed.ok
  )
    return undefined;
  await streamed.stream
    .waitFor((e) => acc.isPending(e.event), Math.min(ctx.acceptance.SETTLE_MS, ctx.remainingMs()))
    .catch(() => undefined);
  const bId = streamed.stream.events.find((e) => e.taskId)?.taskId;
  if (ctx.faults.available) {
    await ctx.faults.setEnabled(false);
    await ctx.faults.setEnabled(true);
  }
  await streamed.stream.close();
  if (!ctx.check('task B gets an id on its stream', bId !== undefined)) return undefined;
  const b = await ctx.acceptance.settle(bId!, ctx.acceptance.pendingOrTerminal());
  const ok = ctx.check('task B parks pending acceptance', acc.isPending(b), ctx.acceptance.stateOf(ctx.client, b));
  return ok ? b : undefined;
}

/** After the restart: A's second rejection fails it, B takes one accept, D's stored deadline fires. */
async function judgeAfterRestart(ctx: ScenarioContext, a: Task, b: Task, d: Task): Promise<void> {
  const acc = ctx.client.acceptance;
  const second = await ctx.acceptance.decideAndSettle(a, REJECT, 'after the crash');
  ctx.check(
    "the rejection count survived: task A's second rejection (past maxRejections 1) fails it",
    second.after?.status.state === 'TASK_STATE_FAILED',
    second.detail,
  );

  const bAccept = await acc.decide(b.id, b.contextId, { action: 'accept' });
  const bEnd = ctx.acceptance.isTerminal(bAccept.task)
    ? bAccept.task
    : await ctx.acceptance.settle(b.id, ctx.acceptance.isTerminal);
  ctx.check(
    'task B takes an accept after the restart and completes',
    bAccept.kind === 'applied' && bEnd?.status.state === 'TASK_STATE_COMPLETED',
    `${bAccept.kind}, then ${ctx.acceptance.stateOf(ctx.client, bEnd)}`,
  );
  const dEnd = await ctx.acceptance.settle(d.id, ctx.acceptance.isTerminal, {
    timeoutMs: D_TIMEOUT_S * 1000 + GRACE_MS,
    client: ctx.direct,
  });
  ctx.check(
    `the acceptance deadline survived: task D (acceptanceTimeoutSeconds ${D_TIMEOUT_S}) is FAILED after the restart`,
    dEnd?.status.state === 'TASK_STATE_FAILED',
    ctx.acceptance.stateOf(ctx.client, dEnd),
  );
}

/** Decided tasks stay decided: another decision on B or C is a conflict, and C is still COMPLETED. */
async function staysDecided(ctx: ScenarioContext, b: Task, c: Task): Promise<void> {
  const acc = ctx.client.acceptance;
  const bTwice = await acc.decide(b.id, b.contextId, { action: 'accept' });
  const cTwice = await acc.decide(c.id, c.contextId, { action: 'reject', reason: 'OTHER', retry: false });
  const cNow = await ctx.direct.getTask(c.id);
  ctx.check(
    'decided tasks stay decided: another decision is a conflict and task C is still COMPLETED',
    bTwice.kind === 'conflict' &&
      cTwice.kind === 'conflict' &&
      cNow.ok &&
      cNow.value.status.state === 'TASK_STATE_COMPLETED',
    `B: ${bTwice.kind}, C: ${cTwice.kind}, C is ${cNow.ok ? cNow.value.status.state : 'unreadable'}`,
  );
}

export default defineScenario({
  name: 'acc-durability',
  description:
    'pending acceptance and the rejection count survive a disconnect and a kill -9: the next rejection ' +
    'past maxRejections fails, decisions stay single, deadlines still fire',
  tags: ['acceptance', 'chaos', 'durability'],
  needs: { acceptance: true, restart: true },
  params: everyProfile({}),
  budgetMs: everyProfile(60_000),
  records: { latencies: [], counters: { restarts: 'tally' } },
  catches: ['acceptance-forgets-rejections'],
  async run(ctx) {
    ctx.acceptance.requireGate({ maxRejections: 1 });
    const a = await rejectedOnce(ctx);
    if (!a) return;
    const b = await onCutStream(ctx);
    if (!b) return;
    const c = await ctx.acceptance.pendingGate('task C parks pending acceptance');
    if (!c) return;
    const cAccepted = await ctx.client.acceptance.decide(c.id, c.contextId, { action: 'accept' });
    if (!ctx.check('task C is accepted before the crash', cAccepted.kind === 'applied', cAccepted.kind)) return;

    // Task D's deadline passes around the restart: the agent must still fail it (a stored deadline, not a timer only).
    const d = await ctx.acceptance.pendingGate('task D parks pending acceptance', {
      criteria: { acceptanceTimeoutSeconds: D_TIMEOUT_S },
    });
    if (!d) return;

    ctx.expectNone(
      `after the client disconnect${ctx.faults.available ? ' (every connection cut)' : ''} ` +
        'tasks A and B are still pending acceptance',
      await notPending(ctx, ctx.client, [a, b]),
      2,
    );
    if (!ctx.faults.available) ctx.log('no fault backend: the disconnect is the rig closing its stream only');

    await ctx.restartAgent();
    ctx.count('restarts');
    ctx.expectNone(
      'after kill -9 and restart tasks A and B are still pending acceptance',
      await notPending(ctx, ctx.direct, [a, b]),
      2,
    );
    await judgeAfterRestart(ctx, a, b, d);
    await staysDecided(ctx, b, c);
  },
});
