// Many tasks parked in INPUT_REQUIRED, each watched over a replay socket through the proxy, while
// faults cut those sockets mid-flight: reset_peer, timeout, limit_data, the proxy disabled, and
// (where the agent can be restarted) a kill -9. After each cut the rig reconnects from the last seq
// it saw and must catch up. Verdict per task: no gap, no duplicate, order kept, identical envelopes,
// every prompt answered exactly once. Reconnect → caught-up latency is recorded.
//
// Each task's script has one prompt per fault phase. In a phase the fault goes on, the current
// prompt of every task is answered (over a direct client, so the answer itself is not what the
// fault cuts), the events that answer causes (resume, next prompt) hit the faulty sockets, the
// fault comes off, and every socket that died reconnects.
import { defineScenario, describeOutcome, type ScenarioContext, type types, wire } from 'a2a-rig';

const WAIT_MS = 5_000;
const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['step'],
  properties: { step: { type: 'integer' } },
};

interface Phase {
  name: string;
  toxic?: types.ToxicSpec;
  disable?: boolean;
  restart?: boolean;
}

const PHASES: Phase[] = [
  { name: 'reset_peer', toxic: { type: 'reset_peer', stream: 'downstream', attributes: { timeout: 50 } } },
  { name: 'timeout', toxic: { type: 'timeout', stream: 'downstream', attributes: { timeout: 100 } } },
  { name: 'limit_data', toxic: { type: 'limit_data', stream: 'downstream', attributes: { bytes: 64 } } },
  { name: 'enabled:false', disable: true },
  { name: 'kill -9', restart: true },
];

interface Watched {
  taskId: string;
  socket: types.ReplaySocket;
  promptIds: string[];
}

/** The prompt the task is waiting on now, from the direct (fault-free) view. */
async function currentPrompt(ctx: ScenarioContext, taskId: string): Promise<string | undefined> {
  const got = await ctx.direct.getTask(taskId);
  if (!got.ok || got.value.status.state !== 'TASK_STATE_INPUT_REQUIRED') return undefined;
  return ctx.direct.promptOf(got.value)?.ok
    ? (ctx.direct.promptOf(got.value) as { envelope: { prompt_id: string } }).envelope.prompt_id
    : undefined;
}

/** Opens `tasks` tasks on `steps`, each watched over a replay socket read up to its first prompt. */
async function watchTasks(ctx: ScenarioContext, tasks: number, steps: unknown[]): Promise<Watched[] | undefined> {
  const watched: Watched[] = [];
  for (let i = 0; i < tasks; i++) {
    const prompt = await ctx.openUsablePrompt(steps, { recordPasses: false });
    if (!prompt) return undefined;
    const socket = await ctx.client.replay(prompt.taskId, { since: 0 });
    await socket.waitFor((e) => wire.envelopeIn(e.event)?.prompt_id === prompt.promptId, WAIT_MS);
    watched.push({ taskId: prompt.taskId, socket, promptIds: [prompt.promptId] });
  }
  return watched;
}

/**
 * Answers every task's current prompt (directly, so the fault does not cut the answer) and then
 * again: how many second answers were not 409, or undefined once a check failed (the run stops).
 */
async function answerPhase(
  ctx: ScenarioContext,
  watched: Watched[],
  phase: Phase,
  step: number,
): Promise<number | undefined> {
  let answeredTwice = 0;
  for (const w of watched) {
    const promptId = await currentPrompt(ctx, w.taskId);
    if (!promptId)
      return void ctx.check(
        `${phase.name}: every task waits on its next prompt`,
        false,
        `task ${w.taskId} is not in INPUT_REQUIRED`,
      );
    const outcome = await ctx.direct.answer(w.taskId, promptId, { step });
    if (outcome.kind !== 'accepted')
      return void ctx.check(`${phase.name}: each prompt's answer is accepted`, false, describeOutcome(outcome));
    const again = await ctx.direct.answer(w.taskId, promptId, { step });
    if (again.kind !== 'conflict') answeredTwice++;
  }
  return answeredTwice;
}

/** Each socket either receives the consequences of the answer (the next prompt) or is cut by the fault. */
async function consequencesOrCut(watched: Watched[], isLast: boolean): Promise<void> {
  const nextPrompt = (w: Watched) => (e: { event: Parameters<typeof wire.envelopeIn>[0] }) =>
    isLast
      ? false
      : wire.envelopeIn(e.event) !== undefined && wire.envelopeIn(e.event)!.prompt_id !== w.promptIds.at(-1);
  await Promise.all(
    watched.map((w) => Promise.race([w.socket.waitFor(nextPrompt(w), WAIT_MS).catch(() => undefined), w.socket.ended])),
  );
}

/**
 * Reconnects every socket the fault cut, from the last seq it saw, timing reconnect → caught up:
 * how many were cut, and the tasks that did not catch up to their next prompt.
 */
