// CF-6: outbox replay survives disconnect (AC-6). Drive into INPUT_REQUIRED while watching the
// task's events, disconnect the client transport (the proxy cuts every connection when a fault
// backend is there, else the socket is dropped), reconnect and request a replay: the envelope comes
// back with the identical prompt_id and response_schema, the replay is correct, and a valid answer
// is still accepted. Agents without the replay plane are checked through a fresh subscription.
import { isDeepStrictEqual } from 'node:util';
import { defineScenario, everyProfile } from '../../rig/engine/defineScenario.ts';
import { envelopeIn } from '../../rig/engine/replayChecker.ts';

const WAIT_MS = 5_000;

export default defineScenario({
  name: 'cf6',
  description: 'CF-6 replay after disconnect: identical prompt_id and response_schema, then the answer is accepted',
  tags: ['conformance', 'hitl', 'replay'],
  needs: { extension: true },
  params: everyProfile({}),
  budgetMs: everyProfile(30_000),
  records: { latencies: [], counters: {} },
  async run(ctx) {
    const open = await ctx.openPrompt();
    const prompt = ctx.usable(open);
    if (!prompt) return;
    const hasEnvelope = (e: { event: Parameters<typeof envelopeIn>[0] }) => envelopeIn(e.event)?.prompt_id === prompt.promptId;

    let replayPlane = true;
    const first = await ctx.client.replay(open.taskId, { since: 0 }).catch(() => ((replayPlane = false), undefined));
    let replayed: { prompt_id: string; response_schema: unknown } | undefined;
    if (first) {
      await first.waitFor(hasEnvelope, WAIT_MS);
      if (ctx.faults.available) {
        await ctx.faults.setEnabled(false);
        await ctx.faults.setEnabled(true);
      } else await first.drop();
      const end = await Promise.race([first.ended, new Promise((r) => setTimeout(() => r(undefined), WAIT_MS))]);
      ctx.check('the client transport was disconnected', end !== undefined);
      const again = await ctx.client.replay(open.taskId, { since: 0 });
      replayed = envelopeIn((await again.waitFor(hasEnvelope, WAIT_MS)).event);
      await again.close();
    } else {
      ctx.log('no replay plane at /events: checking through a fresh subscription snapshot');
      const sub = await ctx.client.subscribe(open.taskId);
      if (!sub.ok) return ctx.skip(`the agent has neither a replay plane nor subscriptions (${sub.error.message})`);
      replayed = envelopeIn((await sub.stream.waitFor(hasEnvelope, WAIT_MS)).event);
      await sub.stream.close();
    }
    ctx.check('the replayed envelope has the identical prompt_id', replayed?.prompt_id === prompt.promptId, replayed?.prompt_id);
    ctx.check('the replayed envelope has the identical response_schema', isDeepStrictEqual(replayed?.response_schema, prompt.envelope.response_schema));
    if (replayPlane) await ctx.checkReplayOf([open.taskId]);
    const answered = await ctx.client.answer(open.taskId, prompt.promptId, prompt.answers.valid);
    ctx.check('a valid answer after the reconnect is accepted', answered.kind === 'accepted', `${answered.kind} (HTTP ${answered.httpStatus}, code ${answered.rpcCode})`);
  },
});
