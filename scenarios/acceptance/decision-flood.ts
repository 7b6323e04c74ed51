// Exactly one decision wins: a flood of concurrent decisions on one pending task (accepts and
// rejects without retry, so any winner ends the task) gets exactly one applied; every other one is
// AcceptanceDecisionConflict (-32042; HTTP 409 on HTTP+JSON); the task's state is the winner's, and
// at most one of the flood's decision messages joined its history (one transition, not several);
// where the agent offers the replay plane, its outbox holds exactly one terminal status event.
import { defineScenario, type A2AClient, type ScenarioContext, wire } from 'a2a-rig';

/** Terminal status events in the task's full replay (C or F in its shape). */
async function terminalTransitions(
  ctx: ScenarioContext,
  taskId: string,
): Promise<{ taskId: string; count: number; note: string }> {
  const replayed = await ctx.acceptance.replayShape(taskId);
  if ('refused' in replayed) return { taskId, count: -1, note: ` (replay refused: ${replayed.refused})` };
  return {
    taskId,
    count: replayed.shape.replace(/[^CF]/g, '').length,
    note: replayed.complete ? '' : ' (the replay did not end)',
  };
}

/** What went wrong with one flood, each as a line for its check (none: it held). */
interface FloodProblems {
  notOne: string[];
  others: string[];
  mismatched: string[];
  crowded: string[];
  transitions: Array<{ taskId: string; count: number; note: string }>;
}

/** Decisions on one pending task, all at once: half accepts, half rejects without retry. */
async function flood(ctx: ScenarioContext, client: A2AClient, t: number, task: wire.Task, decisions: number) {
  const sent = Array.from({ length: decisions }, (_, i) => {
    const decision: wire.Decision =
      i % 2 === 0 ? { action: 'accept' } : { action: 'reject', reason: 'OTHER', retry: false };
    return client.acceptance.decide(task.id, task.contextId, decision, { feedback: `flood ${t}-${i}` });
  });
  const outcomes = await Promise.all(sent);
  for (const o of outcomes) {
    ctx.latency('decision_latency').recordMs(o.latencyMs);
    ctx.count(
      o.kind === 'applied' ? 'decisions_applied' : o.kind === 'conflict' ? 'decisions_conflict' : 'decisions_other',
    );
  }
  return outcomes;
}

/** Floods task `t` and adds what went wrong to `problems`; false when no task parked (the check recorded). */
async function floodTask(
  ctx: ScenarioContext,
  client: A2AClient,
  t: number,
  decisions: number,
  problems: FloodProblems,
): Promise<boolean> {
  const task = await ctx.acceptance.pendingGate('the gated task parks pending acceptance');
  if (!task) return false;
  const outcomes = await flood(ctx, client, t, task, decisions);
  const applied = outcomes.filter((o) => o.kind === 'applied');
  if (applied.length !== 1) problems.notOne.push(`task ${task.id}: ${applied.length} applied`);
  const odd = outcomes.filter((o) => o.kind !== 'applied' && o.kind !== 'conflict');
  if (odd.length)
    problems.others.push(
      `task ${task.id}: ${odd.length} ${odd[0].kind}` +
        (odd[0].reason ? ` (${odd[0].reason})` : odd[0].rpcCode !== undefined ? ` (${odd[0].rpcCode})` : ''),
    );
  const after = await ctx.acceptance.settle(task.id, ctx.acceptance.isTerminal);
  const winner = applied.length === 1 ? applied[0].state : undefined;
  if (applied.length === 1 && after?.status.state !== winner)
    problems.mismatched.push(
      `task ${task.id}: the winner left it ${winner}, it is ${ctx.acceptance.stateOf(ctx.client, after)}`,
    );
  const joined = after
    ? after.history.filter((m) => m.parts.some((p) => typeof p.text === 'string' && p.text.startsWith(`flood ${t}-`)))
        .length
    : 0;
  if (joined > 1) problems.crowded.push(`task ${task.id}: ${joined} decision messages in history`);
  if (ctx.agent.replayPlane) problems.transitions.push(await terminalTransitions(ctx, task.id));
  return true;
}

export default defineScenario({
  name: 'acc-decision-flood',
  description:
    'concurrent accepts and rejects on one pending task: exactly one applied, the rest -32042 conflict, ' +
    "the task ends in the winner's state",
  tags: ['acceptance', 'chaos'],
  needs: { acceptance: true },
  params: { smoke: { tasks: 2, decisions: 20 }, ci: { tasks: 5, decisions: 50 }, full: { tasks: 20, decisions: 200 } },
  budgetMs: { smoke: 30_000, ci: 60_000, full: 180_000 },
  records: {
    latencies: ['decision_latency'],
    counters: { decisions_applied: 'tally', decisions_conflict: 'tally', decisions_other: 'tally' },
  },
  catches: ['acceptance-accepts-second-decision'],
  async run(ctx, { tasks, decisions }) {
    ctx.acceptance.requireGate();
    const client = ctx.newClient(Math.min(decisions, 64));
    const problems: FloodProblems = { notOne: [], others: [], mismatched: [], crowded: [], transitions: [] };
    for (let t = 0; t < tasks; t++) if (!(await floodTask(ctx, client, t, decisions, problems))) return;
    ctx.expectNone('exactly one decision of each flood is applied', problems.notOne, tasks, {
      passed: `${tasks} floods of ${decisions}`,
    });
    ctx.expectNone('every other decision is refused as a conflict (-32042)', problems.others, tasks);
    ctx.expectNone('the task ends in the state the winning decision left it in', problems.mismatched, tasks);
    ctx.expectNone(
      'at most one decision message of each flood joins the task history (one transition)',
      problems.crowded,
      tasks,
    );
    if (!ctx.agent.replayPlane)
      ctx.log('the agent offers no replay plane (/events): transitions are judged by the history only');
    else
      ctx.expectNone(
        'the outbox holds exactly one terminal transition per flood (replay plane)',
        problems.transitions.filter((t) => t.count !== 1).map((t) => `task ${t.taskId}: ${t.count}${t.note}`),
        problems.transitions.length,
        { passed: `${problems.transitions.length} tasks` },
      );
  },
});
