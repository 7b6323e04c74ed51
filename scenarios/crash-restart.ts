// kill -9 of the agent with prompts open and answered, restart on the same storage: nothing lost,
// nothing answered twice. Works against any agent the rig can restart (embedded, or --restart-cmd),
// through the core A2A surface: after the restart every task still exists (GetTask, and ListTasks
// where the agent has it), every open prompt is still open with the identical envelope and takes
// exactly one answer, every answered prompt stays answered (not back in INPUT_REQUIRED, a second
// answer is 409), and prompt_ids stay unique across the restart (S-5). Where the agent offers the
// replay plane (/events), the outbox is checked too: every event seen before the crash is replayed
// after it, identically.
import {
  sameValue,
  defineScenario,
  describeOutcome,
  taskListed,
  type ScenarioContext,
  type types,
  wire,
} from 'a2a-rig';

const WAIT_MS = 5_000;

interface Opened {
  taskId: string;
  contextId: string;
  promptId: string;
  envelope: wire.PromptEnvelope;
  answers: { valid: unknown };
  answered: boolean;
}

/** Which top-level envelope fields differ, for a detail that says what changed. */
function changedFields(before: wire.PromptEnvelope, after: wire.PromptEnvelope): string[] {
  const [b, a] = [before as unknown as Record<string, unknown>, after as unknown as Record<string, unknown>];
  return [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((k) => !sameValue(b[k], a[k]));
}

const sample = (items: string[]) => (items.length ? `; e.g. ${items.slice(0, 3).join('; ')}` : '');

/** The replay plane's view before the crash: each task's replay, read to its latest event. */
async function replaysBefore(
  ctx: ScenarioContext,
  prompts: Opened[],
): Promise<Map<string, types.ReplaySocket> | undefined> {
  const before = new Map<string, types.ReplaySocket>();
  const refused: string[] = [];
  for (const p of prompts) {
    const socket = await ctx.client
      .replay(p.taskId, { since: 0 })
      .catch((err: Error) => void refused.push(`task ${p.taskId}: ${err.message}`));
    if (!socket) continue;
    const settled = p.answered
      ? () => false
      : (e: { event: Parameters<typeof wire.envelopeIn>[0] }) => wire.envelopeIn(e.event)?.prompt_id === p.promptId;
    await Promise.race([socket.waitFor(settled, WAIT_MS).catch(() => undefined), socket.ended]);
    before.set(p.taskId, socket);
  }
  // The probe found the plane: a task's socket that does not open is a broken plane, not a missing one.
  return ctx.expectNone("replay plane (/events): every task's replay opens before the crash", refused, prompts.length, {
    passed: `${prompts.length} tasks`,
    wrong: 'refused',
  })
    ? before
    : undefined;
}

/** After the restart: every event seen before is replayed, identically, and open prompts come back. */
async function checkReplaysAfter(
  ctx: ScenarioContext,
  prompts: Opened[],
  before: Map<string, types.ReplaySocket>,
): Promise<void> {
  let lost = 0;
  let changed = 0;
  const detail: string[] = [];
  const envelopesMissing: string[] = [];
  for (const p of prompts) {
    const seen = before.get(p.taskId)!.events.filter((e) => e.seq !== undefined);
    const socket = await ctx.direct
      .replay(p.taskId, { since: 0 })
      .catch((err: Error) => void detail.push(`task ${p.taskId}: ${err.message}`));
    if (!socket) {
      lost += seen.length;
      continue;
    }
    const lastSeen = seen.at(-1)?.seq ?? 0;
    await Promise.race([socket.waitFor((e) => (e.seq ?? 0) >= lastSeen, WAIT_MS).catch(() => undefined), socket.ended]);
    const after = new Map(socket.events.filter((e) => e.seq !== undefined).map((e) => [e.seq!, e]));
    for (const e of seen) {
      const again = after.get(e.seq!);
      if (!again) lost++;
      else if (again.eventId !== e.eventId || !sameValue(again.event, e.event)) changed++;
    }
    if (!after.has(1))
      detail.push(
        `task ${p.taskId}: replay after restart ` +
          (after.size ? `starts at seq ${Math.min(...after.keys())}` : 'is empty'),
      );
    if (!p.answered) {
      const replayed = socket.events.map((e) => wire.envelopeIn(e.event)).find((env) => env?.prompt_id === p.promptId);
      if (!replayed || !sameValue(replayed.response_schema, p.envelope.response_schema))
        envelopesMissing.push(p.promptId);
    }
    await socket.close();
  }
  ctx.check(
    'replay plane (/events): every event seen before the crash is replayed after it',
    lost === 0,
    lost ? `${lost} event(s) missing${sample(detail)}` : `${prompts.length} tasks`,
  );
  ctx.check(
    'replay plane (/events): replayed events are identical (seq, eventId, content)',
    changed === 0,
    changed ? `${changed} event(s) differ` : undefined,
  );
  ctx.expectNone(
    'replay plane (/events): open prompts are replayed with the same prompt_id and response_schema',
    envelopesMissing,
    prompts.filter((p) => !p.answered).length,
    { wrong: 'not replayed identically' },
  );
}

/** Opens `open + answered` prompts, the last `answered` of them to be answered before the crash. */
async function openPrompts(ctx: ScenarioContext, open: number, answered: number): Promise<Opened[] | undefined> {
  const prompts: Opened[] = [];
  for (let i = 0; i < open + answered; i++) {
    const prompt = await ctx.openUsablePrompt(undefined, { recordPasses: false });
    if (!prompt) return undefined;
    prompts.push({
      taskId: prompt.taskId,
      contextId: prompt.task.contextId,
      promptId: prompt.promptId,
      envelope: prompt.envelope,
      answers: prompt.answers,
      answered: i >= open,
    });
  }
  return prompts;
}

/** Answers each prompt; what the agent said to those it did not take as `kind`, one line each. */
async function answerEach(ctx: ScenarioContext, prompts: Opened[], kind: 'accepted' | 'conflict'): Promise<string[]> {
  const off: string[] = [];
  for (const p of prompts) {
    const outcome = await ctx.client.answer(p.taskId, p.promptId, p.answers.valid, { contextId: p.contextId });
    if (outcome.kind !== kind) off.push(`prompt ${p.promptId}: ${describeOutcome(outcome)}`);
  }
  return off;
}

type TaskNow = { state: string; envelope: wire.PromptEnvelope | undefined };

/** After the restart: every task still exists, as GetTask (straight to the agent) and ListTasks see it. */
async function checkTasksKept(ctx: ScenarioContext, prompts: Opened[]): Promise<Map<string, TaskNow>> {
  const missing: string[] = [];
  const states = new Map<string, TaskNow>();
  for (const p of prompts) {
    const got = await ctx.direct.getTask(p.taskId);
    if (!got.ok) missing.push(`task ${p.taskId}: GetTask ${got.error.code} ${got.error.message}`);
    else {
      const prompt = ctx.direct.promptOf(got.value);
      states.set(p.taskId, { state: got.value.status.state, envelope: prompt?.ok ? prompt.envelope : undefined });
    }
  }
  const tasks = { passed: `${prompts.length} tasks` };
  ctx.expectNone('every task still exists after the restart (GetTask)', missing, prompts.length, {
    ...tasks,
    wrong: 'lost',
  });
  const unlisted: string[] = [];
  for (const p of prompts) {
    const listed = await taskListed(ctx.direct, p.taskId, p.contextId);
    if (listed.kind === 'unsupported') {
      ctx.log(`ListTasks not checked: ${listed.reason}`);
      return states;
    }
    if (listed.kind === 'failed') unlisted.push(`task ${p.taskId}: ${listed.reason}`);
    else if (!listed.listed) unlisted.push(`task ${p.taskId}: not listed in its context ${p.contextId}`);
  }
  ctx.expectNone('every task is still listed after the restart (ListTasks)', unlisted, prompts.length, tasks);
  return states;
}

/** What is wrong with an open prompt after the restart, if anything: gone, moved on, or changed. */
function notOpenAgain(p: Opened, now: TaskNow | undefined): string | undefined {
  if (!now) return `task ${p.taskId}: gone`;
  if (now.state !== 'TASK_STATE_INPUT_REQUIRED') return `task ${p.taskId}: ${now.state}`;
  if (!now.envelope) return `task ${p.taskId}: INPUT_REQUIRED without a valid envelope`;
  if (sameValue(now.envelope, p.envelope)) return undefined;
  return (
    `prompt ${p.promptId}: ${changedFields(p.envelope, now.envelope).join(', ')} changed` +
    (now.envelope.prompt_id !== p.promptId ? ` (now ${now.envelope.prompt_id})` : '')
  );
}

/** Open prompts after the restart: exactly one answer accepted, a second one rejected (409). */
async function answerOpenAfter(ctx: ScenarioContext, stillOpen: Opened[]): Promise<void> {
  const refusedOpen: string[] = [];
  const twice: string[] = [];
  for (const p of stillOpen) {
    const refused = await answerEach(ctx, [p], 'accepted');
    if (refused.length) refusedOpen.push(...refused);
    else twice.push(...(await answerEach(ctx, [p], 'conflict')));
  }
  ctx.expectNone('open prompts are answerable after the restart', refusedOpen, stillOpen.length, { wrong: 'refused' });
  ctx.expectNone(
    'a second answer to a prompt answered after the restart is rejected (409)',
    twice,
    stillOpen.length - refusedOpen.length,
    { wrong: 'not 409' },
  );
}

/** Answered prompts: not back in INPUT_REQUIRED with that prompt, and a second answer is 409. */
async function checkAnsweredAfter(ctx: ScenarioContext, toAnswer: Opened[], states: Map<string, TaskNow>) {
  const reopened = toAnswer
    .filter((p) => {
      const now = states.get(p.taskId);
      return now?.state === 'TASK_STATE_INPUT_REQUIRED' && now.envelope?.prompt_id === p.promptId;
    })
    .map((p) => `task ${p.taskId} waits on ${p.promptId} again`);
  const reanswered = await answerEach(ctx, toAnswer, 'conflict');
  ctx.expectNone('prompts answered before the crash are not open again after it', reopened, toAnswer.length, {
    passed: `${toAnswer.length} prompts`,
  });
  ctx.expectNone(
    'prompts answered before the crash stay answered (a second answer is 409)',
    reanswered,
    toAnswer.length,
    { wrong: 'not 409' },
  );
}

export default defineScenario({
  name: 'crash-restart',
  description:
    'kill -9 with open and answered prompts, restart: every task still there, open prompts identical and ' +
    'answerable once, answered ones stay answered; the outbox replay when offered',
  tags: ['chaos', 'durability', 'hitl', 'replay'],
  needs: { hitlPrompt: true, restart: true },
  params: { smoke: { open: 5, answered: 3 }, ci: { open: 20, answered: 10 }, full: { open: 100, answered: 50 } },
  budgetMs: { smoke: 60_000, ci: 120_000, full: 300_000 },
  records: { latencies: [], counters: { restarts: 'tally' } },
  catches: ['volatile-outbox', 'reuse-prompt-id'],
  async run(ctx, { open: openCount, answered: answeredCount }) {
    const prompts = await openPrompts(ctx, openCount, answeredCount);
    if (!prompts) return;
    const stillOpen = prompts.filter((p) => !p.answered);
    const toAnswer = prompts.filter((p) => p.answered);
    const refusedBefore = await answerEach(ctx, toAnswer, 'accepted');
    const refused = { wrong: 'refused' };
    if (!ctx.expectNone('answers before the crash are accepted', refusedBefore, toAnswer.length, refused)) return;
    const replayed = ctx.agent.replayPlane ? await replaysBefore(ctx, prompts) : undefined;
    if (!ctx.agent.replayPlane)
      ctx.log(
        'the agent offers no replay plane (/events): durability is checked through GetTask, ListTasks and answers only',
      );

    await ctx.restartAgent();
    ctx.count('restarts');
    const states = await checkTasksKept(ctx, prompts);

    // Open prompts: still open, the identical envelope, and exactly one answer accepted.
    const notOpen = stillOpen.flatMap((p) => notOpenAgain(p, states.get(p.taskId)) ?? []);
    ctx.expectNone(
      'every open prompt is still open after the restart with the identical envelope',
      notOpen,
      stillOpen.length,
      { passed: `${stillOpen.length} prompts` },
    );
    if (replayed) await checkReplaysAfter(ctx, prompts, replayed);
    await answerOpenAfter(ctx, stillOpen);
    await checkAnsweredAfter(ctx, toAnswer, states);

    const freshPrompt = await ctx.openUsablePrompt(undefined, { recordPasses: false });
    const ids = [...prompts.map((p) => p.promptId), ...(freshPrompt ? [freshPrompt.promptId] : [])];
    ctx.check(
      'prompt_ids are unique across tasks and across the restart (S-5)',
      new Set(ids).size === ids.length,
      `${new Set(ids).size} distinct of ${ids.length}`,
    );
  },
});
