// CF-6: the prompt survives a disconnect (AC-6). Drive into INPUT_REQUIRED, hold live streams of
// the task open through the fault proxy — a subscription (SubscribeToTask / tasks/resubscribe) for
// every agent, and the replay socket (/events) where the agent offers the replay plane — and cut
// them all at once by disabling the proxy (which closes every connection through it). Each stream
// must really end. Reconnect: the envelope comes back with the identical prompt_id and
// response_schema, nothing the rig saw is missing or repeated (for the replay plane: the replay
// checker's gap, order and duplicate findings), and a valid answer is accepted and seen on the
// reconnected subscription. Where only a weaker form is possible the check's name says which:
// no fault backend (the rig drops its own side), or an agent that will not subscribe to a parked
// task (a GetTask snapshot through the proxy after the cut stands in for the reconnected stream).
import {
  sameValue,
  defineScenario,
  describeOutcome,
  everyProfile,
  type ScenarioContext,
  type types,
  wire,
} from 'a2a-rig';

const WAIT_MS = 5_000;

type Event = { event: Parameters<typeof wire.envelopeIn>[0] };
type Live = { stream: types.TaskEventStream } | { refused: string } | { silent: string };

/**
 * A subscription that shows the prompt, or why there is none: a refusal (plain JSON or inside the
 * stream, quoted with its code; the stream ended by the agent), or a stream that opened and was
 * still open, silent about the prompt, when the rig gave up on it — not a refusal but a replay
 * that never came (it used to pass cf6 by the weaker GetTask path).
 */
async function subscribeToPrompt(ctx: ScenarioContext, taskId: string, promptId: string): Promise<Live> {
  // One wait for headers and prompt together: an agent that sends its headers only with the first
  // event sends none when it replays nothing, and that is a replay that never came, not an error.
  const deadline = performance.now() + WAIT_MS;
  const sub = await ctx.client.subscribe(taskId, { headerWaitMs: WAIT_MS });
  if (!sub.ok) return { refused: `code ${sub.error.code}: ${sub.error.message}` };
  const seen = await Promise.race([
    sub.stream
      .waitFor(
        (e: Event) => wire.envelopeIn(e.event)?.prompt_id === promptId,
        Math.max(1, deadline - performance.now()),
      )
      .catch(() => undefined),
    sub.stream.ended.then(() => undefined),
  ]);
  if (seen) return { stream: sub.stream };
  const headless = sub.stream.headersPending;
  const end = await Promise.race([sub.stream.ended, sub.stream.close()]);
  if (end.reason === 'closed')
    return {
      silent: headless
        ? `the subscription sent not even its response headers in ${WAIT_MS} ms, let alone prompt ${promptId}: ` +
          'the open prompt was not replayed'
        : `the subscription opened and stayed open ${WAIT_MS} ms without prompt ${promptId} ` +
          `(${sub.stream.events.length} events): the open prompt was not replayed`,
    };
  if (end.reason === 'rpc-error')
    return { refused: `code ${end.error.code}: ${end.error.message} (inside the event stream)` };
  return {
    refused:
      `the subscription never showed prompt ${promptId} ` +
      `(it ${end.reason === 'failed' ? `failed: ${end.error.message}` : end.reason})`,
  };
}

type Prompt = types.AnswerablePrompt;
const hasEnvelopeOf = (promptId: string) => (e: Event) => wire.envelopeIn(e.event)?.prompt_id === promptId;

/** The prompt seen after the cut is the one before: the same prompt_id and response_schema. */
function identical(ctx: ScenarioContext, prompt: Prompt, where: string, envelope: ReturnType<typeof wire.envelopeIn>) {
  ctx.check(
    `${where}: identical prompt_id`,
    envelope?.prompt_id === prompt.promptId,
    envelope ? envelope.prompt_id : 'no envelope',
  );
  ctx.check(
    `${where}: identical response_schema`,
    envelope !== undefined && sameValue(envelope.response_schema, prompt.envelope.response_schema),
  );
}