async function reconnectCut(
  ctx: ScenarioContext,
  watched: Watched[],
  isLast: boolean,
  reconnectLatency: types.LatencyHistogram,
): Promise<{ cut: number; behind: string[] }> {
  let cut = 0;
  const caughtUp = await Promise.all(
    watched.map(async (w) => {
      const next = isLast ? undefined : await currentPrompt(ctx, w.taskId);
      if (
        w.socket.end !== undefined &&
        !(isLast && w.socket.end.reason === 'closed-by-agent' && w.socket.end.code === 1000)
      ) {
        cut++;
        const started = performance.now();
        w.socket = await w.socket.reconnect();
        if (next)
          await w.socket.waitFor((e) => wire.envelopeIn(e.event)?.prompt_id === next, WAIT_MS).catch(() => undefined);
        else await ctx.within(w.socket.ended, WAIT_MS);
        reconnectLatency.recordMs(performance.now() - started);
      }
      if (!next) return true;
      w.promptIds.push(next);
      return w.socket.events.some((e) => wire.envelopeIn(e.event)?.prompt_id === next);
    }),
  );
  return { cut, behind: watched.filter((_, i) => !caughtUp[i]).map((w) => w.taskId) };
}

/** Prompts in a task's full replay without exactly one resume (one WORKING status between prompts). */
async function promptsNotResumedOnce(ctx: ScenarioContext, w: Watched): Promise<number> {
  const full = await ctx.direct.replay(w.taskId, { since: 0 });
  await ctx.within(full.ended, WAIT_MS);
  let resumes = 0;
  let bad = 0;
  let seenPrompt = false;
  for (const e of full.events) {
    const state = 'statusUpdate' in e.event ? e.event.statusUpdate.status.state : undefined;
    if (wire.envelopeIn(e.event) && 'statusUpdate' in e.event) {
      if (seenPrompt && resumes !== 1) bad++;
      seenPrompt = true;
      resumes = 0;
    } else if (state === 'TASK_STATE_WORKING' && seenPrompt) resumes++;
  }
  if (seenPrompt && resumes !== 1) bad++;
  await full.close();
  return bad;
}

export default defineScenario({
  name: 'disconnect-replay',
  description:
    'replay sockets cut by reset_peer, timeout, limit_data, enabled:false and kill -9; reconnects must ' +
    'lose, repeat and reorder nothing',
  tags: ['chaos', 'replay', 'hitl'],
  needs: { hitlPrompt: true, faults: true, replayPlane: true, scripts: true },
  params: { smoke: { tasks: 10 }, ci: { tasks: 40 }, full: { tasks: 200 } },
  budgetMs: { smoke: 90_000, ci: 240_000, full: 600_000 },
  records: {
    latencies: ['reconnect_to_caught_up'],
    counters: {
      cut_by_reset_peer: 'tally',
      cut_by_timeout: 'tally',
      cut_by_limit_data: 'tally',
      cut_by_enabled_false: 'tally',
      cut_by_kill_9: 'tally',
    },
  },
  catches: ['drop-replay', 'reorder-replay', 'volatile-outbox'],
  async run(ctx, { tasks }) {
    const phases = PHASES.filter((p) => !p.restart || ctx.agent.canRestart);
    if (phases.length < PHASES.length) ctx.log('the agent cannot be restarted here: the kill -9 phase is left out');
    const steps = [
      ...phases.map((p, i) => ({ prompt: { text: `Step ${i + 1} (${p.name}) done?`, response_schema: SCHEMA } })),
      { complete: {} },
    ];
    const watched = await watchTasks(ctx, tasks, steps);
    if (!watched) return;

    const reconnectLatency = ctx.latency('reconnect_to_caught_up');
    let answeredTwice = 0;
    let allPhases = true;
    /** Sockets each phase cut, by the phase's counter name (`cut_by_<phase>`, without the prefix). */
    const cuts: Array<[string, number]> = [];
    for (const [index, phase] of phases.entries()) {
      const toxic = phase.toxic ? await ctx.faults.add(phase.toxic) : undefined;
      if (phase.disable) await ctx.faults.setEnabled(false);
      if (phase.restart) await ctx.restartAgent();
      const twice = await answerPhase(ctx, watched, phase, index + 1);
      if (twice === undefined) return;
      answeredTwice += twice;
      const isLast = index === phases.length - 1;
      await consequencesOrCut(watched, isLast);
      if (toxic) await ctx.faults.remove(toxic.name);
      if (phase.disable) await ctx.faults.setEnabled(true);

      const { cut, behind } = await reconnectCut(ctx, watched, isLast, reconnectLatency);
      const cutBy = phase.name.replace(/[^a-z0-9]+/gi, '_');
      ctx.count(`cut_by_${cutBy}`, cut);
      cuts.push([cutBy, cut]);
      // A task that never caught up has already failed the run; later phases would only wait.
      const name = `${phase.name}: every task caught up to its next prompt after reconnecting`;
      if (!ctx.expectNone(name, behind, watched.length, { passed: `${watched.length} tasks` })) {
        allPhases = false;
        break;
      }
    }
    if (allPhases) await Promise.all(watched.map((w) => ctx.within(w.socket.ended, WAIT_MS)));

    ctx.check(
      'no prompt accepted a second answer',
      answeredTwice === 0,
      `${answeredTwice} second answers were not 409`,
    );
    ctx.check(
      'the faults really cut the replay sockets',
      cuts.every(([, n]) => n > 0),
      cuts.map(([phase, n]) => `${phase}: ${n}`).join(', '),
    );
    await ctx.checkReplayOf(watched.map((w) => w.taskId));
    if (!allPhases) return;
    const bad = (await Promise.all(watched.map((w) => promptsNotResumedOnce(ctx, w)))).reduce((a, b) => a + b, 0);
    ctx.check(
      'every prompt was answered exactly once (one resume per prompt in the replay)',
      bad === 0,
      bad ? `${bad} prompt(s) without exactly one resume` : `${watched.length * phases.length} prompts`,
    );
  },
});
