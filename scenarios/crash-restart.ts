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
  return ctx.check(
    "replay plane (/events): every task's replay opens before the crash",
    refused.length === 0,
    refused.length ? `${refused.length} refused${sample(refused)}` : `${prompts.length} tasks`,
  )
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
  ctx.check(
    'replay plane (/events): open prompts are replayed with the same prompt_id and response_schema',
    envelopesMissing.length === 0,
    envelopesMissing.length
      ? `${envelopesMissing.length} not replayed identically${sample(envelopesMissing)}`
      : undefined,
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
    const prompts: Opened[] = [];
    for (let i = 0; i < openCount + answeredCount; i++) {
      const prompt = await ctx.openUsablePrompt(undefined, { recordPasses: false });
      if (!prompt) return;
      prompts.push({
        taskId: prompt.taskId,
        contextId: prompt.task.contextId,
        promptId: prompt.promptId,
        envelope: prompt.envelope,
        answers: prompt.answers,
        answered: i >= openCount,
      });
    }
    const stillOpen = prompts.filter((p) => !p.answered);
    const toAnswer = prompts.filter((p) => p.answered);
    const refusedBefore: string[] = [];
    for (const p of toAnswer) {
      const outcome = await ctx.client.answer(p.taskId, p.promptId, p.answers.valid, { contextId: p.contextId });
      if (outcome.kind !== 'accepted') refusedBefore.push(`prompt ${p.promptId}: ${describeOutcome(outcome)}`);
    }
    if (
      !ctx.check(
        'answers before the crash are accepted',
        refusedBefore.length === 0,
        refusedBefore.length
          ? `${refusedBefore.length} of ${toAnswer.length} refused${sample(refusedBefore)}`
          : `${toAnswer.length}/${toAnswer.length}`,
      )
    )
      return;
    const replayed = ctx.agent.replayPlane ? await replaysBefore(ctx, prompts) : undefined;
    if (!ctx.agent.replayPlane)
      ctx.log(
        'the agent offers no replay plane (/events): durability is checked through GetTask, ListTasks and answers only',
      );

    await ctx.restartAgent();
    ctx.count('restarts');

    // Every task still exists, as GetTask (straight to the agent) and ListTasks see it.
    const missing: string[] = [];
    const states = new Map<string, { state: string; envelope: wire.PromptEnvelope | undefined }>();
    for (const p of prompts) {
      const got = await ctx.direct.getTask(p.taskId);
      if (!got.ok) missing.push(`task ${p.taskId}: GetTask ${got.error.code} ${got.error.message}`);
      else {
        const prompt = ctx.direct.promptOf(got.value);
        states.set(p.taskId, { state: got.value.status.state, envelope: prompt?.ok ? prompt.envelope : undefined });
      }
    }
    ctx.check(
      'every task still exists after the restart (GetTask)',
      missing.length === 0,
      missing.length ? `${missing.length} of ${prompts.length} lost${sample(missing)}` : `${prompts.length} tasks`,
    );
    const unlisted: string[] = [];
    let listing: string | undefined;
    for (const p of prompts) {
      const listed = await taskListed(ctx.direct, p.taskId, p.contextId, ctx.signal);
      if (listed.kind === 'unsupported') {
        listing = listed.reason;
        break;
      }
      if (listed.kind === 'failed') unlisted.push(`task ${p.taskId}: ${listed.reason}`);
      else if (!listed.listed) unlisted.push(`task ${p.taskId}: not listed in its context ${p.contextId}`);
    }
    if (listing) ctx.log(`ListTasks not checked: ${listing}`);
    else
      ctx.check(
        'every task is still listed after the restart (ListTasks)',
        unlisted.length === 0,
        unlisted.length ? `${unlisted.length} of ${prompts.length}${sample(unlisted)}` : `${prompts.length} tasks`,
      );

    // Open prompts: still open, the identical envelope, and exactly one answer accepted.
    const notOpen: string[] = [];
    for (const p of stillOpen) {
      const now = states.get(p.taskId);
      if (!now) notOpen.push(`task ${p.taskId}: gone`);
      else if (now.state !== 'TASK_STATE_INPUT_REQUIRED') notOpen.push(`task ${p.taskId}: ${now.state}`);
      else if (!now.envelope) notOpen.push(`task ${p.taskId}: INPUT_REQUIRED without a valid envelope`);
      else if (!sameValue(now.envelope, p.envelope))
        notOpen.push(
          `prompt ${p.promptId}: ${changedFields(p.envelope, now.envelope).join(', ')} changed` +
            (now.envelope.prompt_id !== p.promptId ? ` (now ${now.envelope.prompt_id})` : ''),
        );
    }
    ctx.check(
      'every open prompt is still open after the restart with the identical envelope',
      notOpen.length === 0,
      notOpen.length ? `${notOpen.length} of ${stillOpen.length}${sample(notOpen)}` : `${stillOpen.length} prompts`,
    );
    if (replayed) await checkReplaysAfter(ctx, prompts, replayed);

    const refusedOpen: string[] = [];
    const twice: string[] = [];
    for (const p of stillOpen) {
      const outcome = await ctx.client.answer(p.taskId, p.promptId, p.answers.valid, { contextId: p.contextId });
      if (outcome.kind !== 'accepted') {
        refusedOpen.push(`prompt ${p.promptId}: ${describeOutcome(outcome)}`);
        continue;
      }
      const again = await ctx.client.answer(p.taskId, p.promptId, p.answers.valid, { contextId: p.contextId });
      if (again.kind !== 'conflict') twice.push(`prompt ${p.promptId}: ${describeOutcome(again)}`);
    }
    ctx.check(
      'open prompts are answerable after the restart',
      refusedOpen.length === 0,
      refusedOpen.length
        ? `${refusedOpen.length} of ${stillOpen.length} refused${sample(refusedOpen)}`
        : `${stillOpen.length}/${stillOpen.length}`,
    );
    ctx.check(
      'a second answer to a prompt answered after the restart is rejected (409)',
      twice.length === 0,
      twice.length ? `${twice.length} not 409${sample(twice)}` : undefined,
    );

    // Answered prompts: not back in INPUT_REQUIRED with that prompt, and a second answer is 409.
    const reopened: string[] = [];
    const reanswered: string[] = [];
    for (const p of toAnswer) {
      const now = states.get(p.taskId);
      if (now?.state === 'TASK_STATE_INPUT_REQUIRED' && now.envelope?.prompt_id === p.promptId)
        reopened.push(`task ${p.taskId} waits on ${p.promptId} again`);
      const outcome = await ctx.client.answer(p.taskId, p.promptId, p.answers.valid, { contextId: p.contextId });
      if (outcome.kind !== 'conflict') reanswered.push(`prompt ${p.promptId}: ${describeOutcome(outcome)}`);
    }
    ctx.check(
      'prompts answered before the crash are not open again after it',
      reopened.length === 0,
      reopened.length ? `${reopened.length} of ${toAnswer.length}${sample(reopened)}` : `${toAnswer.length} prompts`,
    );
    ctx.check(
      'prompts answered before the crash stay answered (a second answer is 409)',
      reanswered.length === 0,
      reanswered.length
        ? `${reanswered.length} of ${toAnswer.length} not 409${sample(reanswered)}`
        : `${toAnswer.length}/${toAnswer.length}`,
    );

    const freshPrompt = await ctx.openUsablePrompt(undefined, { recordPasses: false });
    const ids = [...prompts.map((p) => p.promptId), ...(freshPrompt ? [freshPrompt.promptId] : [])];
    ctx.check(
      'prompt_ids are unique across tasks and across the restart (S-5)',
      new Set(ids).size === ids.length,
      `${new Set(ids).size} distinct of ${ids.length}`,
    );
  },
});