/** The replay socket from the start of the task's events; one that does not open fails `name`. */
async function openReplay(ctx: ScenarioContext, prompt: Prompt, name: string): Promise<types.ReplaySocket | undefined> {
  const opened = await ctx.client.replay(prompt.taskId, { since: 0 }).catch((err: Error) => err);
  const failed = opened instanceof Error;
  ctx.check(name, !failed, failed ? opened.message : undefined);
  return failed ? undefined : opened;
}

/**
 * The live replay socket, through the proxy, read up to the prompt; undefined with no replay plane.
 * The plane was probed when the run began: a socket that does not open now is a broken plane and
 * fails (`false`), it is not a reason to check less.
 */
async function liveReplay(ctx: ScenarioContext, prompt: Prompt): Promise<types.ReplaySocket | undefined | false> {
  if (!ctx.agent.replayPlane) return undefined;
  const opened = await openReplay(ctx, prompt, 'replay plane (/events): the replay socket opens');
  if (!opened) return false;
  await opened.waitFor(hasEnvelopeOf(prompt.promptId), WAIT_MS);
  return opened;
}

/** Cuts the live streams at once (the proxy disabled, or the rig's own side) and checks each really ended. */
async function cutStreams(ctx: ScenarioContext, first: Live, replay: types.ReplaySocket | undefined): Promise<void> {
  const endedEarly = 'stream' in first && first.stream.end !== undefined;
  const how = ctx.faults.available
    ? 'through the proxy (enabled:false)'
    : 'by the rig dropping its own side (weaker: no fault backend)';
  // On gRPC the proxy fronts the gRPC server; the replay plane is HTTP, beside it, so its socket is
  // cut from the rig's side.
  const replayProxied = ctx.faults.available && ctx.agent.binding !== 'GRPC';
  const replayHow = replayProxied
    ? how
    : ctx.faults.available
      ? 'by the rig dropping its own side (weaker: the proxy fronts the gRPC server, not the replay plane)'
      : how;
  if (ctx.faults.available) {
    await ctx.faults.setEnabled(false);
    await ctx.faults.setEnabled(true);
  } else if ('stream' in first) await first.stream.close();
  if (!replayProxied) await replay?.drop();
  if ('stream' in first) {
    const name = endedEarly
      ? 'the subscription ended (weaker: the agent ended it on its own before the cut)'
      : `the live subscription was cut ${how}`;
    const end = await ctx.within(first.stream.ended, WAIT_MS);
    ctx.check(name, end !== undefined, end ? `it ended: ${end.reason}` : `still open ${WAIT_MS} ms after the cut`);
  }
  if (replay) {
    const end = await ctx.within(replay.ended, WAIT_MS);
    ctx.check(
      `replay plane (/events): the live replay socket was cut ${replayHow}`,
      end !== undefined,
      end ? `it ended: ${end.reason}` : `still open ${WAIT_MS} ms after the cut`,
    );
  }
}

/**
 * Reconnects and looks: a new subscription (undefined for an agent that refuses one: a snapshot
 * stands in), or `false` when the new subscription failed its check.
 */
async function reconnect(
  ctx: ScenarioContext,
  prompt: Prompt,
  first: Live,
): Promise<types.TaskEventStream | undefined | false> {
  const { taskId, promptId } = prompt;
  if ('stream' in first) {
    const second = await subscribeToPrompt(ctx, taskId, promptId);
    if (
      !ctx.check(
        'a new subscription after the cut shows the prompt',
        'stream' in second,
        'stream' in second ? undefined : 'refused' in second ? second.refused : second.silent,
      ) ||
      !('stream' in second)
    )
      return false;
    const snapshot = second.stream.events.find(hasEnvelopeOf(promptId));
    identical(ctx, prompt, 'the subscription after the cut', snapshot && wire.envelopeIn(snapshot.event));
    ctx.check(
      'the subscription after the cut misses nothing (the task still waits on the prompt last seen)',
      second.stream.lastState === 'TASK_STATE_INPUT_REQUIRED',
      second.stream.lastState,
    );
    return second.stream;
  }
  const weaker =
    `(weaker: the agent refuses to subscribe to a parked task, ${'refused' in first ? first.refused : ''}; ` +
    'GetTask snapshot after the cut)';
  const got = await ctx.client.getTask(taskId);
  const check = got.ok ? ctx.client.promptOf(got.value) : undefined;
  identical(
    ctx,
    prompt,
    `the task after the cut ${weaker}`,
    check?.ok ? { prompt_id: check.envelope.prompt_id, response_schema: check.envelope.response_schema } : undefined,
  );
  return undefined;
}

