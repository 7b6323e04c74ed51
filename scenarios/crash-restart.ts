// kill -9 of the agent with prompts open and answered, restart on the same storage, replay,
// answer: nothing lost. Every event seen before the crash is replayed after it, identically; open
// prompts come back with the same prompt_id and response_schema and can be answered once; answered
// prompts stay answered (409); prompt_ids stay unique across the restart (S-5).
import { isDeepStrictEqual } from 'node:util';
import { defineScenario } from '../rig/engine/defineScenario.ts';
import { envelopeIn } from '../rig/engine/replayChecker.ts';
import type { ReplaySocket } from '../rig/client/index.ts';

const WAIT_MS = 5_000;

export default defineScenario({
  name: 'crash-restart',
  description: 'kill -9 with open and answered prompts, restart, replay, answer: nothing lost, nothing answered twice',
  tags: ['chaos', 'durability', 'hitl', 'replay'],
  needs: { extension: true, restart: true },
  params: { smoke: { open: 5, answered: 3 }, ci: { open: 20, answered: 10 }, full: { open: 100, answered: 50 } },
  budgetMs: { smoke: 60_000, ci: 120_000, full: 300_000 },
  records: { latencies: [], counters: { restarts: 'tally' } },
  async run(ctx, { open: openCount, answered: answeredCount }) {
    const prompts = [];
    for (let i = 0; i < openCount + answeredCount; i++) {
      const open = await ctx.openPrompt();
      const prompt = ctx.usable(open, { recordPasses: false });
      if (!prompt) return;
      prompts.push({ taskId: open.taskId, ...prompt });
    }
    const toAnswer = prompts.slice(openCount);
    const stillOpen = prompts.slice(0, openCount);
    for (const p of toAnswer) {
      const outcome = await ctx.client.answer(p.taskId, p.promptId, p.answers.valid);
      if (!ctx.check('answers before the crash are accepted', outcome.kind === 'accepted', `${outcome.kind} (HTTP ${outcome.httpStatus})`)) return;
    }

    // What the rig saw before the crash: each task's replay, read to its latest event.
    const before = new Map<string, ReplaySocket>();
    for (const p of prompts) {
      const socket = await ctx.client.replay(p.taskId, { since: 0 }).catch((err: Error) => ctx.skip(`the agent has no replay plane: ${err.message}`));
      const settled = stillOpen.includes(p) ? (e: { event: Parameters<typeof envelopeIn>[0] }) => envelopeIn(e.event)?.prompt_id === p.promptId : () => false;
      await Promise.race([socket.waitFor(settled, WAIT_MS).catch(() => undefined), socket.ended]);
      before.set(p.taskId, socket);
    }
    await ctx.restartAgent();
    ctx.count('restarts');

    let lost = 0;
    let changed = 0;
    const detail: string[] = [];
    for (const p of prompts) {
      const socket = await ctx.direct.replay(p.taskId, { since: 0 });
      const seen = before.get(p.taskId)!.events.filter((e) => e.seq !== undefined);
      const lastSeen = seen.at(-1)?.seq ?? 0;
      await Promise.race([socket.waitFor((e) => (e.seq ?? 0) >= lastSeen, WAIT_MS).catch(() => undefined), socket.ended]);
      const after = new Map(socket.events.filter((e) => e.seq !== undefined).map((e) => [e.seq!, e]));
      for (const e of seen) {
        const again = after.get(e.seq!);
        if (!again) lost++;
        else if (again.eventId !== e.eventId || !isDeepStrictEqual(again.event, e.event)) changed++;
      }
      if (!after.has(1) && detail.length < 3) detail.push(`task ${p.taskId}: replay after restart ${after.size ? `starts at seq ${Math.min(...after.keys())}` : 'is empty'}`);
      if (stillOpen.includes(p)) {
        const replayed = socket.events.map((e) => envelopeIn(e.event)).find((env) => env?.prompt_id === p.promptId);
        ctx.check(`open prompt ${p.promptId} is replayed with the same response_schema`, replayed !== undefined && isDeepStrictEqual(replayed.response_schema, p.envelope.response_schema));
      }
      await socket.close();
    }
    ctx.check('every event seen before the crash is replayed after it', lost === 0, lost ? `${lost} event(s) missing; ${detail.join('; ')}` : `${prompts.length} tasks`);
    ctx.check('replayed events are identical (seq, eventId, content)', changed === 0, changed ? `${changed} event(s) differ` : undefined);

    let stillAnswerable = 0;
    for (const p of stillOpen) {
      const outcome = await ctx.client.answer(p.taskId, p.promptId, p.answers.valid);
      if (outcome.kind === 'accepted') stillAnswerable++;
    }
    ctx.check('open prompts are answerable after the restart', stillAnswerable === stillOpen.length, `${stillAnswerable}/${stillOpen.length}`);
    let conflicts = 0;
    for (const p of toAnswer) {
      const outcome = await ctx.client.answer(p.taskId, p.promptId, p.answers.valid);
      if (outcome.kind === 'conflict') conflicts++;
    }
    ctx.check('prompts answered before the crash stay answered (409)', conflicts === toAnswer.length, `${conflicts}/${toAnswer.length}`);

    const fresh = await ctx.openPrompt();
    const freshPrompt = ctx.usable(fresh, { recordPasses: false });
    const ids = [...prompts.map((p) => p.promptId), ...(freshPrompt ? [freshPrompt.promptId] : [])];
    ctx.check('prompt_ids are unique across tasks and across the restart (S-5)', new Set(ids).size === ids.length, `${new Set(ids).size} distinct of ${ids.length}`);
  },
});