/** The replay after the cut: it reopens, shows the identical prompt, and the replay checker finds nothing. */
async function replayAfterCut(ctx: ScenarioContext, prompt: Prompt): Promise<boolean> {
  const reconnected = await openReplay(ctx, prompt, 'replay plane (/events): the replay socket reopens after the cut');
  if (!reconnected) return false;
  const replayed = await reconnected.waitFor(hasEnvelopeOf(prompt.promptId), WAIT_MS).catch(() => undefined);
  identical(
    ctx,
    prompt,
    'replay plane (/events): the replay after the cut',
    replayed && wire.envelopeIn(replayed.event),
  );
  await reconnected.close();
  await ctx.checkReplayOf([prompt.taskId], 'replay plane (/events)');
  return true;
}

/** The reconnected subscription is live: it shows the answered task leave INPUT_REQUIRED, the prompt once. */
async function checkLiveAfterAnswer(ctx: ScenarioContext, promptId: string, again: types.TaskEventStream) {
  const left = await again
    .waitFor(
      // A status update or a Task snapshot: either shows the task leave INPUT_REQUIRED.
      (e) => {
        const state = wire.stateOfEvent(e.event);
        return state !== undefined && state !== 'TASK_STATE_INPUT_REQUIRED';
      },
      WAIT_MS,
    )
    .catch(() => undefined);
  ctx.check(
    'the subscription after the cut is live: it shows the task leave INPUT_REQUIRED',
    left !== undefined,
    again.end ? `it ended (${again.end.reason})` : `last state ${again.lastState}`,
  );
  const sightings = again.events.filter(hasEnvelopeOf(promptId)).length;
  ctx.check(
    'the subscription after the cut repeats nothing (the prompt is announced once)',
    sightings === 1,
    `${sightings} events carry prompt ${promptId}`,
  );
  await again.close();
}

export default defineScenario({
  name: 'cf6',
  description:
    'CF-6 a live stream cut through the proxy: the reconnecting client sees the identical prompt_id and ' +
    'response_schema, nothing missing or repeated, then the answer is accepted',
  tags: ['conformance', 'hitl', 'replay'],
  needs: { hitlPrompt: true },
  params: everyProfile({}),
  budgetMs: everyProfile(30_000),
  records: { latencies: [], counters: {} },
  catches: ['drop-replay', 'reorder-replay', 'silent-resubscribe'],
  async run(ctx) {
    const prompt = await ctx.openUsablePrompt();
    if (!prompt) return;
    const { taskId, promptId } = prompt;

    // The live streams, through the proxy.
    const first = await subscribeToPrompt(ctx, taskId, promptId);
    if ('silent' in first) {
      ctx.check('a subscription to the parked task shows the open prompt', false, first.silent);
      return;
    }
    const replay = await liveReplay(ctx, prompt);
    if (replay === false) return;
    await cutStreams(ctx, first, replay);

    const again = await reconnect(ctx, prompt, first);
    if (again === false) return;
    if (replay && !(await replayAfterCut(ctx, prompt))) return;

    const answered = await ctx.client.answer(taskId, promptId, prompt.answers.valid, {
      contextId: prompt.task.contextId,
    });
    ctx.check(
      'a valid answer after the reconnect is accepted',
      answered.kind === 'accepted',
      describeOutcome(answered),
    );
    if (again && answered.kind === 'accepted') await checkLiveAfterAnswer(ctx, promptId, again);
  },
});
